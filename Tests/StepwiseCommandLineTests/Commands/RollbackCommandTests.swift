import Foundation
import StepwiseTestSupport
import Testing

@Suite("stepwise rollback")
struct RollbackCommandTests {
    let runner: CommandRunner

    init() throws {
        runner = try CommandRunner()
    }

    @Test func rollingBackAnUpgradeWithABackupRestoresTheStoreByteForByte() throws {
        let fixture = try RecipesStoreFixture(generatedRecipes: 25)
        let before = fixture.storeBytes()
        let upgrade = try runner.run(fixture.upgradeArguments("--keep-backup", "--json"))
        #expect(upgrade.status == 0, "\(upgrade.standardError)")
        let backupPath = try #require(try upgrade.json()["backupPath"] as? String)
        #expect(URL(fileURLWithPath: backupPath).lastPathComponent == "Recipes.sqlite.stepwise-backup")
        #expect(fixture.exists("Recipes.sqlite.stepwise-backup"))
        #expect(try fixture.rowCounts()["ZRECIPEINGREDIENT"] == 6 + 50)
        #expect(fixture.storeBytes() != before)

        let rollback = try runner.run(["rollback", fixture.store.path, "--json"])
        #expect(rollback.status == 0, "\(rollback.standardError)")
        let json = try rollback.json()
        #expect(json["restoredVersion"] as? String == "Recipes")
        #expect(json["store"] as? String == fixture.store.path)
        #expect(fixture.storeBytes() == before, "the store, its -wal and its -shm are as they were")
        #expect(!fixture.exists("Recipes.sqlite.stepwise-backup"), "the backup is used up")
        #expect(!fixture.exists(".Recipes.sqlite.stepwise"))

        // The backup is gone: a second rollback says so, and how to get one next time.
        let again = try runner.run(["rollback", fixture.store.path])
        #expect(again.status != 0)
        #expect(again.standardError.contains("there is no backup to roll back to"))
        #expect(again.standardError.contains("--keep-backup"))
        #expect(fixture.storeBytes() == before)
    }

    @Test func textOutputNamesTheRestoredVersion() throws {
        let fixture = try RecipesStoreFixture()
        #expect(try runner.run(fixture.upgradeArguments("--to", "Recipes 3", "--keep-backup")).status == 0)
        #expect(try runner.run(fixture.upgradeArguments("--keep-backup")).status == 0)
        let rollback = try runner.run(["rollback", fixture.store.path])
        #expect(rollback.status == 0, "\(rollback.standardError)")
        // The backup is the one the last upgrade kept: the store at Recipes 3.
        #expect(rollback.standardOutput.contains("Restored \(fixture.store.path) to 'Recipes 3' from its backup."))
        let inspected = try runner.run(["inspect", fixture.store.path, "--models", fixture.bundle.path, "--json"])
        #expect(try inspected.json()["matchedVersion"] as? String == "Recipes 3")
    }

    @Test func aStoreNeverUpgradedWithABackupHasNothingToRollBackTo() throws {
        let fixture = try RecipesStoreFixture()
        let before = fixture.storeBytes()
        let result = try runner.run(["rollback", fixture.store.path, "--json"])
        #expect(result.status == 66)
        let error = try #require(try result.json()["error"] as? [String: Any])
        #expect(error["type"] as? String == "UpgradeError")
        #expect(error["kind"] as? String == "noBackup")
        #expect(error["path"] as? String == fixture.store.path)
        #expect(error["step"] == nil && error["mapping"] == nil)
        #expect(result.standardError.contains("Recipes.sqlite.stepwise-backup"))
        #expect(fixture.storeBytes() == before)
    }
}
