import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `flock` on a file beside a store: the access lock file (``StoreFiles/accessLockFile``),
/// shared for a ``StoreAccess`` holder and exclusive for an upgrade or a rollback, or the
/// upgrade lock file (``UpgradeLock``). The kernel drops it when
/// the descriptor closes or the process dies. `flock` locks belong to an open file
/// description, so holders in one process exclude each other exactly as across processes.
final class AccessLock: Sendable {
    enum Mode {
        case shared
        case exclusive
    }

    /// Why the lock wasn't taken in time.
    struct Timeout: Error {
        /// The processes holding the lock when the wait ended, where the platform names them.
        var holders: [Int32]
    }

    private let descriptor: Int32

    /// Takes the lock, polling every 20 ms for up to `timeout` seconds. `waiting` is called
    /// when the wait starts and then about once a second, with the holders' pids (empty where
    /// the platform can't name them).
    ///
    /// - parameters:
    ///   - site: The fault-injection site of opening the file, also named when opening
    ///     fails; `flockSite` (default: `site`) is named when `flock` itself fails.
    /// - throws: ``Timeout``, or ``FileSystemError`` when the file can't be opened or locked.
    init(
        _ url: URL, mode: Mode, timeout: Double, site: String, flockSite: String? = nil, fileSystem: FileSystem,
        waiting: (_ holders: [Int32]) -> Void = { _ in }
    ) throws {
        try fileSystem.willLock(url, site: site)
        let descriptor = open(url.path, O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else {
            // Read errno first: building the file's path below can overwrite it.
            let reason = String(cString: strerror(errno))
            throw FileSystemError(operation: "lock", path: url.path, reason: reason, site: site)
        }
        let operation = (mode == .shared ? LOCK_SH : LOCK_EX) | LOCK_NB
        do {
            try Polling.poll(
                timeout: timeout,
                attempt: { () throws -> Void? in
                    if flock(descriptor, operation) == 0 { return () }
                    let code = errno
                    guard code == EWOULDBLOCK || code == EINTR else {
                        throw FileSystemError(
                            operation: "lock", path: url.path, reason: String(cString: strerror(code)),
                            site: flockSite ?? site)
                    }
                    return nil
                },
                waiting: { waiting(LockHolders.flockHolders(of: url) ?? []) },
                timedOut: { Timeout(holders: LockHolders.flockHolders(of: url) ?? []) })
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
    }

    deinit {
        // Closing the descriptor releases the lock.
        close(descriptor)
    }
}
