import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// `Upgrader(bundleAt:)` reads only the target version for the up-to-date check at launch;
/// the other versions and the mapping models are read when an upgrade will run.
@Suite("Upgrader: launch reads only the target version")
struct UpgraderLaunchTests {
    /// The Recipes sample with its first versions and its Recipes → Recipes 2 mapping file
    /// broken (the current version, Recipes 4, is intact).
    private static func fixtureWithBrokenOldFiles() throws -> UpgradeFixture {
        let fixture = try UpgradeFixture()
        try Data("not a model".utf8).write(to: contents(of: "Recipes 2", in: fixture))
        try Data("not a model".utf8).write(to: contents(of: "Recipes", in: fixture))
        try Data("not JSON".utf8).write(to: mappingFile(in: fixture))
        return fixture
    }

    private static func contents(of version: String, in fixture: UpgradeFixture) -> URL {
        fixture.bundle.appendingPathComponent("\(version).xcdatamodel/contents")
    }

    private static func mappingFile(in fixture: UpgradeFixture) -> URL {
        fixture.directory.path("Recipes.mappings/Recipes to Recipes 2.json")
    }

    /// Puts a store at the current version in place of the fixture's, as an app that already
    /// upgraded has it.
    private static func storeAtCurrentVersion(_ fixture: UpgradeFixture) throws {
        try FileManager.default.removeItem(at: fixture.store)
        try StoreCreator.createStore(at: fixture.store, model: RecipesHistory.v4)
    }

    @Test("an up-to-date store is checked without reading the old versions or the mappings")
    func upToDateIgnoresOldFiles() throws {
        let fixture = try Self.fixtureWithBrokenOldFiles()
        try Self.storeAtCurrentVersion(fixture)
        let before = StoreBytes(fixture.store)
        let listingBefore = fixture.directoryListing()

        let upgrader = try fixture.upgrader()
        #expect(upgrader.targetVersion == "Recipes 4")
        #expect(try upgrader.needsUpgrade(storeAt: fixture.store) == false)
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.upToDate)
        #expect(report.to == "Recipes 4")
        #expect(report.steps.isEmpty)
        // Nothing was written: no lock file, no work folder, the store byte-identical.
        #expect(StoreBytes(fixture.store) == before)
        #expect(fixture.directoryListing() == listingBefore)
        // The broken files are still there, and still refused when everything is read.
        #expect(throws: XcodeModelError.self) { try upgrader.preload() }
    }

    @Test("a store that needs the broken versions is refused with the reader's error, untouched")
    func outdatedStoreGetsTheReadingError() throws {
        let fixture = try Self.fixtureWithBrokenOldFiles()
        let before = StoreBytes(fixture.store)
        let listingBefore = fixture.directoryListing()
        // Made as before: the current version is intact.
        let upgrader = try fixture.upgrader()

        // The error ModelBundle gives for the same bundle, which Upgrader(bundleAt:) used to throw.
        let expected = try #require(throws: XcodeModelError.self) { try ModelBundle(contentsOf: fixture.bundle) }
        let fromCheck = try #require(throws: XcodeModelError.self) { try upgrader.needsUpgrade(storeAt: fixture.store) }
        let fromUpgrade = try #require(throws: XcodeModelError.self) {
            try upgrader.upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        #expect(fromCheck.kind == fromUpgrade.kind)
        #expect(fromUpgrade.path == Self.contents(of: "Recipes", in: fixture).path)
        guard case .malformed = fromUpgrade.kind, case .malformed = expected.kind else {
            Issue.record("expected malformed-model errors, got \(fromUpgrade.kind) and \(expected.kind)")
            return
        }
        // Refused before the lock: no file is created, and the store is as it was.
        #expect(StoreBytes(fixture.store) == before)
        #expect(fixture.directoryListing() == listingBefore)
        // The history falls back to empty rather than a partial one.
        #expect(upgrader.history.versions.isEmpty)
    }

    @Test("a broken mapping file is refused when the upgrade needs the mappings")
    func brokenMappingRefusedAtUpgrade() throws {
        let fixture = try UpgradeFixture()
        try Data("not JSON".utf8).write(to: Self.mappingFile(in: fixture))
        let upgrader = try fixture.upgrader()
        let error = try #require(throws: MappingError.self) {
            try upgrader.upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        #expect(error.file == Self.mappingFile(in: fixture).path)
        #expect(try fixture.version() == "Recipes")
    }

    @Test("a broken current version is still refused when the upgrader is made")
    func brokenCurrentVersionRefusedAtConstruction() throws {
        let fixture = try UpgradeFixture()
        try Data("not a model".utf8).write(to: Self.contents(of: "Recipes 4", in: fixture))
        let expected = try #require(throws: XcodeModelError.self) { try ModelBundle(contentsOf: fixture.bundle) }
        #expect(throws: expected) { try fixture.upgrader() }
    }

    @Test("a chosen target version is the one read, and an unknown one is refused as before")
    func chosenTarget() throws {
        let fixture = try UpgradeFixture()
        let report = try fixture.upgrader(to: "Recipes 2").upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.to == "Recipes 2")
        // Then the current version, Recipes 4, breaks; checking a store at Recipes 2 reads Recipes 2 only.
        try Data("not a model".utf8).write(to: Self.contents(of: "Recipes 4", in: fixture))
        let upgrader = try fixture.upgrader(to: "Recipes 2")
        #expect(try upgrader.needsUpgrade(storeAt: fixture.store) == false)
        #expect(try upgrader.upgradeIfNeededSynchronously(storeAt: fixture.store).upToDate)

        let unknown = try fixture.upgrader(to: "Recipes 9")
        let error = try #require(throws: PlanningError.self) {
            try unknown.upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .unknownVersion(let name, let available) = error.kind else {
            Issue.record("expected an unknown version, got \(error.kind)")
            return
        }
        #expect(name == "Recipes 9")
        #expect(available == ["Recipes", "Recipes 2", "Recipes 3", "Recipes 4"])
    }

    @Test("history, mappings and planner read the whole bundle, as they did when it was read up front")
    func accessorsReadTheWholeBundle() throws {
        let fixture = try UpgradeFixture()
        let upgrader = try fixture.upgrader()
        let bundle = try ModelBundle(contentsOf: fixture.bundle)
        let directory = try MappingDirectory(bundleAt: fixture.bundle, history: bundle.history)
        #expect(upgrader.history == bundle.history)
        #expect(Set(upgrader.mappings.keys) == Set(directory.steps.keys))
        #expect(upgrader.mappings.mapValues { $0.map(\.name) } == directory.steps.mapValues { $0.map(\.name) })
        let plan = try upgrader.planner.plan(from: "Recipes", to: "Recipes 4")
        let upfront = try UpgradePlanner(history: bundle.history, mappings: directory.steps)
            .plan(from: "Recipes", to: "Recipes 4")
        #expect(plan.steps.map(\.to) == upfront.steps.map(\.to))
        #expect(plan.steps.map(\.mappingModels.count) == upfront.steps.map(\.mappingModels.count))

        // A history set in code replaces the bundle's, as the stored property did.
        var edited = upgrader
        edited.history = VersionHistory(Array(bundle.history.versions.prefix(2)))
        #expect(edited.history.names == ["Recipes", "Recipes 2"])
        #expect(upgrader.history == bundle.history)
        #expect(edited.targetVersion == "Recipes 4")
    }

    @Test("readers on many threads get one history")
    func concurrentReaders() async throws {
        let fixture = try UpgradeFixture()
        let upgrader = try fixture.upgrader()
        let histories = await withTaskGroup(of: VersionHistory.self) { group in
            for _ in 0..<16 { group.addTask { upgrader.history } }
            var all: [VersionHistory] = []
            for await history in group { all.append(history) }
            return all
        }
        #expect(histories.count == 16)
        #expect(Set(histories).count == 1)
        #expect(histories.first?.names == ["Recipes", "Recipes 2", "Recipes 3", "Recipes 4"])
    }

    @Test("a store that needs upgrading upgrades as when the whole bundle was read up front")
    func outdatedStoreUpgradesAsBefore() throws {
        let lazy = try UpgradeFixture()
        let eager = try UpgradeFixture()
        let bundle = try ModelBundle(contentsOf: eager.bundle)
        let mappings = try MappingDirectory(bundleAt: eager.bundle, history: bundle.history).steps
        let upfront = Upgrader(
            history: bundle.history, mappings: mappings, policies: SamplePolicies.registry,
            options: UpgradeOptions(targetVersion: bundle.current.name, lockTimeout: .seconds(30)))

        let lazyReport = try lazy.upgrader().upgradeIfNeededSynchronously(storeAt: lazy.store)
        let eagerReport = try upfront.upgradeIfNeededSynchronously(storeAt: eager.store)
        #expect(!lazyReport.upToDate)
        #expect(lazyReport.from == eagerReport.from)
        #expect(lazyReport.to == eagerReport.to)
        #expect(lazyReport.steps.map(\.from) == eagerReport.steps.map(\.from))
        #expect(lazyReport.steps.map(\.to) == eagerReport.steps.map(\.to))
        #expect(lazyReport.steps.map(\.kind) == eagerReport.steps.map(\.kind))
        #expect(lazyReport.steps.map(\.rows) == eagerReport.steps.map(\.rows))
        #expect(try lazy.version() == "Recipes 4")
        let query = "SELECT ZNAME FROM ZRECIPE ORDER BY ZNAME"
        #expect(try lazy.strings(query) == eager.strings(query))
        #expect(try lazy.count("ZCUISINE") == eager.count("ZCUISINE"))
    }
}

/// How the target is found without listing the bundle, and when the listing still decides.
@Suite("Upgrader: finding the target version")
struct UpgraderTargetTests {
    /// Two versions whose order can't be told from their names, with `current` declared.
    private static func unorderedBundle(in directory: TemporaryDirectory, current: String) throws -> URL {
        let url = directory.path("Mixed.xcdatamodeld")
        let versions = ["Foo 2", "Bar 3"].map { name in
            ObjectModel(name, entities: [Entity("Item", attributes: [Attribute(name == "Foo 2" ? "a" : "b", .string)])])
        }
        try XcodeModelWriter.writeBundle(versions, current: current, to: url)
        return url
    }

    @Test("the declared current version is the target without ordering the versions; ordering waits for an upgrade")
    func declaredCurrentNeedsNoOrder() throws {
        let directory = try TemporaryDirectory(prefix: "launch-target")
        let bundle = try Self.unorderedBundle(in: directory, current: "Bar 3")
        let store = directory.path("Store.sqlite")
        let versions = try ModelBundleListing.readVersion(named: "Bar 3", inBundleAt: bundle)
        try StoreCreator.createStore(at: store, model: #require(versions))

        let upgrader = try Upgrader(bundleAt: bundle)
        #expect(upgrader.targetVersion == "Bar 3")
        #expect(try upgrader.upgradeIfNeededSynchronously(storeAt: store).upToDate)

        // A store at the other version needs the order, which can't be told: refused as
        // ModelBundle refuses it, before any file is written.
        try FileManager.default.removeItem(at: store)
        let other = try #require(try ModelBundleListing.readVersion(named: "Foo 2", inBundleAt: bundle))
        try StoreCreator.createStore(at: store, model: other)
        let expected = try #require(throws: VersionHistoryError.self) { try ModelBundle(contentsOf: bundle) }
        #expect(throws: expected) { try upgrader.upgradeIfNeededSynchronously(storeAt: store) }
        #expect(!FileManager.default.fileExists(atPath: directory.path(".Store.sqlite.stepwise-lock").path))
    }

    @Test("without .xccurrentversion the listing finds the newest version")
    func newestWithoutCurrentVersionFile() throws {
        let fixture = try UpgradeFixture()
        try FileManager.default.removeItem(at: fixture.bundle.appendingPathComponent(".xccurrentversion"))
        let upgrader = try fixture.upgrader()
        #expect(upgrader.targetVersion == "Recipes 4")
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.to == "Recipes 4")
        #expect(try fixture.version() == "Recipes 4")
    }

    @Test("a declared current version the bundle doesn't have is refused when the upgrader is made")
    func unknownDeclaredCurrent() throws {
        let fixture = try UpgradeFixture()
        let file = fixture.bundle.appendingPathComponent(".xccurrentversion")
        let text = try String(contentsOf: file, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Recipes 4.xcdatamodel", with: "Recipes 9.xcdatamodel").utf8)
            .write(to: file)
        let expected = XcodeModelError(
            path: fixture.bundle.standardizedFileURL.path, kind: .unknownCurrentVersion("Recipes 9"))
        #expect(throws: expected) { try ModelBundle(contentsOf: fixture.bundle) }
        #expect(throws: expected) { try fixture.upgrader() }
    }
}
