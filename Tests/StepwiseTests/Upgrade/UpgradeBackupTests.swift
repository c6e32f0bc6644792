import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// `keepBackup` keeps the pre-upgrade generation (store, `-wal`, `-shm`); `rollback` puts it
/// back byte for byte. Rows that live only in a `-wal` are migrated, never lost.
@Suite("upgradeIfNeeded: WAL, backups and rollback")
struct UpgradeBackupTests {
    /// Makes the fixture's store a WAL store whose newest rows are only in its `-wal`: the
    /// state an app killed without closing its store leaves behind. Returns the chef names.
    static func addChefsInTheWAL(_ fixture: UpgradeFixture) throws -> [String] {
        let names = ["Ada Walrus", "Bea Walnut"]
        try fixture.writeInWAL { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: RecipesHistory.v1))
            for name in names { _ = try objects.insert("Chef", ["name": name, "training": "WAL"]) }
        }
        return names
    }

    @Test("rows only in the -wal are migrated, and the original keeps its -wal until the swap")
    func walRowsAreMigrated() throws {
        let fixture = try UpgradeFixture("Recipes")
        let names = try Self.addChefsInTheWAL(fixture)
        let wal = try Data(contentsOf: URL(fileURLWithPath: fixture.store.path + "-wal"))
        #expect(wal.count > 0)
        // The main file alone doesn't have the rows.
        #expect(StoreMetadata.readFromMainFile(at: fixture.store)?.modelVersionName == "Recipes")
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.to == "Recipes 4")
        let lastNames = try fixture.strings("SELECT ZLASTNAME FROM ZCHEF ORDER BY ZLASTNAME")
        #expect(lastNames.contains("Walrus") && lastNames.contains("Walnut"), "chefs \(names) were lost")
        #expect(try fixture.count("ZCHEF") == 6)
        // The old generation's -wal and -shm left with it: nothing stale beside the new store.
        #expect(!FileManager.default.fileExists(atPath: fixture.store.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: fixture.store.path + "-shm"))
    }

    @Test("keepBackup, then rollback: the store, its -wal and -shm are byte-identical to before")
    func rollbackRestoresTheGeneration() throws {
        let fixture = try UpgradeFixture("Recipes")
        _ = try Self.addChefsInTheWAL(fixture)
        let before = StoreBytes(fixture.store)
        let report = try fixture.upgrader(keepBackup: true).upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.backupURL?.path == fixture.files.backupDirectory.path)
        let backup = fixture.files.backupDirectory
        let kept = try FileManager.default.contentsOfDirectory(atPath: backup.path).sorted()
        #expect(kept == ["Store.sqlite", "Store.sqlite-shm", "Store.sqlite-wal", "backup.json"])
        #expect(StoreBytes(backup.appendingPathComponent("Store.sqlite")) == before)
        #expect(try fixture.version() == "Recipes 4")

        let restored = try Upgrader.rollback(storeAt: fixture.store)
        #expect(restored == "Recipes")
        #expect(StoreBytes(fixture.store) == before)
        #expect(!FileManager.default.fileExists(atPath: backup.path))
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path))
        #expect(try fixture.version() == "Recipes")
    }

    @Test("rollback without a backup says so and changes nothing")
    func rollbackWithoutBackup() throws {
        let fixture = try UpgradeFixture("Recipes")
        _ = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        let before = StoreBytes(fixture.store)
        let error = try #require(throws: UpgradeError.self) { try Upgrader.rollback(storeAt: fixture.store) }
        guard case .noBackup(let path) = error.kind else {
            Issue.record("expected noBackup, got \(error)")
            return
        }
        #expect(path.path == fixture.files.backupDirectory.path)
        #expect("\(error)".contains("keepBackup"))
        #expect(StoreBytes(fixture.store) == before)
    }

    @Test("a crash at each call of a rollback: the next rollback finishes it")
    func rollbackCrashAtEverySite() throws {
        let recorder = UpgradeRecorder()
        let probe = try UpgradeFixture("Events")
        _ = try probe.upgrader(keepBackup: true).upgradeIfNeededSynchronously(storeAt: probe.store)
        var options = UpgradeOptions()
        options.fileSystem = recorder.fileSystem()
        _ = try Upgrader.rollback(storeAt: probe.store, options: options)
        let sites = recorder.sites
        #expect(sites.contains("rollback.take-backup"))

        var seen: [String: Int] = [:]
        for site in sites {
            let occurrence = seen[site, default: 0]
            seen[site] = occurrence + 1
            let fixture = try UpgradeFixture("Events")
            let original = StoreBytes(fixture.store)
            _ = try fixture.upgrader(keepBackup: true).upgradeIfNeededSynchronously(storeAt: fixture.store)
            var crashing = UpgradeOptions()
            crashing.fileSystem = UpgradeRecorder().fileSystem(faultAt: site, occurrence: occurrence)
            #expect(throws: SimulatedCrash.self, "\(site)#\(occurrence)") {
                try Upgrader.rollback(storeAt: fixture.store, options: crashing)
            }
            // After the work folder is gone the rollback is complete on disk: nothing to finish.
            if !UpgradeFaultInjectionTests.afterCleanupSites.contains(site) {
                _ = try Upgrader.rollback(storeAt: fixture.store)
            }
            #expect(StoreBytes(fixture.store) == original, "\(site)#\(occurrence): not the original after recovery")
        }
    }
}
