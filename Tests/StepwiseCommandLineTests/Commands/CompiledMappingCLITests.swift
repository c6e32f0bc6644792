import Foundation
import StepwiseTesting
import Testing

/// The CLI reads compiled mapping models (`.cdm`) as the `.xcmappingmodel`s they come from:
/// `convert` prints the same mapping, and beside the bundle they drive their steps.
@Suite("Compiled mapping models in the CLI", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct CompiledMappingCLITests {
    @Test(arguments: CompiledMappingCorpus.pairs)
    func convertPrintsTheSameMappingAsItsSource(pair: CompiledMappingCorpus.Pair) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let bundle = try pair.project.makeBundle(in: directory.url, corpus: corpus)

        let compiled = try CommandRunner().run(["convert", corpus.url(pair.compiled).path, "--models", bundle.path])
        let source = try CommandRunner().run(["convert", corpus.url(pair.source).path, "--models", bundle.path])
        #expect(compiled.status == 0, "\(compiled.standardError)")
        #expect(source.status == 0, "\(source.standardError)")
        #expect(!compiled.standardOutput.isEmpty)
        #expect(compiled.standardOutput == source.standardOutput)
        #expect(
            compiled.standardError.contains(
                "'\(pair.sourceVersion)' → '\(pair.destinationVersion)' (bound by entity version hashes)"),
            "\(compiled.standardError)")
    }

    /// XcodeServer's history with only its two `.cdm` files beside it (renamed `.cdm`, and kept
    /// `.cdm_precompiled`): `plan` names them for their steps, and `matrix` upgrades seeded
    /// stores through them, as with the `.xcmappingmodel`s.
    @Test func compiledMappingModelsBesideTheBundleDriveTheirSteps() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let bundle = try CompiledMappingCorpus.xcodeServer.makeBundle(in: directory.url, corpus: corpus)
        let pairs = CompiledMappingCorpus.xcodeServer.pairs
        let names = ["MappingModel_1_1_0.cdm", "MappingModel_2_0_0.cdm_precompiled"]
        for (pair, name) in zip(pairs, names) {
            try FileManager.default.copyItem(at: corpus.url(pair.compiled), to: directory.path(name))
        }
        let store = directory.path("XcodeServer.sqlite")
        let created = try CommandRunner().run([
            "create", store.path, "--models", bundle.path, "--version", "XcodeServer 1.0.0",
        ])
        #expect(created.status == 0, "\(created.standardError)")

        let plan = try CommandRunner().run(["plan", store.path, "--models", bundle.path, "--format", "json"])
        #expect(plan.status == 0, "\(plan.standardError)")
        let steps = try #require(try plan.json()["steps"] as? [[String: Any]])
        #expect(steps.map { $0["kind"] as? String } == ["explicit", "explicit"])
        let files = steps.flatMap { $0["mappingFiles"] as? [[String: Any]] ?? [] }
        #expect(files.map { URL(fileURLWithPath: $0["path"] as? String ?? "").lastPathComponent } == names)
        #expect(
            files.allSatisfy { $0["format"] as? String == "cdm" && $0["binding"] as? String == "entity version hashes" }
        )

        let matrix = try CommandRunner().run(["matrix", "--models", bundle.path, "--rows", "3", "--json"])
        #expect(matrix.status == 0, "\(matrix.standardOutput)\(matrix.standardError)")
        #expect(try matrix.json()["failures"] as? Int == 0)
        #expect(try (matrix.json()["pairs"] as? [[String: Any]])?.count == 3)
    }

    @Test func aCompiledMappingModelThatFitsNoStepStopsTheUpgradeNamingIt() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let bundle = try CompiledMappingCorpus.coreDataPlus.makeBundle(in: directory.url, corpus: corpus)
        let stray = directory.path("Stray.cdm")
        try FileManager.default.copyItem(at: corpus.url(CompiledMappingCorpus.xcodeServer.pairs[0].compiled), to: stray)
        let store = directory.path("Books.sqlite")
        _ = try CommandRunner().run(["create", store.path, "--models", bundle.path, "--version", "CoreDataPlus 1.0"])
        let before = try Data(contentsOf: store)

        let result = try CommandRunner().run(["upgrade", store.path, "--models", bundle.path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("Stray.cdm"), "\(result.standardError)")
        #expect(result.standardError.contains("fits no pair of model versions"), "\(result.standardError)")
        #expect(try Data(contentsOf: store) == before)
    }
}
