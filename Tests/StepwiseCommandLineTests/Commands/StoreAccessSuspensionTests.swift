import Foundation
import GRDB
import Stepwise
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A suspended ``StoreAccess`` holds no lock (iOS kills a suspended app that holds one in an App
/// Group container), and takes it again on resume: through the hook, through GRDB's
/// notifications, and through the GRDB opener.
///
/// `.serialized`: one test posts GRDB's suspension notifications, which every access and
/// connection of this process observing them follows.
@Suite("StoreAccess: suspension", .serialized)
struct StoreAccessSuspensionTests {
    @Test("suspend() releases the flock, resume() takes it again, close() releases it for good")
    func hook() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-suspend")
        let store = directory.path("Store.sqlite")
        let lockFile = StoreFiles(store: store).accessLockFile
        let access = try StoreAccess(storeAt: store, timeout: .zero)
        #expect(access.isOpen && !access.isSuspended)
        #expect(!Self.canLockExclusively(lockFile))

        access.suspend()
        #expect(!access.isOpen && access.isSuspended)
        #expect(Self.canLockExclusively(lockFile))

        try access.resume()
        #expect(access.isOpen && !access.isSuspended)
        #expect(!Self.canLockExclusively(lockFile))

        access.close()
        #expect(Self.canLockExclusively(lockFile))
        access.suspend()
        try access.resume()
        #expect(!access.isOpen && !access.isSuspended)
    }

    @Test("resume() while an upgrade holds the store waits, then fails, and stays suspended")
    func resumeDuringAnUpgrade() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-suspend")
        let store = directory.path("Store.sqlite")
        let access = try StoreAccess(storeAt: store, timeout: .milliseconds(100))
        access.suspend()
        // What an upgrade holds: the access lock, exclusively, on a descriptor of its own.
        let upgrade = open(StoreFiles(store: store).accessLockFile.path, O_RDWR)
        #expect(flock(upgrade, LOCK_EX | LOCK_NB) == 0)
        let error = #expect(throws: UpgradeError.self) { try access.resume() }
        guard case .upgradeRunning? = error?.kind else {
            Issue.record("expected upgradeRunning, got \(String(describing: error))")
            return
        }
        #expect(access.isSuspended)
        close(upgrade)
        try access.resume()
        #expect(access.isOpen)
    }

    @Test("GRDB's suspension notifications suspend and resume an access that observes them")
    func notifications() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-suspend")
        let store = directory.path("Store.sqlite")
        let lockFile = StoreFiles(store: store).accessLockFile
        let observing = try StoreAccess(storeAt: store, timeout: .zero, observesSuspensionNotifications: true)
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        #expect(observing.isSuspended)
        #expect(Self.canLockExclusively(lockFile))
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        #expect(observing.isOpen)
        #expect(!Self.canLockExclusively(lockFile))

        // An access that doesn't observe them keeps its lock.
        observing.close()
        let plain = try StoreAccess(storeAt: store, timeout: .zero)
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        #expect(plain.isOpen && !Self.canLockExclusively(lockFile))
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        plain.close()
    }

    @Test("openDatabasePool's claim follows the configuration's observesSuspensionNotifications")
    func opener() throws {
        let fixture = try RecipesStoreFixture(version: RecipesHistory.history.versions.last?.name ?? "")
        let upgrader = try Upgrader(
            bundleAt: fixture.bundle, policies: SamplePolicies.registry,
            options: UpgradeOptions(lockTimeout: .milliseconds(100)))
        let lockFile = StoreFiles(store: fixture.store).accessLockFile
        var configuration = Configuration()
        configuration.observesSuspensionNotifications = true
        var pool: DatabasePool? = try upgrader.openDatabasePool(storeAt: fixture.store, configuration: configuration)
        #expect(!Self.canLockExclusively(lockFile))
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        #expect(Self.canLockExclusively(lockFile))
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        #expect(!Self.canLockExclusively(lockFile))
        let count = try pool?.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") } ?? 0
        #expect(count > 0)
        try pool?.close()
        pool = nil
        // GRDB drops the configuration, and with it the claim, on its own queue: soon, not at once.
        #expect(Self.eventually { Self.canLockExclusively(lockFile) })

        // Without the notifications the claim stays held while they are posted.
        var plainPool: DatabasePool? = try upgrader.openDatabasePool(storeAt: fixture.store)
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        #expect(!Self.canLockExclusively(lockFile))
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        try plainPool?.close()
        plainPool = nil
        #expect(Self.eventually { Self.canLockExclusively(lockFile) })
    }

    /// Whether `condition` holds within 2 s, polling every 10 ms.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(2)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return condition()
    }

    /// Whether another open file description can take `url`'s `flock` exclusively now, as an
    /// upgrade would; the probe's lock is released when its descriptor closes.
    static func canLockExclusively(_ url: URL) -> Bool {
        let descriptor = open(url.path, O_RDWR)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }
}
