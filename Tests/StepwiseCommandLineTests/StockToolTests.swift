import Foundation
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The stock `stepwise` registers the demo's Recipes policies only: a mapping naming another
/// policy is refused before any step runs, with a hint to build your own tool.
@Suite("The stock stepwise tool's policies")
struct StockToolTests {
    @Test func anUnregisteredPolicyIsRefusedWithAHintToBuildYourOwnTool() throws {
        let directory = try TemporaryDirectory()
        _ = try SampleHistories.write(to: directory.url)
        let store = directory.path("University.sqlite")
        try StoreCreator.createStore(at: store, model: UniversityHistory.v2)
        try UniversitySeed.seed(at: store, model: UniversityHistory.v2)
        let before = try Data(contentsOf: store)
        let arguments = [
            "upgrade", store.path, "--models", directory.path("University.xcdatamodeld").path, "--progress", "none",
        ]

        let refused = try CommandRunner().run(arguments + ["--json"])

        #expect(refused.status == 65)
        #expect(refused.standardError.contains("UniversityEstYearPolicy"))
        #expect(refused.standardError.contains("Hint: "))
        #expect(refused.standardError.contains("StepwiseTool"))
        let error = try #require(try refused.json()["error"] as? [String: Any])
        #expect(error["kind"] as? String == "unregisteredPolicy")
        #expect((error["hint"] as? String)?.contains("StepwiseTool") == true)
        #expect(try Data(contentsOf: store) == before)
        // The test tool registers it, and upgrades the same store.
        let upgraded = try CommandRunner.testTool().run(arguments)
        #expect(upgraded.status == 0, "\(upgraded.standardError)")
    }

    /// Swift's mangled names carry their module's name: a `stepwise` that linked StepwiseTesting,
    /// even through another module, would hold "StepwiseTesting" in its symbols.
    @Test func theExecutableDoesNotLinkStepwiseTesting() throws {
        let stepwise = try Data(contentsOf: try CommandRunner().executable)
        #expect(stepwise.range(of: Data("StepwiseCommandLine".utf8)) != nil, "the check can see module names")
        #expect(stepwise.range(of: Data("StepwiseTesting".utf8)) == nil)
        #expect(stepwise.range(of: Data("StepwiseTestSupport".utf8)) == nil)
        #expect(stepwise.range(of: Data("UniversityEstYearPolicy".utf8)) == nil)
    }
}
