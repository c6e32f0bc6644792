import Foundation
import GRDB
import StepwiseMapping
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// Cancelling the task of the async `upgradeIfNeeded` stops the upgrade between row batches
/// or steps and leaves the store byte-identical; the next call resumes.
@Suite("upgradeIfNeeded: cancellation")
struct UpgradeCancellationTests {
    /// Recipes 2 → 3's SharedIngredientPolicy, which stops at one source row until released.
    final class BlockingIngredientPolicy: EntityMigrationPolicy, @unchecked Sendable {
        var gate = Gate(row: 0)
        let wrapped = SharedIngredientPolicy()
        var seen = 0

        static func stopping(at gate: Gate) -> BlockingIngredientPolicy {
            let policy = BlockingIngredientPolicy()
            policy.gate = gate
            return policy
        }

        override func createDestinationInstances(
            forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
        ) throws {
            seen += 1
            if seen == gate.row { gate.arriveAndWait() }
            try wrapped.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        }

        override func createRelationships(
            forDestination destination: ObjectID, in mapping: EntityMapping, manager: MigrationManager
        ) throws {
            try wrapped.createRelationships(forDestination: destination, in: mapping, manager: manager)
        }
    }

    /// Where the policy stops, and the test's handle on it. The policy runs on the upgrade's
    /// own thread, so blocking it there doesn't hold up Swift's cooperative pool.
    final class Gate: @unchecked Sendable {
        // @unchecked: `arrived` is guarded by `lock`; the semaphore is thread-safe.
        let row: Int
        private let lock = NSLock()
        private var arrived = false
        private let release = DispatchSemaphore(value: 0)

        init(row: Int) { self.row = row }

        var hasArrived: Bool { lock.withLock { arrived } }

        func arriveAndWait() {
            lock.withLock { arrived = true }
            release.wait()
        }

        func open() { release.signal() }
    }

    /// A Recipes store with 1,000 generated recipes: 2,000 and more ingredient rows, so that
    /// several row batches follow the row the policy stops at.
    static func largeFixture() throws -> UpgradeFixture {
        let fixture = try UpgradeFixture("Recipes")
        try FileManager.default.removeItem(at: fixture.store)
        try StoreCreator.createStore(at: fixture.store, model: fixture.history.versions[0])
        _ = try DemoSeed.seedRecipes(at: fixture.store, model: fixture.history.versions[0], generatedRecipes: 1_000)
        return fixture
    }

    @Test("cancelled in the middle of step 2: CancellationError, the store byte-identical, then a resume")
    func cancelMidStep() async throws {
        let fixture = try Self.largeFixture()
        let before = StoreBytes(fixture.store)
        let gate = Gate(row: 300)
        var policies = SamplePolicies.registry
        policies.register("SharedIngredientPolicy") { BlockingIngredientPolicy.stopping(at: gate) }
        let upgrader = try fixture.upgrader(policies: policies)

        let task = Task { try await upgrader.upgradeIfNeeded(storeAt: fixture.store) }
        while !gate.hasArrived { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        gate.open()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }

        #expect(StoreBytes(fixture.store) == before)
        let journal = try #require(UpgradeJournal.load(from: fixture.files.workDirectory))
        #expect(journal.state == .failed)
        #expect(journal.failure == "cancelled")
        #expect(journal.completed.map(\.index) == [1], "step 1's checkpoint is kept")
        let entries = try FileManager.default.contentsOfDirectory(atPath: fixture.files.workDirectory.path)
        #expect(Set(entries) == ["journal.json", "step-1"], "step 2's unfinished output is deleted")

        let report = try await fixture.upgrader().upgradeIfNeeded(storeAt: fixture.store)
        #expect(report.outcome == .upgraded)
        #expect(report.steps.map(\.resumed) == [true, false, false])
        #expect(try fixture.version() == fixture.latest)
        #expect(try fixture.count("ZRECIPE") == 1_004)
    }

    @Test("a task cancelled before it calls never takes the lock nor touches the store")
    func cancelledBeforeStart() async throws {
        let fixture = try UpgradeFixture("Recipes")
        let before = StoreBytes(fixture.store)
        let listing = fixture.directoryListing()
        let upgrader = try fixture.upgrader()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await upgrader.upgradeIfNeeded(storeAt: fixture.store)
        }
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(StoreBytes(fixture.store) == before)
        #expect(fixture.directoryListing() == listing, "no lock file, no work folder")
    }

    @Test("leaving the event loop early cancels the upgrade")
    func leavingTheEventLoopCancels() async throws {
        let fixture = try Self.largeFixture()
        let before = StoreBytes(fixture.store)
        let gate = Gate(row: 300)
        var policies = SamplePolicies.registry
        policies.register("SharedIngredientPolicy") { BlockingIngredientPolicy.stopping(at: gate) }
        let upgrader = try fixture.upgrader(policies: policies)
        for try await event in upgrader.events(upgradingStoreAt: fixture.store) {
            if case .stepStarted(2, _, _) = event { break }
        }
        // The upgrade sees the cancellation at its next row batch, before or after the policy's
        // row: let the policy through either way (a signal with no waiter is kept for it).
        gate.open()
        var journal: UpgradeJournal?
        // Polls until the upgrade's thread has recorded the cancellation (bounded, so a
        // regression fails instead of hanging).
        for _ in 0..<4_000 where journal?.state != .failed {
            try await Task.sleep(for: .milliseconds(5))
            journal = UpgradeJournal.load(from: fixture.files.workDirectory)
        }
        #expect(journal?.failure == "cancelled")
        #expect(StoreBytes(fixture.store) == before)
    }

    /// What a stage saw of its own long statement.
    final class StatementProbe: @unchecked Sendable {
        // @unchecked: both flags are guarded by `lock`.
        private let lock = NSLock()
        private var started = false
        private var interrupted = false

        var hasStarted: Bool { lock.withLock { started } }
        var wasInterrupted: Bool { lock.withLock { interrupted } }
        func markStarted() { lock.withLock { started = true } }
        func markInterrupted() { lock.withLock { interrupted = true } }
    }

    @Test("cancelled inside one long SQL statement: the statement is interrupted, the store untouched")
    func cancelInsideAStatement() async throws {
        let fixture = try UpgradeFixture("Recipes")
        let before = StoreBytes(fixture.store)
        let probe = StatementProbe()
        // A statement that runs for minutes unless interrupted: the step must not wait for it.
        let stage = MigrationStage(
            from: "Recipes 3", to: "Recipes 4",
            didMigrate: { db, _ in
                probe.markStarted()
                do {
                    _ = try Int.fetchOne(
                        db,
                        sql: """
                            WITH RECURSIVE counter(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM counter WHERE n < 4000000000)
                            SELECT COUNT(*) FROM counter
                            """)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
                    probe.markInterrupted()
                    throw error
                }
            })
        let upgrader = try fixture.upgrader(stages: [stage])
        let task = Task { try await upgrader.upgradeIfNeeded(storeAt: fixture.store) }
        while !probe.hasStarted { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(probe.wasInterrupted, "sqlite3_interrupt stopped the statement")
        #expect(StoreBytes(fixture.store) == before)
        let journal = try #require(UpgradeJournal.load(from: fixture.files.workDirectory))
        #expect(journal.failure == "cancelled")
        #expect(journal.completed.map(\.index) == [1, 2])
    }
}
