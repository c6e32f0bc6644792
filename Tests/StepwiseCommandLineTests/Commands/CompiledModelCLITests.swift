import Foundation
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `--models` takes a compiled `.momd` as it takes a `.xcdatamodeld`.
@Suite("Compiled models in the CLI", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct CompiledModelCLITests {
    @Test("plan and inspect take a .momd with --models, and plan the steps the .xcdatamodeld plans")
    func planAndInspectTakeAMomd() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let store = try corpus.copyStore(CompiledCorpusModel.sampleModel3Store, to: directory.url)
        let pair = CompiledCorpusModel.all[1]
        func plan(_ models: String) throws -> [[String: Any]] {
            let result = try CommandRunner.testTool().run([
                "plan", store.path, "--models", corpus.url(models).path, "--to", "SampleModel3_v3", "--format", "json",
            ])
            #expect(result.status == 0, "\(result.standardError)")
            return try #require(try result.json()["steps"] as? [[String: Any]])
        }
        let compiled = try plan(pair.compiledPath)
        let source = try plan(pair.sourcePath)
        #expect(!compiled.isEmpty)
        #expect(
            compiled.map { "\($0["from"] ?? "") → \($0["to"] ?? "")" }
                == source.map { "\($0["from"] ?? "") → \($0["to"] ?? "")" })

        let text = try CommandRunner.testTool().run([
            "plan", store.path, "--models", corpus.url(pair.compiledPath).path,
        ])
        #expect(text.status == 0, "\(text.standardError)")

        let inspect = try CommandRunner.testTool().run([
            "inspect", store.path, "--models", corpus.url(pair.compiledPath).path,
        ])
        #expect(inspect.status == 0, "\(inspect.standardError)")
        #expect(inspect.standardOutput.contains("SampleModel3"), "\(inspect.standardOutput)")
    }

    @Test("A damaged .mom is refused with the file named and a non-zero status")
    func damagedMomIsRefused() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let store = try corpus.copyStore(CompiledCorpusModel.sampleModel3Store, to: directory.url)
        let mom = directory.path("Broken.mom")
        try Data("not an archive".utf8).write(to: mom)
        let result = try CommandRunner.testTool().run(["plan", store.path, "--models", mom.path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("Broken.mom"), "\(result.standardError)")
        #expect(result.standardError.contains("not a readable compiled Core Data model"), "\(result.standardError)")
    }
}
