import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One descriptor on a store's `-shm`, held for a whole wait, to ask `F_GETLK` which other
/// process holds the DMS byte (``OpenConnectionCheck``) where `/proc/locks` can't say.
///
/// **Why one descriptor, never reopened.** Closing *any* descriptor of the `-shm` drops every
/// POSIX lock this process holds on it, SQLite's own included (the rule is quoted where the
/// descriptor is closed, in ``ParkedDescriptors``). So the probe opens once, asks at each poll
/// on the same descriptor, and closes once, at the end, and only when no other descriptor of
/// this process is open on the file (``close()``).
final class SharedMemoryProbe {
    private let descriptor: Int32
    /// The file the descriptor is open on.
    let file: OwnDescriptors.FileIdentity

    /// Opens `shm` read-only; nil when it can't be opened (gone meanwhile: no holder).
    init?(_ shm: URL) {
        let descriptor = open(shm.path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        guard let file = OwnDescriptors.FileIdentity(descriptor: descriptor) else {
            // Nothing of this process could have a lock on a file it can't even fstat
            // through a fresh descriptor; closing it can't drop one.
            Foundation.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        self.file = file
    }

    /// The probe's own descriptor, which the check must not count as a connection.
    var ownDescriptor: Int32 { descriptor }

    /// The pid of a process holding a lock on `byte` that a write lock would conflict with;
    /// nil when there is none. Never this process (see ``OwnDescriptors``).
    func holder(of byte: Int) -> Int32? {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(byte)
        lock.l_len = 1
        guard fcntl(descriptor, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return nil }
        return lock.l_pid
    }

    /// Closes the descriptor, unless another descriptor of this process is open on the same
    /// file: then closing would drop that connection's locks (the POSIX rule above), so it is
    /// parked (``ParkedDescriptors``) and closed later, once the file has no other descriptor
    /// here. The probe must not be used afterwards.
    func close() {
        ParkedDescriptors.shared.close(descriptor, on: file)
    }
}

/// Descriptors the open-connection check couldn't close without dropping another
/// connection's POSIX locks (``SharedMemoryProbe``), kept open until they can be.
///
/// SQLite does the same for its own connections (`setPendingFd` in os_unix.c keeps a closed
/// connection's descriptor while another connection of the process holds locks on the file).
/// A parked descriptor costs one file-table slot until the next check; there is at most one
/// per `-shm` that a connection kept open through an upgrade's wait.
final class ParkedDescriptors: @unchecked Sendable {
    // @unchecked: `parked` is guarded by `lock`.
    static let shared = ParkedDescriptors()
    private let lock = NSLock()
    private var parked: [Int32: OwnDescriptors.FileIdentity] = [:]

    /// Closes `descriptor` if no other descriptor of this process is open on `file`, else
    /// parks it; then closes every parked descriptor that can be closed now.
    func close(_ descriptor: Int32, on file: OwnDescriptors.FileIdentity) {
        lock.withLock {
            parked[descriptor] = file
            closeUnblocked()
        }
    }

    /// Closes the parked descriptors that no longer share their file with another descriptor
    /// of this process (called again by each check, so none is kept longer than needed).
    func closeWhatCan() {
        lock.withLock { closeUnblocked() }
    }

    private func closeUnblocked() {
        guard !parked.isEmpty else { return }
        let ours = Set(parked.keys)
        for (candidate, identity) in parked {
            // "All locks associated with a file for a given process shall be removed when a file
            // descriptor for that file is closed by that process" (IEEE Std 1003.1, close();
            // fcntl() says the same). So while another descriptor of this process is open on
            // the file (parked ones aside: they hold no locks), closing this one would take that
            // connection's DMS and WAL locks away without its knowing, and another process
            // could then checkpoint, truncate or rebuild the WAL under it ("How To Corrupt An
            // SQLite Database File", section 2.2, https://sqlite.org/howtocorrupt.html). A
            // descriptor opened between this walk and the close would still lose them: the
            // window is one system call wide, and only a connection opened during an upgrade's
            // last check, against the advice, can fall into it.
            guard OwnDescriptors.descriptors(on: [identity], excluding: ours).isEmpty else { continue }
            Foundation.close(candidate)
            parked[candidate] = nil
        }
    }

    /// The descriptors parked now: this process's own, which no check counts as a connection.
    var descriptors: Set<Int32> { lock.withLock { Set(parked.keys) } }
}
