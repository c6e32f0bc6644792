import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// A process's claim on a store while its own SQLite connections to it are open: the
/// protocol that keeps an upgrade from swapping a store out from under an app extension, a
/// widget or a helper process.
///
/// ```swift
/// import Stepwise
///
/// // In the app, the widget, the helper: hold it as long as connections are open.
/// let access = try StoreAccess(storeAt: storeURL)
/// let dbQueue = try DatabaseQueue(path: storeURL.path)
/// …
/// try dbQueue.close()
/// access.close()
/// ```
///
/// ``Upgrader/openDatabasePool(storeAt:configuration:)`` does all of it in one line, and
/// refuses a store that needs an upgrade.
///
/// **How.** A shared `flock` on `.<store>.stepwise-access` beside the store. An upgrade (or
/// rollback) takes the same lock exclusively from before it copies the store until after the
/// swap, so while any process holds a `StoreAccess` no upgrade starts (it waits up to its
/// ``UpgradeOptions/lockTimeout``, reporting ``UpgradeEvent/waitingForStore(processIDs:bareConnection:)``,
/// then fails with ``UpgradeError/Kind/storeInUse(processIDs:seconds:bareConnection:)``), and
/// while an upgrade runs no `StoreAccess` is granted (it waits up to `timeout`).
///
/// **Why a second lock file.** Upgraders already take turns on `.<store>.stepwise-lock`,
/// held for the whole run by one of them. Holders can't share that file: an upgrade waiting
/// for another upgrade would count as a holder of the store, and a holder would block
/// upgraders that only find the store up to date. Two files keep the two questions apart:
/// "who upgrades" and "who has the store open".
///
/// The kernel drops the lock when the process dies, so a crashed extension never blocks an
/// upgrade for good. `flock` locks belong to an open file description: two `StoreAccess`
/// in one process are two holders, and an upgrade in a process that itself holds one waits
/// for it like any other.
///
/// **Suspension.** iOS terminates a suspended app that holds a file lock in an App Group
/// container (exception code `0xDEAD10CC`), the very place a store shared with extensions
/// lives. ``suspend()`` releases the claim and ``resume()`` takes it again, the way GRDB
/// suspends its connections. Created with `observesSuspensionNotifications`, an access
/// follows GRDB's own notifications, `Database.suspendNotification` and
/// `Database.resumeNotification`, so one notification posted by the app suspends its GRDB
/// connections and its claim together ("Upgrading at launch" shows where to post them).
/// While the claim is released an upgrade in another process may take the store: don't use the
/// store's connections between the two calls.
public final class StoreAccess: @unchecked Sendable {
    // @unchecked: `guardLock` guards `held` and `isSuspendedNow`; `observers` is written in init only.
    /// The store this access is for.
    public let storeURL: URL
    private let timeout: Double
    private let guardLock = NSLock()
    private var held: AccessLock?
    private var isSuspendedNow = false
    private var observers: [any NSObjectProtocol] = []

    /// Takes a shared claim on the store, waiting up to `timeout` while an upgrade or rollback
    /// of it is running.
    ///
    /// - parameters:
    ///   - url: The store (its main file). It needn't exist yet.
    ///   - timeout: How long to wait for a running upgrade, here and in ``resume()``.
    ///   - observesSuspensionNotifications: Whether GRDB's `Database.suspendNotification` and
    ///     `Database.resumeNotification` call ``suspend()`` and ``resume()``, as GRDB's
    ///     `Configuration.observesSuspensionNotifications` does for its connections. Default:
    ///     false, as in GRDB.
    /// - throws: ``UpgradeError``: ``UpgradeError/Kind/upgradeRunning(seconds:)``
    ///   after the timeout, or a file-system error for the lock file.
    public init(storeAt url: URL, timeout: Duration = .seconds(10), observesSuspensionNotifications: Bool = false)
        throws
    {
        self.timeout = timeout.nonNegativeSeconds
        storeURL = url
        held = try Self.take(url, timeout: self.timeout)
        if observesSuspensionNotifications { observeSuspension() }
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }

    /// Whether the claim is held now: false once closed, and while suspended.
    public var isOpen: Bool {
        guardLock.withLock { held != nil }
    }

    /// Whether the claim was released by ``suspend()`` and not yet taken again by ``resume()``.
    public var isSuspended: Bool {
        guardLock.withLock { isSuspendedNow }
    }

    /// Releases the claim. Close the store's connections first. Calling it again does nothing;
    /// the claim is also released when the object is deallocated.
    public func close() {
        guardLock.withLock {
            held = nil
            isSuspendedNow = false
        }
    }

    /// Releases the claim's file lock while the app is suspended, keeping the access ready for
    /// ``resume()``. Suspend the store's GRDB connections too (GRDB's
    /// `Database.suspendNotification` does both when the access observes it). Does nothing
    /// when the access is closed or already suspended.
    public func suspend() {
        guardLock.withLock {
            guard held != nil else { return }
            // Dropping the lock closes its descriptor, which releases the `flock`.
            held = nil
            isSuspendedNow = true
        }
    }

    /// Takes the claim again after ``suspend()``, waiting up to the access's timeout while an
    /// upgrade that started in the meantime runs. Does nothing unless the access is suspended.
    ///
    /// - throws: ``UpgradeError``: ``UpgradeError/Kind/upgradeRunning(seconds:)`` after the
    ///   timeout (the access stays suspended: call it again later), or a file-system error
    ///   for the lock file.
    public func resume() throws {
        try resume(timeout: timeout)
    }

    private func resume(timeout: Double) throws {
        try guardLock.withLock {
            guard isSuspendedNow else { return }
            held = try Self.take(storeURL, timeout: timeout)
            isSuspendedNow = false
        }
    }

    /// Follows GRDB's suspension notifications. They are posted on the app's main thread, so
    /// a resume doesn't wait there: when an upgrade holds the store at that moment the access
    /// stays suspended (``isSuspended``) until the app calls ``resume()``.
    private func observeSuspension() {
        let center = NotificationCenter.default
        observers = [
            center.addObserver(forName: Database.suspendNotification, object: nil, queue: nil) { [weak self] _ in
                self?.suspend()
            },
            center.addObserver(forName: Database.resumeNotification, object: nil, queue: nil) { [weak self] _ in
                try? self?.resume(timeout: 0)
            },
        ]
    }

    /// Takes the shared lock on `url`'s access lock file.
    private static func take(_ url: URL, timeout: Double) throws -> AccessLock {
        let files = StoreFiles(store: url)
        do {
            return try AccessLock(
                files.accessLockFile, mode: .shared, timeout: timeout, site: "access.shared", fileSystem: FileSystem())
        } catch is AccessLock.Timeout {
            throw UpgradeError(.upgradeRunning(seconds: timeout), storePath: url.path)
        } catch let error as FileSystemError {
            throw UpgradeError(.accessLockFailed(reason: "\(error)"), storePath: url.path)
        }
    }
}
