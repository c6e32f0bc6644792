import Foundation
import GRDB
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import Stepwise

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A connection the app itself left open on its store, then asked for an upgrade: the
/// open-connection check finds it by this process's own descriptors (``OwnDescriptors``),
/// which no lock query shows, waits for it, then refuses, leaving the store as it was.
@Suite("The open-connection check: a connection in this very process")
struct SameProcessConnectionTests {
    /// An open GRDB connection of either kind, held by the test.
    enum Kind: String, CaseIterable, CustomStringConvertible {
        case queue, pool
        var description: String { rawValue }

        func open(_ store: URL) throws -> any DatabaseWriter {
            switch self {
            case .queue: try DatabaseQueue(path: store.path)
            case .pool: try DatabasePool(path: store.path)
            }
        }
    }

    /// The pids of each `waitingForStore` event for a bare connection, in order.
    final class WaitLog: @unchecked Sendable {
        // @unchecked: `waits` is guarded by `lock`.
        private let lock = NSLock()
        private var _waits: [[Int32]] = []
        var waits: [[Int32]] { lock.withLock { _waits } }
        func append(_ event: UpgradeEvent) {
            guard case .waitingForStore(let pids, true) = event else { return }
            lock.withLock { _waits.append(pids) }
        }
    }

    func upgrader(_ fixture: UpgradeFixture, timeout: Duration, events: WaitLog? = nil) throws -> Upgrader {
        var progress: (@Sendable (UpgradeEvent) -> Void)?
        if let events {
            progress = { event in events.append(event) }
        }
        return try Upgrader(
            bundleAt: fixture.bundle, policies: SamplePolicies.registry,
            options: UpgradeOptions(lockTimeout: timeout, progress: progress))
    }

    var ownPID: Int32 { ProcessInfo.processInfo.processIdentifier }

    @Test(
        "the upgrade waits for the app's own connection, then refuses, the store byte-identical",
        arguments: Kind.allCases)
    func ownConnectionIsRefused(kind: Kind) throws {
        let fixture = try UpgradeFixture("Recipes")
        var connection: (any DatabaseWriter)? = try kind.open(fixture.store)
        // Opened for real: a read makes the pool open a reader and the -shm exist.
        _ = try connection?.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
        let before = StoreBytes(fixture.store)
        #expect(before.files["-shm"] != nil, "the store should be in WAL mode, with its -shm: \(before)")

        let events = WaitLog()
        let started = Date()
        let error = try #require(throws: UpgradeError.self) {
            try upgrader(fixture, timeout: .milliseconds(600), events: events)
                .upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .storeInUse(let pids, _, let bare) = error.kind else {
            Issue.record("expected storeInUse, got \(error)")
            return
        }
        #expect(bare)
        #expect(pids == [ownPID])
        #expect(Date().timeIntervalSince(started) >= 0.5, "it refused without waiting")
        #expect(events.waits.contains { $0 == [ownPID] }, "no waitingForStore naming this process")
        #expect("\(error)".contains("open in this process"))
        // The main file, -wal and -shm are as they were; the connection still works.
        #expect(StoreBytes(fixture.store) == before)
        _ = try connection?.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZRECIPE") }

        try connection?.close()
        connection = nil
        // The verified upgrade waited beside the store; with the connection closed it is swapped in.
        let report = try upgrader(fixture, timeout: .seconds(5)).upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.to == fixture.latest)
        #expect(try fixture.version() == fixture.latest)
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path))
    }

    @Test("a rollback refuses the app's own connection too")
    func rollbackRefusesOwnConnection() throws {
        let fixture = try UpgradeFixture("Recipes")
        _ = try fixture.upgrader(keepBackup: true).upgradeIfNeededSynchronously(storeAt: fixture.store)
        var connection: DatabaseQueue? = try DatabaseQueue(path: fixture.store.path)
        let before = StoreBytes(fixture.store)
        let error = try #require(throws: UpgradeError.self) {
            try Upgrader.rollback(storeAt: fixture.store, options: UpgradeOptions(lockTimeout: .milliseconds(200)))
        }
        guard case .storeInUse(let pids, _, true) = error.kind else {
            Issue.record("expected storeInUse with a bare connection, got \(error)")
            return
        }
        #expect(pids == [ownPID])
        #expect(StoreBytes(fixture.store) == before)
        try connection?.close()
        connection = nil
        #expect(try Upgrader.rollback(storeAt: fixture.store) != nil)
    }

    #if os(Linux)
        /// The rule the probe is built around, shown on this platform: closing any descriptor
        /// of a file drops every POSIX lock this process holds on it, SQLite's included.
        @Test("closing a second descriptor of the -shm drops this process's SQLite locks (why the probe parks)")
        func closingADescriptorDropsOurLocks() throws {
            let fixture = try UpgradeFixture("Recipes")
            let pool = try DatabasePool(path: fixture.store.path)
            defer { try? pool.close() }
            _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
            let shm = fixture.files.generation.file(.shm)
            let dms = OpenConnectionCheck.deadManSwitchByte
            #expect(LockHolders.posixHolders(of: shm, byte: dms) == [ownPID])
            let descriptor = open(shm.path, O_RDONLY)
            try #require(descriptor >= 0)
            close(descriptor)
            #expect(LockHolders.posixHolders(of: shm, byte: dms) == [], "the close should have dropped the DMS lock")
        }

        @Test("the F_GETLK probe never closes a descriptor under a connection of this process: it parks it")
        func probeParksItsDescriptor() throws {
            let fixture = try UpgradeFixture("Recipes")
            var pool: DatabasePool? = try DatabasePool(path: fixture.store.path)
            _ = try pool?.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
            let shm = fixture.files.generation.file(.shm)
            let dms = OpenConnectionCheck.deadManSwitchByte

            let probe = try #require(SharedMemoryProbe(shm))
            // F_GETLK doesn't see this process's own lock: the reason for the descriptor walk.
            #expect(probe.holder(of: dms) == nil)
            let parkedDescriptor = probe.ownDescriptor
            probe.close()
            #expect(ParkedDescriptors.shared.descriptors.contains(parkedDescriptor))
            #expect(LockHolders.posixHolders(of: shm, byte: dms) == [ownPID], "the pool lost its DMS lock")
            _ = try pool?.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZRECIPE") }

            try pool?.close()
            pool = nil
            ParkedDescriptors.shared.closeWhatCan()
            #expect(!ParkedDescriptors.shared.descriptors.contains(parkedDescriptor))
            #expect(
                fcntl(parkedDescriptor, F_GETFD) == -1
                    || OwnDescriptors.FileIdentity(descriptor: parkedDescriptor) != probe.file)
        }

        @Test("the check without /proc/locks (the Darwin path) sees this process first, and keeps its locks")
        func probePathSeesOwnConnectionFirst() throws {
            let fixture = try UpgradeFixture("Recipes")
            let pool = try DatabasePool(path: fixture.store.path)
            defer { try? pool.close() }
            _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
            let error = try #require(throws: UpgradeError.self) {
                try StoreAccessGate.waitForBareConnections(
                    fixture.files, timeout: 0.1, readsProcLocks: false, emit: { _ in })
            }
            guard case .storeInUse(let pids, _, true) = error.kind else {
                Issue.record("expected storeInUse, got \(error)")
                return
            }
            #expect(pids == [ownPID])
            let shm = fixture.files.generation.file(.shm)
            #expect(LockHolders.posixHolders(of: shm, byte: OpenConnectionCheck.deadManSwitchByte) == [ownPID])
        }
    #endif

    @Test("with nothing open, the check passes at once, whichever way it asks other processes")
    func nothingOpenPasses() throws {
        let fixture = try UpgradeFixture("Recipes")
        // A -shm left behind by a closed connection, and no descriptor on it.
        try DatabasePool(path: fixture.store.path).close()
        for readsProcLocks in [true, false] where readsProcLocks == LockHolders.readsProcLocks || !readsProcLocks {
            try StoreAccessGate.waitForBareConnections(
                fixture.files, timeout: 0.1, readsProcLocks: readsProcLocks, emit: { _ in })
        }
        #expect(
            OwnDescriptors.descriptors(on: OwnDescriptors.identities(of: fixture.files)).isEmpty,
            "the check left a descriptor open on the store")
    }
}
