import Foundation
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The University and Events mappings name policies the stock `stepwise` doesn't register:
/// these tests run `stepwise-test-tool`, which knows every sample policy.
@Suite("stepwise matrix")
struct MatrixCommandTests {
    let runner: CommandRunner
    let directory: TemporaryDirectory

    init() throws {
        runner = try CommandRunner.testTool()
        directory = try TemporaryDirectory()
        _ = try SampleHistories.write(to: directory.url)
    }

    func bundle(_ name: String) -> String {
        directory.path("\(name).xcdatamodeld").path
    }

    @Test func aTableOfEveryPairWithTimes() throws {
        let result = try runner.run(["matrix", "--models", bundle("University"), "--rows", "5"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix("from \\ to") == true)
        #expect(lines.first?.hasSuffix("University 2  University 3  University 4") == true)
        #expect(lines[1].hasPrefix("University "), "one row per source version")
        #expect(lines[3].hasPrefix("University 3"))
        #expect(lines[3].contains("·"), "University 3 → University 2 isn't a pair")
        #expect(result.standardOutput.filter { $0 == "✓" }.count == 6)
        #expect(!result.standardOutput.contains("✗"))
        #expect(lines.contains("6 of 6 pairs passed (5 rows per entity, seed 1)."))
        // Progress, one line per pair as it finishes (pairs of different first versions run
        // at once, so in any order), goes to standard error.
        let progress = result.standardError.split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(progress.count == 6)
        #expect(progress.last?.hasPrefix("[6/6] ") == true)
        #expect(progress.contains { $0.contains("] University 3 → University 4 ✓ ") })
    }

    @Test func jsonListsEachPair() throws {
        let result = try runner.run(["matrix", "--models", bundle("Recipes"), "--rows", "4", "--seed", "9", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        #expect(json["failures"] as? Int == 0)
        let pairs = try #require(json["pairs"] as? [[String: Any]])
        #expect(pairs.count == 6)
        #expect(pairs.first?["from"] as? String == "Recipes")
        #expect(pairs.first?["to"] as? String == "Recipes 2")
        #expect(pairs.allSatisfy { $0["ok"] as? Bool == true && ($0["seconds"] as? Double ?? -1) >= 0 })
        #expect(pairs.allSatisfy { $0["error"] == nil }, "no error key when a pair passed")
    }

    /// A mapping that fills Recipe's required name from its optional directions: every pair
    /// through Recipes 2 → 3 fails validation, on the first recipe without directions.
    func brokenRecipesMapping() throws {
        let file = directory.path("Recipes.mappings/Recipes 2 to Recipes 3.json")
        let text = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: "\"name\": \"$source.name\"", with: "\"name\": \"$source.directions\"")
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    @Test func aBrokenMappingIsACrossWithItsMessageAndExitStatus1() throws {
        try brokenRecipesMapping()
        let result = try runner.run(["matrix", "--models", bundle("Recipes"), "--rows", "6"])
        #expect(result.status == 1)
        #expect(result.standardOutput.filter { $0 == "✗" }.count == 4 + 4, "4 cells and 4 messages")
        #expect(result.standardOutput.filter { $0 == "✓" }.count == 2)
        let messages = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("✗ ") }
        #expect(messages.count == 4)
        let message = try #require(messages.first { $0.hasPrefix("✗ Recipes 2 → Recipes 3: ") })
        #expect(message.contains("upgrade failed for Recipe, source row Z_PK "))
        #expect(message.contains("property 'name'"))
        #expect(message.contains("the required attribute has no value"))
        #expect(result.standardOutput.contains("2 of 6 pairs passed"))

        let json = try runner.run(["matrix", "--models", bundle("Recipes"), "--rows", "6", "--json"])
        #expect(json.status == 1)
        let report = try json.json()
        #expect(report["failures"] as? Int == 4)
        let pairs = try #require(report["pairs"] as? [[String: Any]])
        let failed = pairs.filter { $0["ok"] as? Bool == false }
        #expect(
            failed.map { "\($0["from"] ?? "") → \($0["to"] ?? "")" } == [
                "Recipes → Recipes 3", "Recipes → Recipes 4", "Recipes 2 → Recipes 3", "Recipes 2 → Recipes 4",
            ])
        #expect(failed.allSatisfy { ($0["error"] as? String)?.contains("property 'name'") == true })
    }

    @Test func pairsWithoutAPathAreShownAndNotChecked() throws {
        let empty = directory.path("no-mappings")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let result = try runner.run([
            "matrix", "--models", bundle("Recipes"), "--mappings", empty.path, "--rows", "3",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("no path"))
        #expect(result.standardOutput.contains("No path (not checked): Recipes → Recipes 2"))
        // Recipes 2 → 3 is inferred as Core Data infers it (the ingredient links left out).
        #expect(result.standardOutput.contains("3 of 3 pairs passed"))
    }

    @Test(arguments: [["--rows", "-1"], ["--ignore", "colorID"]])
    func badArgumentsAreRefused(_ arguments: [String]) throws {
        let result = try runner.run(["matrix", "--models", bundle("Events")] + arguments)
        #expect(result.status != 0)
        #expect(result.standardError.contains(arguments[0]))
    }
}
