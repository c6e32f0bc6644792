import Foundation
import StepwiseTestSupport
import Testing

/// An upgrade killed in the middle (`SIGKILL`: no handler runs) is resumed by running the
/// same command again, keeping the steps already checkpointed.
@Suite("stepwise upgrade after a crash")
struct UpgradeResumeTests {
    @Test func runningTheCommandAgainResumesAfterTheLastCheckpoint() throws {
        let fixture = try RecipesStoreFixture(generatedRecipes: 2000)
        let before = fixture.storeBytes()
        let runner = try CommandRunner()
        let arguments = fixture.upgradeArguments("--json", "--progress", "lines")
        let first = try runner.start(arguments)
        // Step 1's checkpoint is journaled before step 2 starts.
        let reachedStep2 = first.waitForStandardError(containing: "Step 2/3: Recipes 2 → Recipes 3")
        first.kill()
        let killed = try first.wait()
        try #require(reachedStep2, "the first run never reached step 2: \(killed.standardError)")
        #expect(killed.status != 0)
        #expect(fixture.storeBytes() == before, "nothing touches the store before the swap")
        #expect(fixture.exists(".Recipes.sqlite.stepwise"), "the checkpoints are kept for the next run")

        let second = try runner.run(arguments)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardError.contains("Resuming an interrupted upgrade"))
        let json = try second.json()
        #expect(json["from"] as? String == "Recipes")
        #expect(json["upToDate"] as? Bool == false)
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.map { $0["to"] as? String } == ["Recipes 2", "Recipes 3", "Recipes 4"])
        #expect(steps.first?["resumed"] as? Bool == true)
        #expect(steps.last?["resumed"] as? Bool == false)
        // Step 1 didn't run now: no time of this run, the killed run's kept apart.
        #expect(steps.first?["seconds"] as? Double == 0)
        #expect(steps.first?["earlierRunSeconds"] as? Double != nil)
        #expect(steps.last?["earlierRunSeconds"] == nil)
        #expect(!second.standardError.contains("Step 1/3: Recipes → Recipes 2"), "step 1 is not run again")

        let rows = try fixture.rowCounts()
        for (table, count) in RecipesStoreFixture.expectedRecipes4Rows(generatedRecipes: 2000) {
            #expect(rows[table] == count, "\(table)")
        }
        #expect(!fixture.exists(".Recipes.sqlite.stepwise"))
    }
}
