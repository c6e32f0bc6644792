import Foundation
import GRDB
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// Stores shared with other processes: a child process (`stepwise-store-holder`) holds a
/// Recipes store open, with ``StoreAccess`` or without it, writing a row every 50 ms, while
/// this process upgrades it.
@Suite("Shared stores: StoreAccess and open connections")
struct StoreAccessTests {
    /// The child process and the files it reports through.
    final class Holder: @unchecked Sendable {
        // @unchecked: the test thread and one helper thread only read `rows` and stop it once.
        let process = Process()
        let rows: URL

        /// Starts the child on `store`, `mode` "access" or "bare", writing for `seconds`.
        init(store: URL, mode: String, writeSeconds: Double, in directory: TemporaryDirectory) throws {
            rows = directory.path("rows-\(UUID().uuidString)")
            process.executableURL = try CommandRunner().executable.deletingLastPathComponent()
                .appendingPathComponent("stepwise-store-holder")
            process.arguments = [store.path, mode, rows.path, "\(writeSeconds)"]
            try process.run()
            try wait(for: "open")
        }

        var pid: Int32 { process.processIdentifier }

        /// Rows the child has committed.
        var written: Int {
            (try? String(contentsOf: rows, encoding: .utf8)).flatMap { Int($0) } ?? 0
        }

        /// Waits up to 30 s for the child's marker file `rows.<marker>`.
        func wait(for marker: String) throws {
            let deadline = Date().addingTimeInterval(30)
            while !FileManager.default.fileExists(atPath: rows.path + "." + marker) {
                guard process.isRunning, Date() < deadline else {
                    throw HolderError.noMarker(marker, status: process.isRunning ? nil : process.terminationStatus)
                }
                usleep(20_000)
            }
        }

        /// Tells the child to close the store, and waits for it to exit.
        func stop() throws {
            _ = FileManager.default.createFile(atPath: rows.path + ".stop", contents: Data())
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }

        deinit {
            if process.isRunning { process.terminate() }
        }
    }

    enum HolderError: Error {
        case noMarker(String, status: Int32?)
    }

    func upgrader(_ fixture: RecipesStoreFixture, timeout: Double, events: EventLog? = nil) throws -> Upgrader {
        var progress: (@Sendable (UpgradeEvent) -> Void)?
        if let events {
            progress = { event in events.append(event) }
        }
        return try Upgrader(
            bundleAt: fixture.bundle, policies: SamplePolicies.registry,
            options: UpgradeOptions(lockTimeout: .milliseconds(Int64(timeout * 1000)), progress: progress))
    }

    /// Recipes named `child-<n>` in the store, read through its `-wal` from a private copy.
    func childRecipes(in store: URL) throws -> Int {
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        return try snapshot.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZRECIPE WHERE ZNAME LIKE 'child-%'") ?? 0
        }
    }

    @Test("a StoreAccess holder writing in another process makes an upgrade wait, then fail; its rows stay")
    func holderBlocksTheUpgrade() throws {
        let fixture = try RecipesStoreFixture()
        let holder = try Holder(store: fixture.store, mode: "access", writeSeconds: 3, in: fixture.directory)
        let events = EventLog()
        let error = try #require(throws: UpgradeError.self) {
            try upgrader(fixture, timeout: 1, events: events).upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .storeInUse(let pids, _, let bare) = error.kind else {
            Issue.record("expected storeInUse, got \(error)")
            return
        }
        #expect(!bare)
        #if os(Linux)
            #expect(pids == [holder.pid])
            #expect(events.waits.contains { $0 == [holder.pid] })
        #endif
        #expect("\(error)".contains("in use"))
        #expect(!fixture.exists(".Recipes.sqlite.stepwise"))
        try holder.wait(for: "idle")
        try holder.stop()
        #expect(holder.written > 10)
        #expect(try childRecipes(in: fixture.store) == holder.written)
        // The store is still at its old version: the refused upgrade changed nothing.
        #expect(try upgrader(fixture, timeout: 1).needsUpgrade(storeAt: fixture.store))
    }

    @Test("the store is byte-identical after an upgrade refused by an idle holder")
    func refusedUpgradeLeavesTheStore() throws {
        let fixture = try RecipesStoreFixture()
        let holder = try Holder(store: fixture.store, mode: "access", writeSeconds: 0.3, in: fixture.directory)
        try holder.wait(for: "idle")
        let before = fixture.storeBytes()
        let error = try #require(throws: UpgradeError.self) {
            try upgrader(fixture, timeout: 0.5).upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .storeInUse(_, let seconds, let bare) = error.kind else {
            Issue.record("expected storeInUse, got \(error)")
            return
        }
        #expect(seconds == 0.5 && !bare)
        #expect(fixture.storeBytes() == before)
        try holder.stop()
        #expect(try childRecipes(in: fixture.store) == holder.written)
    }

    @Test("when the holder closes first, the upgrade completes with every row it wrote")
    func upgradeWaitsForTheHolder() throws {
        let fixture = try RecipesStoreFixture()
        let holder = try Holder(store: fixture.store, mode: "access", writeSeconds: 1, in: fixture.directory)
        let events = EventLog()
        let upgrading = Thread {
            // The holder closes the store after writing for a second.
            try? holder.wait(for: "idle")
            try? holder.stop()
        }
        upgrading.start()
        let report = try upgrader(fixture, timeout: 30, events: events).upgradeIfNeededSynchronously(
            storeAt: fixture.store)
        #expect(report.to == RecipesHistory.history.names.last)
        #expect(!events.waits.isEmpty)
        #expect(holder.written > 5)
        #expect(try childRecipes(in: fixture.store) == holder.written)
    }

    @Test("a bare WAL connection in another process blocks the swap, and the error says why")
    func bareConnectionBlocksTheSwap() throws {
        let fixture = try RecipesStoreFixture()
        let holder = try Holder(store: fixture.store, mode: "bare", writeSeconds: 0.3, in: fixture.directory)
        try holder.wait(for: "idle")
        let before = fixture.storeBytes()
        let error = try #require(throws: UpgradeError.self) {
            try upgrader(fixture, timeout: 0.5).upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .storeInUse(let pids, _, let bare) = error.kind else {
            Issue.record("expected storeInUse, got \(error)")
            return
        }
        #expect(bare)
        #if os(Linux)
            #expect(pids == [holder.pid])
        #endif
        #expect("\(error)".contains("doesn't hold StoreAccess"))
        #expect(fixture.storeBytes() == before)
        try holder.stop()
        // With the connection closed, the next call upgrades (starting over: the store changed).
        let report = try upgrader(fixture, timeout: 5).upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(!report.upToDate)
        #expect(try childRecipes(in: fixture.store) == holder.written)
    }

    @Test("without /proc/locks (Darwin's way), one held descriptor's F_GETLK names another process's connection")
    func probeNamesAnotherProcess() throws {
        let fixture = try RecipesStoreFixture()
        let holder = try Holder(store: fixture.store, mode: "bare", writeSeconds: 0.2, in: fixture.directory)
        try holder.wait(for: "idle")
        let before = fixture.storeBytes()
        let files = StoreFiles(store: fixture.store)
        let error = try #require(throws: UpgradeError.self) {
            try StoreAccessGate.waitForBareConnections(files, timeout: 0.3, readsProcLocks: false, emit: { _ in })
        }
        guard case .storeInUse(let pids, _, true) = error.kind else {
            Issue.record("expected storeInUse, got \(error)")
            return
        }
        #expect(pids == [holder.pid])
        #expect(fixture.storeBytes() == before)
        try holder.stop()
        // With the connection closed, the same check passes.
        try StoreAccessGate.waitForBareConnections(files, timeout: 1, readsProcLocks: false, emit: { _ in })
    }

    @Test("openDatabasePool refuses an outdated store, and opens the new generation after the upgrade")
    func openDatabasePoolAfterTheUpgrade() throws {
        let fixture = try RecipesStoreFixture()
        let upgrader = try upgrader(fixture, timeout: 1)
        let error = try #require(throws: UpgradeError.self) {
            try upgrader.openDatabasePool(storeAt: fixture.store)
        }
        guard case .needsUpgrade(let target) = error.kind else {
            Issue.record("expected needsUpgrade, got \(error)")
            return
        }
        #expect(target == "Recipes 4")
        #expect("\(error)".contains("upgradeIfNeeded"))
        _ = try upgrader.upgradeIfNeededSynchronously(storeAt: fixture.store)
        var pool: DatabasePool? = try upgrader.openDatabasePool(storeAt: fixture.store)
        let tables = try pool?.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") } ?? []
        #expect(tables.contains("ZUNITOFMEASURE"))
        // While the pool lives, an upgrade (here a rollback-free re-run to an older target
        // would be refused anyway) can't take the store: a second upgrader times out.
        let refusal = try #require(throws: UpgradeError.self) {
            try Upgrader.rollback(storeAt: fixture.store, options: UpgradeOptions(lockTimeout: .milliseconds(300)))
        }
        guard case .storeInUse(let pids, _, false) = refusal.kind else {
            Issue.record("expected storeInUse, got \(refusal)")
            return
        }
        #if os(Linux)
            #expect(pids == [ProcessInfo.processInfo.processIdentifier])
        #endif
        try pool?.close()
        pool = nil
        let access = try StoreAccess(storeAt: fixture.store, timeout: .seconds(1))
        #expect(access.isOpen)
        access.close()
        #expect(!access.isOpen)
    }

    @Test("openDatabasePool creates a missing store at the target version")
    func openDatabasePoolCreatesAMissingStore() throws {
        let fixture = try RecipesStoreFixture()
        let store = fixture.directory.path("New.sqlite")
        let upgrader = try upgrader(fixture, timeout: 1)
        var pool: DatabasePool? = try upgrader.openDatabasePool(storeAt: store)
        let tables = try pool?.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") } ?? []
        #expect(tables.contains("ZUNITOFMEASURE"))
        try pool?.close()
        pool = nil
        #expect(try !upgrader.needsUpgrade(storeAt: store))
    }

    @Test("stepwise upgrade reports the wait and the refusal, in text and JSON")
    func cliReportsTheWait() throws {
        let fixture = try RecipesStoreFixture()
        let holder = try Holder(store: fixture.store, mode: "access", writeSeconds: 0.3, in: fixture.directory)
        let result = try CommandRunner().run(
            fixture.upgradeArguments("--lock-timeout", "1.5", "--json", "--progress", "lines"))
        // Busy: a script retries on 75 (`EX_TEMPFAIL`).
        #expect(result.status == 75)
        #expect(result.standardError.contains("Waiting for"), "\(result.standardError)")
        let failure = try #require(try result.json()["error"] as? [String: Any])
        #expect(failure["kind"] as? String == "storeInUse")
        #if os(Linux)
            #expect(failure["processIDs"] as? [Int] == [Int(holder.pid)])
        #endif
        try holder.stop()
    }
}

extension StoreAccessTests {
    @Test("stepwise rollback reports the wait and the refusal, in text and JSON")
    func rollbackReportsTheWait() throws {
        let fixture = try RecipesStoreFixture()
        let upgraded = try CommandRunner().run(fixture.upgradeArguments("--keep-backup", "--progress", "none"))
        #expect(upgraded.status == 0, "\(upgraded.standardError)")
        // The holder keeps the upgraded store open without writing.
        let holder = try Holder(store: fixture.store, mode: "access", writeSeconds: 0, in: fixture.directory)
        let before = fixture.storeBytes()
        let result = try CommandRunner().run(["rollback", fixture.store.path, "--lock-timeout", "1.5", "--json"])
        // Busy: a script retries on 75 (`EX_TEMPFAIL`).
        #expect(result.status == 75)
        #expect(result.standardError.contains("Waiting for"), "\(result.standardError)")
        let failure = try #require(try result.json()["error"] as? [String: Any])
        #expect(failure["kind"] as? String == "storeInUse")
        #expect(fixture.storeBytes() == before)
        try holder.stop()
        let rolledBack = try CommandRunner().run(["rollback", fixture.store.path, "--json"])
        #expect(rolledBack.status == 0, "\(rolledBack.standardError)")
        #expect(try rolledBack.json()["restoredVersion"] as? String == "Recipes")
    }
}

/// Collects ``UpgradeEvent``s from the upgrading thread.
final class EventLog: @unchecked Sendable {
    // @unchecked: `lock` guards `events`.
    private let lock = NSLock()
    private var events: [UpgradeEvent] = []

    func append(_ event: UpgradeEvent) {
        lock.withLock { events.append(event) }
    }

    /// The pids of each `waitingForStore` event.
    var waits: [[Int32]] {
        lock.withLock {
            events.compactMap {
                if case .waitingForStore(let pids, _) = $0 { return pids }
                return nil
            }
        }
    }
}
