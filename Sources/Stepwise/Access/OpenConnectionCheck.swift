import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The best-effort check for SQLite connections that don't follow ``StoreAccess``: a
/// WAL-mode connection open on the store, in any process, before the swap's commit point.
///
/// It relies on the lock SQLite's unix VFS keeps on the `-shm` file: every connection to a
/// WAL-mode database holds a shared POSIX lock on the wal-index's "DMS" (dead-man switch)
/// slot for as long as it is open, and the last connection to close takes it exclusively
/// to clean up (https://sqlite.org/walformat.html, the section on the DMS lock; in
/// `os_unix.c` the slot is byte `UNIX_SHM_DMS` = 120 + 8 = 128 of the `-shm` file).
///
/// What it can't see: a connection in rollback-journal mode (it keeps no lock between
/// transactions), a connection that opens after the check, and, off Linux, more than one
/// holder's pid.
enum OpenConnectionCheck {
    /// The byte of the `-shm` file every open WAL-mode connection holds a shared lock on.
    static let deadManSwitchByte = 128

    /// The pids of processes with a WAL-mode connection open on the store (empty when none);
    /// `[]` also when the store has no `-shm`.
    static func holders(of files: StoreFiles) -> [Int32] {
        let shm = files.generation.file(.shm)
        guard FileManager.default.fileExists(atPath: shm.path) else { return [] }
        // Each open WAL-mode connection holds a shared lock on the DMS slot, byte 128 of the
        // -shm in the unix VFS (https://sqlite.org/walformat.html, on the DMS lock; checked on
        // this platform: /proc/locks lists "POSIX ADVISORY READ <pid> … 128 128" per connection).
        if let holders = LockHolders.posixHolders(of: shm, byte: deadManSwitchByte) {
            return holders
        }
        #if os(Linux)
            return []
        #else
            // No /proc/locks: ask with F_GETLK, which needs a descriptor. Closing it drops
            // this process's own POSIX locks on the -shm, so an in-process connection opened
            // against the advice to upgrade first loses its locks: it was refused anyway.
            let descriptor = open(shm.path, O_RDONLY)
            guard descriptor >= 0 else { return [] }
            defer { close(descriptor) }
            var lock = flock()
            lock.l_type = Int16(F_WRLCK)
            lock.l_whence = Int16(SEEK_SET)
            lock.l_start = off_t(deadManSwitchByte)
            lock.l_len = 1
            guard fcntl(descriptor, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return [] }
            return [lock.l_pid]
        #endif
    }
}
