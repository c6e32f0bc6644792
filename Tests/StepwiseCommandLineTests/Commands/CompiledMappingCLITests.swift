import Foundation
import StepwiseTestSupport
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

    /// What an app ships: the compiled `.momd` with the `.cdm` files beside it. `convert` reads
    /// each `.cdm` against the `.momd` as its source against the `.xcdatamodeld`, and `matrix`
    /// upgrades seeded stores through them.
    @Test(arguments: CompiledMappingCorpus.allCases)
    func compiledMappingModelsBesideACompiledModelDriveTheirSteps(project: CompiledMappingCorpus) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let sources = try TemporaryDirectory()
        let compiled = try project.makeCompiledBundle(in: directory.url, corpus: corpus)
        let bundle = try project.makeBundle(in: sources.url, corpus: corpus)
        for pair in project.pairs {
            let name = "\(pair.sourceVersion) to \(pair.destinationVersion).cdm"
            try FileManager.default.copyItem(at: corpus.url(pair.compiled), to: directory.path(name))
            let fromCompiled = try CommandRunner().run([
                "convert", directory.path(name).path, "--models", compiled.path,
            ])
            let fromSource = try CommandRunner().run(["convert", corpus.url(pair.source).path, "--models", bundle.path])
            #expect(fromCompiled.status == 0, "\(fromCompiled.standardError)")
            #expect(!fromCompiled.standardOutput.isEmpty)
            // The same mapping; only its name, the file's, differs.
            #expect(try Self.unnamed(fromCompiled.standardOutput) == Self.unnamed(fromSource.standardOutput))
        }
        let matrix = try CommandRunner().run(["matrix", "--models", compiled.path, "--rows", "3", "--json"])
        #expect(matrix.status == 0, "\(matrix.standardOutput)\(matrix.standardError)")
        #expect(try matrix.json()["failures"] as? Int == 0)
        let pairs = try #require(try matrix.json()["pairs"] as? [[String: Any]])
        #expect(pairs.count == project.compiledVersions.count * (project.compiledVersions.count - 1) / 2)
    }

    /// A converted mapping's JSON without its `name`, keys sorted.
    static func unnamed(_ json: String) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        object["name"] = nil
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
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
