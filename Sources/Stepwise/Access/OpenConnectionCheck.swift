import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The check for SQLite connections that don't follow ``StoreAccess``, before the swap's
/// commit point: a connection still open in this very process (the app's own), then a
/// WAL-mode connection in any other process. One check lasts one wait
/// (``StoreAccessGate/waitForBareConnections(_:timeout:readsProcLocks:emit:)``): make it,
/// poll ``holders()``, then ``finish()``.
///
/// **This process first.** No lock query shows the caller's own locks, so the app's own
/// connection is found by its descriptors: any descriptor of this process open on the store's
/// main file or a companion (``OwnDescriptors``, the same walk on every platform). Stepwise
/// holds none there at this point: the run reads the original only through connections it
/// has closed by now (the identification, the integrity check, step 1 when it reads the
/// original), and its locks are on files of their own (`.<store>.stepwise-access`,
/// `.<store>.stepwise-lock`). The only descriptor of ours the walk can meet is the probe's
/// below, which it skips. Other processes are asked only when this one has none: the probe
/// must not open (and later close) a descriptor on a `-shm` that a connection here has
/// locks on.
///
/// **Other processes.** Every connection to a WAL-mode database holds a shared POSIX lock on
/// the wal-index's "DMS" (dead-man switch) slot for as long as it is open, and the last
/// connection to close takes it exclusively to clean up (https://sqlite.org/walformat.html,
/// the section on the DMS lock; in `os_unix.c` the slot is byte `UNIX_SHM_DMS` = 120 + 8 = 128
/// of the `-shm` file). On Linux `/proc/locks` names every holder without opening the file;
/// elsewhere one descriptor, held for the whole wait, asks `F_GETLK` (``SharedMemoryProbe``).
///
/// What it can't see: another process's connection in rollback-journal mode (it keeps no lock
/// between transactions), a connection that opens after the check, and, off Linux, more than
/// one other process's pid.
final class OpenConnectionCheck {
    /// The byte of the `-shm` file every open WAL-mode connection holds a shared lock on.
    static let deadManSwitchByte = 128

    private let files: StoreFiles
    private let readsProcLocks: Bool
    private var probe: SharedMemoryProbe?

    /// - parameter readsProcLocks: Whether other processes are asked through `/proc/locks`
    ///   (Linux) rather than a ``SharedMemoryProbe``; tests on Linux turn it off to run the
    ///   probe.
    init(_ files: StoreFiles, readsProcLocks: Bool = LockHolders.readsProcLocks) {
        self.files = files
        self.readsProcLocks = readsProcLocks
        // A probe an earlier check had to leave open can be closed now that its connection is gone.
        ParkedDescriptors.shared.closeWhatCan()
    }

    /// The pids with a connection open on the store (empty when none): this process alone
    /// when it has one, else the other processes holding the `-shm`'s DMS byte.
    func holders() -> [Int32] {
        let ours = ParkedDescriptors.shared.descriptors.union(probe.map { [$0.ownDescriptor] } ?? [])
        if !OwnDescriptors.descriptors(on: OwnDescriptors.identities(of: files), excluding: ours).isEmpty {
            return [getpid()]
        }
        let shm = files.generation.file(.shm)
        guard let current = OwnDescriptors.FileIdentity(of: shm) else { return [] }
        // Each open WAL-mode connection holds a shared lock on the DMS slot, byte 128 of the
        // -shm in the unix VFS (https://sqlite.org/walformat.html, on the DMS lock; checked on
        // Linux: /proc/locks lists "POSIX ADVISORY READ <pid> … 128 128" per connection).
        if readsProcLocks {
            return LockHolders.posixHolders(of: shm, byte: Self.deadManSwitchByte) ?? []
        }
        if let held = probe, held.file != current {
            // The last connection removed the -shm and a new one made another: ask the new file.
            held.close()
            probe = nil
        }
        if probe == nil { probe = SharedMemoryProbe(shm) }
        return probe?.holder(of: Self.deadManSwitchByte).map { [$0] } ?? []
    }

    /// Ends the check: closes the probe's descriptor, or parks it while a connection of this
    /// process has the `-shm` open (``SharedMemoryProbe/close()``).
    func finish() {
        probe?.close()
        probe = nil
    }
}
