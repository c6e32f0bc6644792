import Foundation
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// `Upgrader.upgradeIfNeeded(storeAt:bundleAt:…)`, the launch call: a store at the target is
/// told from its metadata and the target version alone, and anything else goes through the
/// upgrader made from the whole bundle.
@Suite("Upgrader: the launch call")
struct UpgraderLaunchTests {
    private static func breakVersion(_ version: String, in fixture: UpgradeFixture) throws -> URL {
        let contents = fixture.bundle.appendingPathComponent("\(version).xcdatamodel/contents")
        try Data("not a model".utf8).write(to: contents)
        return contents
    }

    private static func options(targetVersion: String? = nil, progress: EventLog? = nil) -> UpgradeOptions {
        var options = UpgradeOptions(targetVersion: targetVersion, lockTimeout: .seconds(30))
        if let progress {
            options.progress = { progress.append($0) }
        }
        return options
    }

    @Test("an up-to-date store is reported without reading the other versions, and nothing is written")
    func upToDateReadsOnlyTheTarget() throws {
        let fixture = try UpgradeFixture()
        _ = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        // A broken older version: the upgrader made from the bundle refuses it, so a report
        // from the launch call shows that it wasn't read.
        _ = try Self.breakVersion("Recipes 2", in: fixture)
        #expect(throws: ModelError.self) { try fixture.upgrader() }
        let before = StoreBytes(fixture.store)
        let listingBefore = fixture.directoryListing()
        let events = EventLog()
        let report = try Upgrader.upgradeIfNeededSynchronously(
            storeAt: fixture.store, bundleAt: fixture.bundle, options: Self.options(progress: events))
        #expect(report.outcome == .upToDate)
        #expect(report.to == "Recipes 4")
        #expect(events.finishedReports == [report])
        #expect(events.count == 1)
        #expect(StoreBytes(fixture.store) == before)
        #expect(fixture.directoryListing() == listingBefore)
    }

    @Test("a chosen target is the version read: a store at it is up to date")
    func chosenTargetIsRead() throws {
        let fixture = try UpgradeFixture()
        _ = try fixture.upgrader(to: "Recipes 2").upgradeIfNeededSynchronously(storeAt: fixture.store)
        _ = try Self.breakVersion("Recipes 3", in: fixture)
        let report = try Upgrader.upgradeIfNeededSynchronously(
            storeAt: fixture.store, bundleAt: fixture.bundle, options: Self.options(targetVersion: "Recipes 2"))
        #expect(report.outcome == .upToDate)
        #expect(report.to == "Recipes 2")
    }

    @Test(
        "what the up-to-date test can't settle goes to the upgrader made from the whole bundle",
        arguments: ["a work folder beside the store", "no .xccurrentversion"])
    func unsettledGoesToTheWholeBundle(_ situation: String) throws {
        let fixture = try UpgradeFixture()
        _ = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        if situation == "no .xccurrentversion" {
            try FileManager.default.removeItem(at: fixture.bundle.appendingPathComponent(".xccurrentversion"))
        } else {
            // An interrupted upgrade's folder: recovery must look at it, whatever the metadata says.
            try FileManager.default.createDirectory(at: fixture.files.workDirectory, withIntermediateDirectories: true)
        }
        // The broken version shows which path ran: only the whole bundle's reading meets it.
        let contents = try Self.breakVersion("Recipes 2", in: fixture)
        let error = try #require(throws: ModelError.self) {
            try Upgrader.upgradeIfNeededSynchronously(
                storeAt: fixture.store, bundleAt: fixture.bundle, options: Self.options())
        }
        #expect(error.path == contents.path)
    }

    @Test("an unknown target is refused as the upgrader refuses it, listing the versions")
    func unknownTarget() throws {
        let fixture = try UpgradeFixture()
        let error = try #require(throws: UpgradeError.self) {
            try Upgrader.upgradeIfNeededSynchronously(
                storeAt: fixture.store, bundleAt: fixture.bundle, options: Self.options(targetVersion: "Recipes 9"))
        }
        expectUnknownVersion(error, "Recipes 9", available: ["Recipes", "Recipes 2", "Recipes 3", "Recipes 4"])
    }

    @Test("an older store is upgraded as the upgrader made from the bundle upgrades it")
    func olderStoreIsUpgraded() async throws {
        let launched = try UpgradeFixture()
        let made = try UpgradeFixture()
        let events = EventLog()
        let report = try await Upgrader.upgradeIfNeeded(
            storeAt: launched.store, bundleAt: launched.bundle, policies: SamplePolicies.registry,
            options: Self.options(progress: events))
        let expected = try made.upgrader().upgradeIfNeededSynchronously(storeAt: made.store)
        #expect(report.outcome == .upgraded)
        #expect(events.finishedReports == [report])
        #expect(report.steps.map(\.to) == expected.steps.map(\.to))
        #expect(report.steps.map(\.rows) == expected.steps.map(\.rows))
        #expect(try launched.version() == "Recipes 4")
        let query = "SELECT ZNAME FROM ZRECIPE ORDER BY ZNAME"
        #expect(try launched.strings(query) == made.strings(query))
    }

    @Test("an older store with a broken version is refused with the bundle's error, and nothing is written")
    func olderStoreWithBrokenVersionIsRefused() throws {
        let fixture = try UpgradeFixture()
        let contents = try Self.breakVersion("Recipes 3", in: fixture)
        let before = StoreBytes(fixture.store)
        let listingBefore = fixture.directoryListing()
        let error = try #require(throws: ModelError.self) {
            try Upgrader.upgradeIfNeededSynchronously(
                storeAt: fixture.store, bundleAt: fixture.bundle, policies: SamplePolicies.registry,
                options: Self.options())
        }
        #expect(error.path == contents.path)
        #expect(StoreBytes(fixture.store) == before)
        #expect(fixture.directoryListing() == listingBefore)
    }

    @Test("a task cancelled before the call throws CancellationError and changes nothing")
    func cancelledBeforeTheCall() async throws {
        let fixture = try UpgradeFixture()
        let before = StoreBytes(fixture.store)
        let listingBefore = fixture.directoryListing()
        let (store, bundle) = (fixture.store, fixture.bundle)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Upgrader.upgradeIfNeeded(
                storeAt: store, bundleAt: bundle, policies: SamplePolicies.registry, options: Self.options())
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(StoreBytes(fixture.store) == before)
        #expect(fixture.directoryListing() == listingBefore)
    }

    @Test("a missing store is reported as none, from the bundle's current version")
    func missingStore() async throws {
        let fixture = try UpgradeFixture()
        let report = try await Upgrader.upgradeIfNeeded(
            storeAt: fixture.directory.path("Missing.sqlite"), bundleAt: fixture.bundle, options: Self.options())
        #expect(report.outcome == .noStore)
        #expect(report.to == "Recipes 4")
        #expect(!FileManager.default.fileExists(atPath: fixture.directory.path("Missing.sqlite").path))
    }
}
