import Foundation
import StepwiseTestSupport
import Testing

@Suite("stepwise upgrade")
struct UpgradeCommandTests {
    let runner: CommandRunner

    init() throws {
        runner = try CommandRunner()
    }

    @Test func upgradesASeededStoreToTheCurrentVersionAndPrintsOnlyTheReportAsJSON() throws {
        let fixture = try RecipesStoreFixture(generatedRecipes: 50)
        let result = try runner.run(fixture.upgradeArguments("--json"))
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        #expect(json["from"] as? String == "Recipes")
        #expect(json["to"] as? String == "Recipes 4")
        #expect(json["upToDate"] as? Bool == false)
        #expect(json["seconds"] is Double)
        #expect(json["backupPath"] == nil)
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.map { $0["from"] as? String } == ["Recipes", "Recipes 2", "Recipes 3"])
        #expect(steps.map { $0["to"] as? String } == ["Recipes 2", "Recipes 3", "Recipes 4"])
        #expect(steps.map { $0["kind"] as? String } == ["explicit", "explicit", "inferred"])
        #expect(steps.map { $0["strategy"] as? String } == ["rebuild", "rebuild", "inPlace"])
        // Derived from the strategy, and still written for one release.
        #expect(steps.map { $0["inPlace"] as? Bool } == [false, false, true])
        #expect(steps.map { $0["resumed"] as? Bool } == [false, false, false])
        #expect(steps.allSatisfy { ($0["rows"] as? Int ?? 0) > 0 && $0["seconds"] is Double })
        // Progress went to standard error, as plain lines: standard error is not a terminal here.
        #expect(result.standardError.contains("Step 1/3: Recipes → Recipes 2 (explicit mapping)"))
        // The line names the JSON's two counts when a policy made objects of its own (Cuisines).
        let (rows1, objects1) = (steps[0]["rows"] as? Int ?? 0, steps[0]["objects"] as? Int ?? 0)
        #expect(objects1 > rows1)
        #expect(
            result.standardError.contains(
                "Step 1/3 done: Recipes → Recipes 2, \(objects1) objects (\(rows1) from source rows, \(objects1 - rows1) more made by policies or stages)"
            ), "\(result.standardError)")
        #expect(result.standardError.contains("Step 3/3 done: Recipes 3 → Recipes 4"))
        #expect(result.standardError.contains("Verifying the upgraded store"))
        #expect(result.standardError.contains("Swapping the upgraded store in"))

        let rows = try fixture.rowCounts()
        for (table, count) in RecipesStoreFixture.expectedRecipes4Rows(generatedRecipes: 50) {
            #expect(rows[table] == count, "\(table)")
        }
        #expect(!fixture.exists(".Recipes.sqlite.stepwise"), "the work folder is removed")
        #expect(!fixture.exists("Recipes.sqlite.stepwise-backup"), "no backup unless asked for")
        let inspected = try runner.run(["inspect", fixture.store.path, "--models", fixture.bundle.path, "--json"])
        #expect(try inspected.json()["matchedVersion"] as? String == "Recipes 4")
    }

    @Test func aSecondRunFindsTheStoreUpToDate() throws {
        let fixture = try RecipesStoreFixture()
        #expect(try runner.run(fixture.upgradeArguments("--json")).status == 0)
        let before = fixture.storeBytes()
        let again = try runner.run(fixture.upgradeArguments("--json"))
        #expect(again.status == 0, "\(again.standardError)")
        let json = try again.json()
        #expect(json["upToDate"] as? Bool == true)
        #expect(json["from"] as? String == "Recipes 4")
        #expect(json["to"] as? String == "Recipes 4")
        #expect((json["steps"] as? [Any])?.isEmpty == true)
        #expect(fixture.storeBytes() == before, "an up-to-date store is not written")
        let text = try runner.run(fixture.upgradeArguments())
        #expect(text.standardOutput.contains("is up to date at 'Recipes 4': nothing to do."))
    }

    @Test func toStopsAtTheRequestedVersionAndALaterRunGoesOnFromThere() throws {
        let fixture = try RecipesStoreFixture(generatedRecipes: 10)
        let first = try runner.run(fixture.upgradeArguments("--to", "Recipes 2", "--json"))
        #expect(first.status == 0, "\(first.standardError)")
        let firstSteps = try #require(try first.json()["steps"] as? [[String: Any]])
        #expect(firstSteps.map { $0["to"] as? String } == ["Recipes 2"])
        #expect(try fixture.rowCounts()["ZCUISINE"] == 2 + 5)

        let second = try runner.run(fixture.upgradeArguments("--json"))
        let json = try second.json()
        #expect(json["from"] as? String == "Recipes 2")
        #expect((json["steps"] as? [[String: Any]])?.map { $0["to"] as? String } == ["Recipes 3", "Recipes 4"])
    }

    @Test func textOutputSummarizesEachStep() throws {
        let fixture = try RecipesStoreFixture()
        let result = try runner.run(fixture.upgradeArguments())
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("from 'Recipes' to 'Recipes 4' in 3 steps"))
        #expect(result.standardOutput.contains("3. Recipes 3 → Recipes 4  inferred"))
        #expect(result.standardOutput.contains("in place"))
        #expect(!result.standardOutput.contains("Step 1/3"), "progress goes to standard error only")
    }

    @Test func aStoreNewerThanTheTargetIsRefusedNamingBothVersions() throws {
        let fixture = try RecipesStoreFixture(version: "Recipes 4")
        let before = fixture.storeBytes()
        let result = try runner.run(fixture.upgradeArguments("--to", "Recipes 2", "--json"))
        #expect(result.status == 3)
        // Standard output holds only the error object; the message is on standard error too.
        let error = try #require(try result.json()["error"] as? [String: Any])
        #expect(error["type"] as? String == "UpgradeError")
        #expect(error["kind"] as? String == "laterThanTarget")
        #expect((error["message"] as? String)?.contains("'Recipes 4'") == true)
        #expect(result.standardError.contains("'Recipes 4'"))
        #expect(result.standardError.contains("'Recipes 2'"))
        #expect(!result.standardError.contains("Usage:"))
        #expect(fixture.storeBytes() == before)
        #expect(!fixture.exists(".Recipes.sqlite.stepwise"))
    }

    @Test func aFailedStepIsAJSONErrorNamingTheStepMappingEntityPropertyAndRow() throws {
        let fixture = try RecipesStoreFixture()
        let mappingFile = fixture.directory.path("Recipes.mappings/Recipes to Recipes 2.json")
        let text = try String(contentsOf: mappingFile, encoding: .utf8)
        try text.replacingOccurrences(of: "firstNameOf:", with: "middleNameOf:")
            .write(to: mappingFile, atomically: true, encoding: .utf8)
        let before = fixture.storeBytes()
        let result = try runner.run(fixture.upgradeArguments("--json"))
        #expect(result.status == 65)
        let error = try #require(try result.json()["error"] as? [String: Any])
        #expect(error["type"] as? String == "UpgradeError")
        #expect(error["kind"] as? String == "stepFailed")
        #expect(error["path"] as? String == fixture.store.path)
        let step = try #require(error["step"] as? [String: Any])
        #expect(step["index"] as? Int == 1 && step["count"] as? Int == 3)
        #expect(step["from"] as? String == "Recipes" && step["to"] as? String == "Recipes 2")
        let mapping = try #require(error["mapping"] as? [String: Any])
        #expect(mapping["entityMapping"] as? String == "ChefToChef")
        #expect(mapping["entity"] as? String == "Chef")
        #expect(mapping["property"] as? String == "firstName")
        #expect(mapping["sourceRow"] as? Int == 1)
        #expect(result.standardError.contains("Error: "))
        #expect(result.standardError.contains("middleNameOf:"))
        #expect(fixture.storeBytes() == before)
    }

    @Test func aStepWithNoMappingFileFailsNamingTheFileToAddAndLeavesTheStoreAlone() throws {
        let fixture = try RecipesStoreFixture()
        let empty = fixture.directory.path("no-mappings")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let before = fixture.storeBytes()
        let result = try runner.run(fixture.upgradeArguments("--mappings", empty.path))
        #expect(result.status != 0)
        #expect(result.standardError.contains("Add a mapping file 'Recipes to Recipes 2.json'"))
        #expect(fixture.storeBytes() == before)
        #expect(!fixture.exists(".Recipes.sqlite.stepwise"))
    }

    @Test func anUnknownTargetListsTheVersionsAndAMissingStoreIsNamed() throws {
        let fixture = try RecipesStoreFixture()
        let unknown = try runner.run(fixture.upgradeArguments("--to", "Recipes 9"))
        #expect(unknown.status != 0)
        #expect(unknown.standardError.contains("Recipes 9"))
        #expect(unknown.standardError.contains("Recipes, Recipes 2, Recipes 3, Recipes 4"))

        let missing = fixture.directory.path("Missing.sqlite").path
        let result = try runner.run(["upgrade", missing, "--models", fixture.bundle.path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("no store at \(missing)"))
        #expect(!fixture.exists(".Missing.sqlite.stepwise-lock"))
    }

    @Test func theProgressBarRedrawsOneLineInPlace() throws {
        let fixture = try RecipesStoreFixture(generatedRecipes: 20)
        let result = try runner.run(fixture.upgradeArguments("--progress", "bar", "--json"))
        #expect(result.status == 0, "\(result.standardError)")
        // 80 columns (no terminal to ask): the versions are on the step's own line, not the bar's.
        #expect(result.standardError.contains("Step 1/3: Recipes → Recipes 2 (explicit mapping)…\n"))
        #expect(result.standardError.contains("\r\u{1B}[K[1/3] creating ChefToChef  "))
        // Before its first entity mapping, step 1 expects as many objects as the store holds
        // (14 + 4 × 20); then each mapping's bar counts its own source rows (4 + 20 chefs).
        #expect(result.standardError.contains("explicit mapping  0/94 ["))
        #expect(result.standardError.contains("creating ChefToChef  0/24 ["))
        // 24 chefs, 24 recipes, 46 ingredients and the 7 cuisines the policy creates.
        #expect(result.standardError.contains("\r\u{1B}[KStep 1/3 done: Recipes → Recipes 2, 101 objects"))
        #expect(try result.json()["upToDate"] as? Bool == false)
        // Each redraw (after "\r" and the erase-line escape) fits in 79 columns.
        let redraws = result.standardError.split(separator: "\r").filter { $0.hasPrefix("\u{1B}[K[") }
        #expect(!redraws.isEmpty)
        #expect(redraws.allSatisfy { $0.dropFirst(3).count <= 79 })

        let wide = try RecipesStoreFixture()
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "160"
        let wideResult = try runner.run(wide.upgradeArguments("--progress", "bar"), environment: environment)
        #expect(wideResult.standardError.contains("[1/3] Recipes → Recipes 2 · creating ChefToChef  "))

        let quiet = try RecipesStoreFixture()
        let silent = try runner.run(quiet.upgradeArguments("--progress", "none"))
        #expect(silent.status == 0)
        #expect(silent.standardError.isEmpty)
    }

    @Test func helpExplainsResumeAndRollbackWithAnExample() throws {
        let result = try runner.run(["upgrade", "--help"])
        #expect(result.status == 0)
        let expected = [
            "Resume:", "Rollback:", "stepwise rollback STORE", "--keep-backup", "--lock-timeout", "Examples:",
        ]
        for text in expected {
            #expect(result.standardOutput.contains(text), "\(text)")
        }
    }
}
