import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cross-process lock that makes one upgrader at a time work on a store.
///
/// An exclusive `flock` on `.<store>.stepwise-lock`. The kernel drops it when the process
/// dies, so a crashed upgrade never leaves the store locked. `flock` locks belong to an open
/// file description, so two upgraders in one process exclude each other too. Waiters poll
/// every 20 ms until the timeout.
final class UpgradeLock: Sendable {
    private let descriptor: Int32

    /// Waits up to `timeout` seconds for the lock.
    init(files: StoreFiles, timeout: Double, fileSystem: FileSystem) throws {
        try fileSystem.willLock(files.lockFile, site: "lock.open")
        let descriptor = open(files.lockFile.path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else {
            // Read errno first: building the lock file's URL below can overwrite it.
            let reason = String(cString: strerror(errno))
            throw UpgradeError(
                .fileSystem(operation: "lock", path: files.lockFile.path, reason: reason),
                storePath: files.store.path, site: "lock.open")
        }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                let waitedOut = errno == EWOULDBLOCK
                let reason = String(cString: strerror(errno))
                close(descriptor)
                if waitedOut {
                    throw UpgradeError(.lockTimeout(seconds: timeout), storePath: files.store.path)
                }
                throw UpgradeError(
                    .fileSystem(operation: "lock", path: files.lockFile.path, reason: reason),
                    storePath: files.store.path, site: "lock.flock")
            }
            usleep(20_000)
        }
        self.descriptor = descriptor
    }

    deinit {
        // Closing the descriptor releases the lock.
        close(descriptor)
    }
}
