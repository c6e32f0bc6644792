import Foundation
import StepwiseMapping
import StepwiseStore
import Testing

@testable import Stepwise

/// `events(upgradingStoreAt:)` starts on iteration and ends with exactly one `.finished`, on
/// every path through an upgrade.
@Suite("upgradeIfNeeded: events")
struct UpgradeEventsTests {
    /// Iterates the sequence to its end.
    static func collect(_ upgrader: Upgrader, _ store: URL) async throws -> [UpgradeEvent] {
        var events: [UpgradeEvent] = []
        for try await event in upgrader.events(upgradingStoreAt: store) { events.append(event) }
        return events
    }

    /// The report of the sequence's last event, after checking it is the only `.finished`.
    static func finishedReport(_ events: [UpgradeEvent]) throws -> UpgradeReport {
        let finished = events.filter { if case .finished = $0 { true } else { false } }
        #expect(finished.count == 1, "events: \(events)")
        guard case .finished(let report)? = events.last else {
            throw ExpectedFinished(last: events.last.map { "\($0)" } ?? "nothing")
        }
        return report
    }

    struct ExpectedFinished: Error {
        var last: String
    }

    @Test("no store: .finished with outcome noStore")
    func noStore() async throws {
        let fixture = try UpgradeFixture("Recipes")
        let missing = fixture.directory.path("Missing.sqlite")
        let report = try Self.finishedReport(try await Self.collect(fixture.upgrader(), missing))
        #expect(report.outcome == .noStore)
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test("up to date: .finished with outcome upToDate")
    func upToDate() async throws {
        let fixture = try UpgradeFixture("Recipes")
        _ = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        let events = try await Self.collect(fixture.upgrader(), fixture.store)
        #expect(events.count == 1)
        #expect(try Self.finishedReport(events).outcome == .upToDate)
    }

    @Test("upgraded: steps, then .finished with the report")
    func upgraded() async throws {
        let fixture = try UpgradeFixture("Recipes")
        let events = try await Self.collect(fixture.upgrader(), fixture.store)
        let report = try Self.finishedReport(events)
        #expect(report.outcome == .upgraded)
        #expect(report.to == fixture.latest)
        #expect(events.filter { if case .stepFinished = $0 { true } else { false } }.count == 3)
    }

    @Test("resumed after a failed step: .finished with the resumed steps")
    func resumed() async throws {
        let fixture = try UpgradeFixture("Recipes")
        #expect(throws: UpgradeError.self) {
            try fixture.upgrader(policies: UpgradeFailureTests.policies(failingAt: 1))
                .upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        let events = try await Self.collect(fixture.upgrader(), fixture.store)
        #expect(events.contains { if case .resuming(completedSteps: 1) = $0 { true } else { false } })
        let report = try Self.finishedReport(events)
        #expect(report.steps.map(\.resumed) == [true, false, false])
    }

    @Test("a swap interrupted past its commit point, finished by recovery: .finished")
    func recoveredSwap() async throws {
        let fixture = try UpgradeFixture("Recipes")
        var crashing = try fixture.upgrader()
        crashing.options.fileSystem = UpgradeRecorder().fileSystem(faultAt: "swap.in.rename")
        #expect(throws: SimulatedCrash.self) { try crashing.upgradeIfNeededSynchronously(storeAt: fixture.store) }
        #expect(UpgradeJournal.load(from: fixture.files.workDirectory)?.state == .swappingIn)

        let events = try await Self.collect(fixture.upgrader(), fixture.store)
        let report = try Self.finishedReport(events)
        #expect(report.outcome == .upgraded)
        #expect(report.to == fixture.latest)
        #expect(try fixture.version() == fixture.latest)
    }

    @Test("making the sequence without iterating it does nothing")
    func startsOnIteration() async throws {
        let fixture = try UpgradeFixture("Recipes")
        let bytes = StoreBytes(fixture.store)
        let listing = fixture.directoryListing()
        let events = try fixture.upgrader().events(upgradingStoreAt: fixture.store)
        try await Task.sleep(for: .milliseconds(200))
        #expect(StoreBytes(fixture.store) == bytes)
        #expect(fixture.directoryListing() == listing)
        // Iterating it now runs the upgrade.
        var last: UpgradeEvent?
        for try await event in events { last = event }
        guard case .finished(let report)? = last else {
            Issue.record("the last event is \(String(describing: last))")
            return
        }
        #expect(report.outcome == .upgraded)
    }

    @Test("events print as text, without type names")
    func printable() async throws {
        let fixture = try UpgradeFixture("Recipes")
        let events = try await Self.collect(fixture.upgrader(), fixture.store)
        for event in events {
            #expect(!"\(event)".contains("Stepwise."), "\(event)")
        }
        #expect("\(try #require(events.last))".hasPrefix("finished: upgraded Recipes → Recipes 4"))
    }
}
