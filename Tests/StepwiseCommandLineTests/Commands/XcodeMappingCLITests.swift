import Foundation
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The CLI runs a team's own `.xcmappingmodel` files: `plan` names them, and a broken one stops
/// `upgrade` before any step, with the store left byte-identical.
@Suite("Xcode mapping models in the CLI", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct XcodeMappingCLITests {
    @Test(arguments: [
        ("M2", CorpusBundle.moody, ["Moody 2-Moody 3", "Moody 3-Moody 4", "Moody 4-Moody 5", "Moody 5-Moody 6"]),
        ("W1", CorpusBundle.wibosco, ["Migration1to2", "Migration2to3"]),
        ("v4", CorpusBundle.apptentive, ["ATDataModel v4 to v5", "ATDataModel v5 to v6"]),
    ])
    func planNamesEachExplicitStepsMappingModel(store: String, bundle: CorpusBundle, files: [String]) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(try CorpusStore.named(store), to: directory.url)
        let text = try CommandRunner.testTool().run(["plan", copy.path, "--models", corpus.url(bundle).path])
        #expect(text.status == 0, "\(text.standardError)")
        for file in files {
            #expect(
                text.standardOutput.contains("\(file).xcmappingmodel, bound by model paths"), "\(text.standardOutput)")
        }
        let json = try CommandRunner.testTool().run([
            "plan", copy.path, "--models", corpus.url(bundle).path, "--format", "json",
        ])
        let steps = try #require(try json.json()["steps"] as? [[String: Any]])
        let mappingFiles = steps.filter { $0["kind"] as? String == "explicit" }
            .flatMap { $0["mappingFiles"] as? [[String: Any]] ?? [] }
        #expect(
            mappingFiles.map { URL(fileURLWithPath: $0["path"] as? String ?? "").lastPathComponent }
                == files.map { "\($0).xcmappingmodel" })
        #expect(
            mappingFiles.allSatisfy {
                $0["format"] as? String == "xcmappingmodel" && $0["binding"] as? String == "model paths"
            })
    }

    /// wibosco's bundle copied with `Migration1to2` edited to name `hexColour`, which version 2
    /// lacks: `upgrade` refuses it by name and leaves W1 byte-identical.
    @Test func aMappingModelNamingAMissingAttributeStopsTheUpgradeAndLeavesTheStore() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let bundle = directory.path("CoreDataMigration_Example.xcdatamodeld")
        try copyFolder(corpus.url(.wibosco), to: bundle)
        for mappingModel in try corpus.mappingModels(.wibosco) {
            try copyFolder(mappingModel, to: directory.path(mappingModel.lastPathComponent))
        }
        let xml = directory.path("Migration1to2.xcmappingmodel/xcmapping.xml")
        let edited = try String(contentsOf: xml, encoding: .utf8).replacingOccurrences(
            of: ">hexColor<", with: ">hexColour<")
        try Data(edited.utf8).write(to: xml)
        let store = try corpus.copyStore(try CorpusStore.named("W1"), to: directory.url)
        let before = try Data(contentsOf: store)

        let result = try CommandRunner.testTool().run(["upgrade", store.path, "--models", bundle.path, "--json"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("hexColour"), "\(result.standardError)")
        #expect(result.standardError.contains("Migration1to2.xcmappingmodel"), "\(result.standardError)")
        #expect(try Data(contentsOf: store) == before)
        let error = try #require(try result.json()["error"] as? [String: Any])
        #expect(error["kind"] as? String == "unknownProperty")
        let mapping = try #require(error["mapping"] as? [String: Any])
        #expect(mapping["entityMapping"] as? String == "PostToPost")
        #expect((mapping["file"] as? String)?.hasSuffix("Migration1to2.xcmappingmodel") == true)
    }

    private func copyFolder(_ source: URL, to destination: URL) throws {
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            let item = source.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: item.path, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                try copyFolder(item, to: destination.appendingPathComponent(name))
            } else {
                try Data(contentsOf: item).write(to: destination.appendingPathComponent(name))
            }
        }
    }
}
