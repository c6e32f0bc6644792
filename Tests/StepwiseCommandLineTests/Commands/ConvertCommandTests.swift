import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `stepwise convert` prints each corpus mapping model as a JSON mapping file that loads back
/// to exactly the mapping Stepwise runs from the `.xcmappingmodel`.
@Suite("stepwise convert", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct ConvertCommandTests {
    static var mappingModels: [(CorpusBundle, String)] {
        guard let corpus = try? Corpus.locate() else { return [] }
        return CorpusBundle.allCases.flatMap { bundle in
            ((try? corpus.mappingModels(bundle)) ?? []).map { (bundle, $0.lastPathComponent) }
        }
    }

    @Test(arguments: mappingModels)
    func theJSONLoadsBackToTheSameMapping(bundle: CorpusBundle, file: String) throws {
        let corpus = try Corpus.required()
        let models = try corpus.modelBundle(bundle)
        let mappingModel = corpus.url(bundle).deletingLastPathComponent().appendingPathComponent(file)
        let result = try CommandRunner().run(["convert", mappingModel.path, "--models", corpus.url(bundle).path])
        #expect(result.status == 0, "\(result.standardError)")
        let original = try XcodeMappingModel.load(mappingModel, history: models.history)
        #expect(result.standardError.contains("'\(original.sourceVersion)' → '\(original.destinationVersion)'"))
        #expect(result.standardError.contains("bound by model paths"))

        let converted = try MappingFile.decode(
            Data(result.standardOutput.utf8), source: try models.version(named: original.sourceVersion),
            destination: try models.version(named: original.destinationVersion))
        #expect(converted.entityMappings == original.entityMappings)
        #expect(converted.name == original.name)
    }

    @Test func writesToAFileWithOutput() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let output = directory.path("Migration2to3.json")
        let mappingModel = try #require(try corpus.mappingModels(.wibosco).last)
        let result = try CommandRunner().run([
            "convert", mappingModel.path, "--models", corpus.url(.wibosco).path, "--output", output.path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any])
        let mappings = try #require(json["entityMappings"] as? [[String: Any]])
        #expect(mappings.map { $0["destination"] as? String } == ["Color", "Post"])
        #expect(mappings[1]["policy"] as? String == "CoreDataMigration_Example.Post2ToPost3MigrationPolicy")
    }
}
