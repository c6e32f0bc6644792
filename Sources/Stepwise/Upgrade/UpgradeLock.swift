import Foundation

/// The cross-process lock that makes one upgrader at a time work on a store.
///
/// An exclusive ``AccessLock`` (`flock`) on `.<store>.stepwise-lock`. The kernel drops it
/// when the process dies, so a crashed upgrade never leaves the store locked. `flock` locks
/// belong to an open file description, so two upgraders in one process exclude each other
/// too. Waiters poll every 20 ms until the timeout.
final class UpgradeLock: Sendable {
    private let lock: AccessLock

    /// Waits up to `timeout` seconds for the lock.
    ///
    /// - throws: ``UpgradeError/Kind/lockTimeout(seconds:)``, or a file-system
    ///   ``UpgradeError`` when the lock file can't be opened (site `lock.open`) or locked
    ///   (`lock.flock`).
    init(files: StoreFiles, timeout: Double, fileSystem: FileSystem) throws {
        do {
            lock = try AccessLock(
                files.lockFile, mode: .exclusive, timeout: timeout, site: "lock.open", flockSite: "lock.flock",
                fileSystem: fileSystem)
        } catch is AccessLock.Timeout {
            throw UpgradeError(.lockTimeout(seconds: timeout), storePath: files.store.path)
        } catch let error as FileSystemError {
            throw UpgradeError(error, storePath: files.store.path)
        }
    }
}
