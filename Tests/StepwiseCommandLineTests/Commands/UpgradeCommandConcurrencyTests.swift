import Foundation
import StepwiseTestSupport
import Testing

/// Several `stepwise upgrade` processes started at once on one store: the lock lets one
/// upgrade it, and the others, once they get the lock, find it up to date.
@Suite("stepwise upgrade across processes")
struct UpgradeConcurrencyTests {
    @Test func exactlyOneOfFourConcurrentUpgradesDoesTheWork() throws {
        let processes = 4
        let fixture = try RecipesStoreFixture(generatedRecipes: 300)
        let arguments = fixture.upgradeArguments("--json", "--progress", "none")
        let results = try CommandRunner().runConcurrently(Array(repeating: arguments, count: processes))

        for result in results {
            #expect(result.status == 0, "\(result.standardError)")
        }
        let reports = try results.map { try $0.json() }
        let upgraded = reports.filter { $0["upToDate"] as? Bool == false }
        #expect(upgraded.count == 1)
        #expect(reports.filter { $0["upToDate"] as? Bool == true }.count == processes - 1)
        #expect(upgraded.first?["from"] as? String == "Recipes")
        #expect((upgraded.first?["steps"] as? [Any])?.count == 3)
        #expect(reports.allSatisfy { $0["to"] as? String == "Recipes 4" })

        let rows = try fixture.rowCounts()
        for (table, count) in RecipesStoreFixture.expectedRecipes4Rows(generatedRecipes: 300) {
            #expect(rows[table] == count, "\(table)")
        }
        #expect(!fixture.exists(".Recipes.sqlite.stepwise"))
    }
}
