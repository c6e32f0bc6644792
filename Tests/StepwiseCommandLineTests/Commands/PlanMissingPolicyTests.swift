import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `plan` with mappings naming policies the tool doesn't register: the stock `stepwise` on the
/// University history, whose steps University 2 → 3 and 3 → 4 name `UniversityEstYearPolicy`
/// and `CountryNormalizationPolicy`. The whole path is printed with those steps marked, then
/// the command fails with the usual hint; `upgrade` still refuses before touching the store.
@Suite("stepwise plan with a missing policy")
struct PlanMissingPolicyTests {
    let directory: TemporaryDirectory
    let store: URL
    let bundle: String

    init() throws {
        directory = try TemporaryDirectory()
        _ = try SampleHistories.write(to: directory.url)
        store = directory.path("University.sqlite")
        try StoreCreator.createStore(at: store, model: UniversityHistory.v2)
        try UniversitySeed.seed(at: store, model: UniversityHistory.v2)
        bundle = directory.path("University.xcdatamodeld").path
    }

    /// The plan the test tool, which registers the policy, prints.
    func fullPlan() throws -> [[String: Any]] {
        let json = try CommandRunner.testTool().run(["plan", store.path, "--models", bundle, "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        return try #require(try json.json()["steps"] as? [[String: Any]])
    }

    @Test func textPrintsEveryStepMarksTheOneThatNeedsThePolicyThenFails() throws {
        let steps = try fullPlan()

        let result = try CommandRunner().run(["plan", store.path, "--models", bundle])

        #expect(result.status == 65)
        for (index, step) in steps.enumerated() {
            let from = try #require(step["from"] as? String)
            let to = try #require(step["to"] as? String)
            #expect(result.standardOutput.contains("  \(index + 1). \(from) → \(to)  "), "\(result.standardOutput)")
        }
        #expect(result.standardOutput.contains("\(steps.count) step(s) to 'University 4'"))
        let marked = result.standardOutput.split(separator: "\n").filter { $0.contains("needs the policy") }
        #expect(marked.count == 2, "\(result.standardOutput)")
        #expect(marked.first?.contains("'UniversityEstYearPolicy'") == true)
        #expect(marked.last?.contains("'CountryNormalizationPolicy'") == true)
        #expect(marked.allSatisfy { $0.contains("which stepwise doesn't register") })
        // Each mark is printed under its step.
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        let markIndex = try #require(lines.firstIndex { $0.contains("'UniversityEstYearPolicy'") })
        #expect(
            lines[..<markIndex].last { $0.hasPrefix("  ") && !$0.hasPrefix("       ") }?.contains(
                "University 2 → University 3") == true)
        #expect(result.standardError.contains("Error: "))
        #expect(result.standardError.contains("UniversityEstYearPolicy"))
        #expect(result.standardError.contains("Hint: "))
        #expect(result.standardError.contains("StepwiseTool"))
    }

    @Test func jsonHoldsThePlanTheMissingPoliciesAndTheError() throws {
        let steps = try fullPlan()

        let result = try CommandRunner().run(["plan", store.path, "--models", bundle, "--format", "json"])

        #expect(result.status == 65)
        let json = try result.json()
        let planned = try #require(json["steps"] as? [[String: Any]])
        #expect(planned.map { $0["to"] as? String } == steps.map { $0["to"] as? String })
        let missing = try #require(json["missingPolicies"] as? [[String: Any]])
        #expect(missing.map { $0["policy"] as? String } == ["UniversityEstYearPolicy", "CountryNormalizationPolicy"])
        for entry in missing {
            let step = try #require(entry["step"] as? Int)
            #expect(entry["from"] as? String == steps[step - 1]["from"] as? String)
            #expect(entry["to"] as? String == steps[step - 1]["to"] as? String)
            #expect(entry["entityMapping"] as? String != nil)
            #expect((entry["file"] as? String)?.hasSuffix(".json") == true)
        }
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["kind"] as? String == "unregisteredPolicy")
        #expect((error["hint"] as? String)?.contains("StepwiseTool") == true)
        #expect(result.standardError.contains("Hint: "))
    }

    @Test func upgradeStillRefusesBeforeTouchingTheStore() throws {
        let before = try Data(contentsOf: store)

        let result = try CommandRunner().run(["upgrade", store.path, "--models", bundle, "--progress", "none"])

        #expect(result.status == 65)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("UniversityEstYearPolicy"))
        #expect(try Data(contentsOf: store) == before)
        #expect(!FileManager.default.fileExists(atPath: directory.path(".University.sqlite.stepwise").path))
    }
}
