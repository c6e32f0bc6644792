import Foundation

/// ``Upgrader/rollback(storeAt:options:)``: puts the backup kept by the last upgrade back in place.
///
/// Under the upgrade lock, after recovering any interrupted run:
/// 1. create the work directory and save a journal in state `restoring` (the commit point);
/// 2. rename the backup directory to `<work>/incoming/` (one atomic rename);
/// 3. swap it in exactly as an upgrade's output is (``JournaledSwap``, ``GenerationSwap``): the upgraded
///    generation goes out, the backup's main file, `-wal` and `-shm` come in;
/// 4. delete the work directory, and with it the upgraded generation.
///
/// No attributes are copied here, unlike the upgrade's swap (``FileAttributes``): the backup's
/// files *are* the original's (its main file kept by a hard link, or a rename where there are
/// none; its companions renamed), the same inodes with the mode, extended attributes and
/// protection class they had, and renames keep them. Copying the upgraded store's onto them
/// would only spread a mode an older version of Stepwise got wrong.
struct StoreRollback {
    var files: StoreFiles
    var options: UpgradeOptions

    func run() throws -> String? {
        let fileSystem = options.fileSystem
        // A rollback swaps generations like an upgrade: nobody may hold the store meanwhile.
        let takeover = try StoreTakeover(files, options: options)
        defer { withExtendedLifetime(takeover) {} }
        if case .finishedSwap(let journal) = takeover.recovered, journal.purpose == .rollback {
            // An interrupted rollback was just finished: that was this call's job.
            return journal.to
        }
        let backupMain = files.backupDirectory.appendingPathComponent(files.name)
        guard fileSystem.exists(backupMain) else {
            throw UpgradeError(.noBackup(backupDirectory: files.backupDirectory), storePath: files.store.path)
        }
        let version = BackupInfo.load(from: files.backupDirectory)?.version
        // A WAL connection outside StoreAccess would keep using the upgraded generation: wait
        // for it before anything is written.
        try StoreAccessGate.waitForBareConnections(
            files, timeout: options.lockTimeoutSeconds, emit: { options.progress?($0) })
        // Whatever an interrupted upgrade left (checkpoints) is about a store being replaced.
        try fileSystem.remove(files.workDirectory, site: "rollback.remove-work-directory")
        try fileSystem.createDirectory(files.workDirectory, site: "rollback.mkdir")
        var journal = UpgradeJournal(state: .restoring, original: UpgradeJournal.Fingerprint(of: files))
        journal.purpose = .rollback
        journal.to = version
        try journal.save(in: files.workDirectory, fileSystem: fileSystem)
        options.logger.notice("rolling back to the backup", metadata: ["store": "\(files.store.path)"])
        _ = try JournaledSwap(files: files, fileSystem: fileSystem, logger: options.logger).finish(journal)
        return version
    }
}
