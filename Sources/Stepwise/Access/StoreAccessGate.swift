import Foundation
import StepwiseStore

/// The upgrader's side of ``StoreAccess``: waiting for holders and open connections to go
/// away, with progress events, and the typed error when they don't.
enum StoreAccessGate {
    /// Takes the store's access lock exclusively, waiting up to `timeout` seconds for
    /// ``StoreAccess`` holders to close the store.
    ///
    /// - throws: ``UpgradeError/Kind/storeInUse(processIDs:seconds:bareConnection:)``.
    static func exclusive(
        _ files: StoreFiles, timeout: Double, fileSystem: FileSystem, emit: (UpgradeEvent) -> Void
    ) throws -> AccessLock {
        do {
            return try AccessLock(
                files.accessLockFile, mode: .exclusive, timeout: timeout, site: "access.lock", fileSystem: fileSystem,
                waiting: { holders in emit(.waitingForStore(processIDs: holders, bareConnection: false)) })
        } catch let waitedOut as AccessLock.Timeout {
            throw UpgradeError(
                .storeInUse(processIDs: waitedOut.holders, seconds: timeout, bareConnection: false),
                storePath: files.store.path)
        } catch let error as FileSystemError {
            throw UpgradeError(error, storePath: files.store.path)
        }
    }

    /// Waits up to `timeout` seconds, polling every 20 ms, until no connection is open on the
    /// store outside ``StoreAccess``: none in this process, and no WAL-mode one in another
    /// (``OpenConnectionCheck``, one for the whole wait).
    ///
    /// - throws: ``UpgradeError/Kind/storeInUse(processIDs:seconds:bareConnection:)`` with
    ///   `bareConnection` set.
    static func waitForBareConnections(
        _ files: StoreFiles, timeout: Double, readsProcLocks: Bool = LockHolders.readsProcLocks,
        emit: (UpgradeEvent) -> Void
    ) throws {
        let check = OpenConnectionCheck(files, readsProcLocks: readsProcLocks)
        // Closed once, whichever way the wait ends (SharedMemoryProbe says why only once).
        defer { check.finish() }
        var holders: [Int32] = []
        try Polling.poll(
            timeout: timeout,
            attempt: { () -> Void? in
                holders = check.holders()
                return holders.isEmpty ? () : nil
            },
            waiting: { emit(.waitingForStore(processIDs: holders, bareConnection: true)) },
            timedOut: {
                UpgradeError(
                    .storeInUse(processIDs: holders, seconds: timeout, bareConnection: true),
                    storePath: files.store.path)
            })
    }
}
