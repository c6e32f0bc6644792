import Foundation
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

@Suite("stepwise CLI")
struct CLITests {
    let runner: CommandRunner
    let directory: TemporaryDirectory

    init() throws {
        runner = try CommandRunner()
        directory = try TemporaryDirectory()
    }

    func writeRecipesBundle() throws -> URL {
        _ = try SampleHistories.write(to: directory.url)
        return directory.path("Recipes.xcdatamodeld")
    }

    @Test func helpListsEveryCommand() throws {
        let result = try runner.run(["--help"])
        #expect(result.status == 0)
        for command in ["demo", "inspect", "create", "schema", "plan", "upgrade", "rollback"] {
            #expect(result.standardOutput.contains(command))
        }
    }

    @Test func demoSeedsAFewThousandObjectsAndUpgradesThemToTheNewestVersion() throws {
        let result = try runner.run(["demo", "--directory", directory.url.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        let inspection = try #require(json["inspection"] as? [String: Any])
        #expect(inspection["matchedVersion"] as? String == "Recipes")
        #expect(inspection["matchedBy"] as? String == "hash")
        #expect(inspection["consistent"] as? Bool == true)
        let tables = try #require(inspection["tables"] as? [[String: Any]])
        let chefRows = tables.first { $0["name"] as? String == "ZCHEF" }?["rows"] as? Int
        #expect(chefRows == 4 + 1000)
        let plan = try #require(json["plan"] as? [[String: Any]])
        #expect(plan.map { $0["kind"] as? String } == ["explicit", "explicit", "inferred"])
        let upgrade = try #require(json["upgrade"] as? [String: Any])
        #expect(upgrade["from"] as? String == "Recipes")
        #expect(upgrade["to"] as? String == "Recipes 4")
        #expect(upgrade["upToDate"] as? Bool == false)
        #expect((upgrade["backupPath"] as? String)?.hasSuffix("Recipes.sqlite.stepwise-backup") == true)
        let steps = try #require(upgrade["steps"] as? [[String: Any]])
        #expect(steps.map { $0["to"] as? String } == ["Recipes 2", "Recipes 3", "Recipes 4"])
        #expect(steps.map { $0["kind"] as? String } == ["explicit", "explicit", "inferred"])
        #expect(steps.last?["strategy"] as? String == "inPlace")
        #expect(steps.last?["inPlace"] as? Bool == true)
        // Chefs, recipes and ingredients, each from a source row (a policy's Cuisines are not counted).
        #expect(steps.first?["rows"] as? Int == 14 + 4 * 1000)
        let final = try #require(json["final"] as? [String: Any])
        #expect(final["matchedVersion"] as? String == "Recipes 4")
        let finalTables = try #require(final["tables"] as? [[String: Any]])
        let rows = Dictionary(
            uniqueKeysWithValues: finalTables.compactMap { table in
                (table["name"] as? String).map { ($0, table["rows"] as? Int ?? -1) }
            })
        for (table, count) in RecipesStoreFixture.expectedRecipes4Rows(generatedRecipes: 1000) {
            #expect(rows[table] == count, "\(table)")
        }
        #expect(
            FileManager.default.fileExists(
                atPath: directory.path("Recipes.xcdatamodeld/Recipes 4.xcdatamodel/contents").path))
        #expect(FileManager.default.fileExists(atPath: directory.path("Recipes.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: directory.path("Recipes.sqlite.stepwise-backup").path))
        #expect(result.standardError.contains("Step 1/3: Recipes → Recipes 2"), "progress on standard error")
    }

    @Test func demoPrintsThePlanTheUpgradeAndMigratedRowsInText() throws {
        let result = try runner.run(["demo", "--directory", directory.url.path, "--recipes", "20"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("with 94 objects (4 hand-picked recipes, 20 generated)"))
        #expect(result.standardOutput.contains("stepwise plan: 3 steps to 'Recipes 4', 2 explicit"))
        #expect(result.standardOutput.contains("Recipes 3 → Recipes 4  inferred (lightweight, no mapping file)"))
        #expect(result.standardOutput.contains("from 'Recipes' to 'Recipes 4' in 3 steps"))
        #expect(result.standardOutput.contains("Miguel | Sanchez"))
        #expect(result.standardOutput.contains("Mexican: Mole Poblano, Tacos al Pastor, Pozole\n"))
        #expect(result.standardOutput.contains("chiles: Mole Poblano (6); Tacos al Pastor (2)\n"))
        #expect(result.standardOutput.contains("… and 19 more chefs"))
        #expect(result.standardOutput.contains("stepwise rollback"))
        // Running it again in the same folder starts over from a fresh store.
        let again = try runner.run(["demo", "--directory", directory.url.path, "--recipes", "0", "--json"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect((try again.json()["upgrade"] as? [String: Any])?["from"] as? String == "Recipes")
    }

    @Test func createThenInspectNamesTheVersionAndCountsTables() throws {
        let bundle = try writeRecipesBundle()
        let store = directory.path("New.sqlite").path
        let created = try runner.run(["create", store, "--models", bundle.path, "--version", "Recipes 2"])
        #expect(created.status == 0, "\(created.standardError)")
        #expect(created.standardOutput.contains("Recipes 2"))

        let inspected = try runner.run(["inspect", store, "--models", bundle.path, "--json"])
        #expect(inspected.status == 0, "\(inspected.standardError)")
        let json = try inspected.json()
        #expect(json["matchedVersion"] as? String == "Recipes 2")
        #expect(json["matchedBy"] as? String == "hash")
        #expect(json["consistent"] as? Bool == true)
        #expect(json["problem"] is NSNull)
        let hashes = try #require(json["entityHashes"] as? [String: String])
        #expect(hashes["Cuisine"] == RecipesHistory.v2.entityVersionHashes["Cuisine"].map(VersionHasher.hex))
        let tables = try #require(json["tables"] as? [[String: Any]])
        #expect(tables.map { $0["name"] as? String }.contains("ZCUISINE"))
    }

    @Test func createRefusesToOverwriteAFile() throws {
        let bundle = try writeRecipesBundle()
        let store = directory.path("Taken.sqlite")
        try Data("keep me".utf8).write(to: store)
        let result = try runner.run(["create", store.path, "--models", bundle.path])
        #expect(result.status != 0)
        #expect(try Data(contentsOf: store) == Data("keep me".utf8))
        #expect(!result.standardError.isEmpty)
    }

    @Test func schemaPrintsQuotedDDLForTheChosenVersion() throws {
        let bundle = try writeRecipesBundle()
        let result = try runner.run(["schema", "--models", bundle.path, "--version", "Recipes 3"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("\"ZRECIPEINGREDIENT\""))
        #expect(result.standardOutput.contains("Z_PRIMARYKEY"))
    }

    @Test func inspectingAMissingStoreFailsWithAMessageSayingWhatToDo() throws {
        let result = try runner.run(["inspect", directory.path("missing.sqlite").path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("no store at"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func inspectingAStoreOfNoKnownVersionReportsItAndSaysSoOnStandardError() throws {
        _ = try SampleHistories.write(to: directory.url)
        let store = directory.path("University.sqlite").path
        let created = try runner.run([
            "create", store, "--models", directory.path("University.xcdatamodeld").path,
        ])
        #expect(created.status == 0, "\(created.standardError)")
        let result = try runner.run(["inspect", store, "--models", directory.path("Recipes.xcdatamodeld").path])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("Version      no match"))
        #expect(result.standardOutput.contains("Problem"))
        #expect(result.standardError.hasPrefix("error: "))
        #expect(result.standardError.contains("Recipes"))
    }

    @Test func anUnknownVersionNameListsTheAvailableOnes() throws {
        let bundle = try writeRecipesBundle()
        let result = try runner.run(["schema", "--models", bundle.path, "--version", "Recipes 9"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("Recipes 4"))
    }
}
