import Foundation
import StepwiseTestSupport
import Testing

/// `stepwise discard` deletes the work folder an interrupted upgrade kept, leaving the store
/// byte-identical; the next upgrade then starts over.
@Suite("stepwise discard")
struct DiscardCommandTests {
    @Test func discardingAKilledUpgradesFolderLeavesTheStoreAsItWas() throws {
        let fixture = try RecipesStoreFixture(generatedRecipes: 2000)
        let before = fixture.storeBytes()
        let runner = try CommandRunner()
        let upgrade = try runner.start(fixture.upgradeArguments("--progress", "lines"))
        let reachedStep2 = upgrade.waitForStandardError(containing: "Step 2/3: Recipes 2 → Recipes 3")
        upgrade.kill()
        let killed = try upgrade.wait()
        try #require(reachedStep2, "the upgrade never reached step 2: \(killed.standardError)")
        #expect(fixture.exists(".Recipes.sqlite.stepwise"))

        let discard = try runner.run(["discard", fixture.store.path, "--json"])
        #expect(discard.status == 0, "\(discard.standardError)")
        let json = try discard.json()
        #expect(json["outcome"] as? String == "discarded")
        #expect((json["bytes"] as? Int ?? 0) > 0)
        #expect(!fixture.exists(".Recipes.sqlite.stepwise"))
        #expect(fixture.storeBytes() == before)

        let again = try runner.run(["discard", fixture.store.path])
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("Nothing to discard"))

        let fresh = try runner.run(fixture.upgradeArguments("--json"))
        #expect(fresh.status == 0, "\(fresh.standardError)")
        let steps = try #require(try fresh.json()["steps"] as? [[String: Any]])
        #expect(steps.allSatisfy { $0["resumed"] as? Bool == false }, "the upgrade started over")
    }
}
