import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// Stores that must not be upgraded are refused before any work, with a typed error naming
/// the versions, and left untouched with nothing beside them.
@Suite("upgradeIfNeeded: refusals")
struct UpgradeRefusalTests {
    @Test("a store newer than the target is never migrated down")
    func newerStore() throws {
        let fixture = try UpgradeFixture("Recipes")
        _ = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        let before = StoreBytes(fixture.store)
        // An older app build knows only Recipes … Recipes 3.
        let older = try Upgrader(history: VersionHistory(Array(fixture.history.versions.prefix(3))))
        let error = try #require(throws: UpgradeError.self) {
            try older.upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .newerThanKnownVersions(let name, let latest, _) = error.kind else {
            Issue.record("expected newerThanKnownVersions, got \(error)")
            return
        }
        #expect(name == "Recipes 4")
        #expect(latest == "Recipes 3")
        #expect(StoreBytes(fixture.store) == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path))
    }

    @Test("a store at a later version than --to, with no mapping back, is refused")
    func laterThanTarget() throws {
        let fixture = try UpgradeFixture("University")
        _ = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        let before = StoreBytes(fixture.store)
        let error = try #require(throws: UpgradeError.self) {
            try fixture.upgrader(to: "University 2").upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .laterThanTarget(let storeVersion, let target) = error.kind else {
            Issue.record("expected laterThanTarget, got \(error)")
            return
        }
        #expect(storeVersion == "University 4" && target == "University 2")
        #expect("\(error)".contains("University 4 to University 2.json"))
        #expect(StoreBytes(fixture.store) == before)
    }

    @Test("no path: the error names the gap and the mapping file to add")
    func noPath() throws {
        let fixture = try UpgradeFixture("Recipes")
        let before = StoreBytes(fixture.store)
        // Without its mapping files, Recipes → Recipes 2 can't be inferred.
        let bare = try Upgrader(history: fixture.history, policies: SamplePolicies.registry)
        let error = try #require(throws: UpgradeError.self) {
            try bare.upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .noPath(let from, let to, let gap, let problems) = error.kind else {
            Issue.record("expected noPath, got \(error)")
            return
        }
        #expect(from == "Recipes" && to == "Recipes 4")
        #expect(gap?.from == "Recipes" && gap?.to == "Recipes 2")
        #expect(!problems.isEmpty)
        #expect("\(error)".contains("Recipes to Recipes 2.json"))
        #expect(StoreBytes(fixture.store) == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path))
    }

    @Test("an unknown target version is a planning error naming the available ones")
    func unknownTarget() throws {
        let fixture = try UpgradeFixture("Recipes")
        let error = try #require(throws: UpgradeError.self) {
            try fixture.upgrader(to: "Recipes 9").upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        #expect("\(error)".contains("Recipes 9") && "\(error)".contains("Recipes 4"))
    }

    @Test("a file that isn't a store is refused with the store error, untouched")
    func notAStore() throws {
        let fixture = try UpgradeFixture("Recipes")
        let junk = fixture.directory.path("junk.sqlite")
        try Data("not a database at all, just text".utf8).write(to: junk)
        let error = try #require(throws: StoreError.self) {
            try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: junk)
        }
        #expect(error.kind == .notSQLite)
        #expect(try Data(contentsOf: junk) == Data("not a database at all, just text".utf8))
        #expect(!FileManager.default.fileExists(atPath: StoreFiles(store: junk).workDirectory.path))
    }

    @Test("the lock: a second upgrader waits, then times out with a clear error")
    func lockTimeout() throws {
        let fixture = try UpgradeFixture("Recipes")
        let held = try UpgradeLock(files: fixture.files, timeout: 1, fileSystem: FileSystem())
        var options = UpgradeOptions(lockTimeout: .milliseconds(200))
        options.targetVersion = nil
        let upgrader = try Upgrader(bundleAt: fixture.bundle, policies: SamplePolicies.registry, options: options)
        let started = Date()
        let error = try #require(throws: UpgradeError.self) {
            try upgrader.upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .lockTimeout(let seconds) = error.kind else {
            Issue.record("expected lockTimeout, got \(error)")
            return
        }
        #expect(seconds == 0.2)
        #expect(Date().timeIntervalSince(started) >= 0.2)
        #expect("\(error)".contains("another upgrade"))
        withExtendedLifetime(held) {}
    }
}

@Suite("upgradeIfNeeded: paths")
struct UpgradePathTests {
    @Test("a missing store (a first launch) is nothing to upgrade, and nothing is created beside it")
    func missingStore() throws {
        let fixture = try UpgradeFixture("Recipes")
        let missing = fixture.directory.path("Missing.sqlite")
        let listing = fixture.directoryListing()
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: missing)
        #expect(report.outcome == .noStore)
        #expect(report.upToDate && report.steps.isEmpty)
        #expect(report.to == fixture.latest)
        #expect(try !fixture.upgrader().needsUpgrade(storeAt: missing))
        #expect(fixture.directoryListing() == listing)
    }

    @Test("a symbolic link to a deleted store is not a missing store: it is refused, naming the link")
    func danglingLinkIsNotAMissingStore() throws {
        let fixture = try UpgradeFixture("Recipes")
        let link = fixture.directory.path("Link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "Deleted.sqlite")
        let listing = fixture.directoryListing()
        let error = try #require(throws: StoreError.self) {
            try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: link)
        }
        #expect(error.path == link.path)
        #expect(
            error.kind
                == .io(
                    "it is a symbolic link to Deleted.sqlite that can't be followed (\(String(cString: strerror(ENOENT)))); point it at the store file"
                ))
        #expect(fixture.directoryListing() == listing)
    }

    @Test("a store reached through a symbolic link is upgraded where it lives; the link stays a link")
    func symbolicLink() throws {
        let fixture = try UpgradeFixture("Recipes")
        let link = fixture.directory.path("Link.sqlite")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: fixture.store)
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: link)
        #expect(report.to == "Recipes 4")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == fixture.store.path)
        #expect(try fixture.version() == "Recipes 4")
    }
}
