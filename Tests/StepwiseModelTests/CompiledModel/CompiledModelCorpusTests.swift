import Foundation
import StepwiseModel
import StepwiseTestSupport
import Testing

@Suite("CompiledModel on the corpus")
struct CompiledModelCorpusTests {
    /// `model` as a compiled model can hold it: entities and properties in name order,
    /// `usesScalarValueType` (code generation only) and min/max (archived as validation
    /// predicates, not read) left out.
    static func comparable(_ model: ObjectModel) -> ObjectModel {
        var model = model
        model.entities = model.entities.sorted { $0.name < $1.name }.map { entity in
            var entity = entity
            entity.attributes = entity.attributes.sorted { $0.name < $1.name }.map { attribute in
                var attribute = attribute
                attribute.usesScalarValueType = nil
                attribute.minValue = nil
                attribute.maxValue = nil
                return attribute
            }
            entity.relationships.sort { $0.name < $1.name }
            return entity
        }
        return model
    }

    /// The `.mom` files of a compiled folder, by version name.
    static func compiledVersions(_ folder: URL) throws -> [(name: String, url: URL)] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { $0.hasSuffix(".mom") }
            .map { (String($0.dropLast(".mom".count)), folder.appendingPathComponent($0)) }
    }

    @Test(
        "The catalogue lists every compiled model folder of the corpus",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func catalogueIsComplete() throws {
        let corpus = try Corpus.required()
        #expect(try corpus.compiledModelFolders() == CompiledCorpusModel.all.map(\.compiledPath).sorted())
        #expect(CompiledCorpusModel.all.count == 7)
    }

    @Test(
        "Each .mom gives the same model as its source .xcdatamodel, with the same version hashes",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CompiledCorpusModel.all)
    func eachMomEqualsItsSource(_ pair: CompiledCorpusModel) throws {
        let corpus = try Corpus.required()
        let versions = try Self.compiledVersions(corpus.url(pair.compiledPath))
        #expect(!versions.isEmpty)
        for version in versions {
            let source = try XcodeModelReader.readVersion(
                at: corpus.url(pair.sourcePath).appendingPathComponent(version.name + ".xcdatamodel"))
            let compiled = try CompiledModel.read(
                archive: Data(contentsOf: version.url), name: version.name, origin: version.url.path)
            #expect(compiled == Self.comparable(source), "\(version.name)")
            #expect(VersionHasher.entityHashes(of: compiled) == VersionHasher.entityHashes(of: source))
            #expect(!compiled.entities.isEmpty)
        }
    }

    @Test(
        "Fetch indexes stay fetch indexes: the indexed flags and compound indexes that mirror them are not read",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func fetchIndexMirrorsAreLeftOut() throws {
        let corpus = try Corpus.required()
        let url = corpus.url(
            "compiled/richardpiazza-XcodeServer/Sources/XcodeServerModel_2_0_0/Resources/XcodeServer.momd_precompiled/XcodeServer.mom"
        )
        let model = try CompiledModel.read(archive: Data(contentsOf: url), name: "XcodeServer", origin: url.path)
        let bot = try #require(model[entity: "ManagedBot"])
        #expect(
            bot.fetchIndexes == [
                FetchIndex(name: "byPropertyIndex", elements: [.init(property: "identifier"), .init(property: "name")])
            ])
        #expect(bot.compoundIndexes.isEmpty)
        #expect(model.entities.flatMap(\.attributes).allSatisfy { !$0.isIndexed })
    }
}
