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
public final class StoreAccess: @unchecked Sendable {
    // @unchecked: `guardLock` guards `held`.
    /// The store this access is for.
    public let storeURL: URL
    private let guardLock = NSLock()
    private var held: AccessLock?

    /// Takes a shared claim on the store, waiting up to `timeout` while an upgrade or rollback
    /// of it is running.
    ///
    /// - parameters:
    ///   - url: The store (its main file). It needn't exist yet.
    ///   - timeout: How long to wait for a running upgrade.
    /// - throws: ``UpgradeError``: ``UpgradeError/Kind/upgradeRunning(seconds:)``
    ///   after the timeout, or a file-system error for the lock file.
    public init(storeAt url: URL, timeout: Duration = .seconds(10)) throws {
        let timeout = timeout.nonNegativeSeconds
        storeURL = url
        let files = StoreFiles(store: url)
        do {
            held = try AccessLock(
                files.accessLockFile, mode: .shared, timeout: timeout, site: "access.shared", fileSystem: FileSystem())
        } catch is AccessLock.Timeout {
            throw UpgradeError(.upgradeRunning(seconds: timeout), storePath: url.path)
        } catch let error as FileSystemError {
            throw UpgradeError(.accessLockFailed(reason: "\(error)"), storePath: url.path)
        }
    }

    /// Whether the claim is still held.
    public var isOpen: Bool {
        guardLock.withLock { held != nil }
    }

    /// Releases the claim. Close the store's connections first. Calling it again does nothing;
    /// the claim is also released when the object is deallocated.
    public func close() {
        guardLock.withLock { held = nil }
    }
}
