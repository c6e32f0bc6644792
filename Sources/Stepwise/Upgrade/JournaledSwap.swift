import Foundation
import Logging
import StepwiseStore

/// The swap past its commit point, driven by the journal: from whatever swap state the journal
/// holds (`restoring`, `swappingOut`, `swappingIn`, `swapped`) to the end, each state saved
/// before the next move (``GenerationSwap`` has the moves and why they go in that order).
///
/// One home for the three callers, which only differ in how they got here:
/// - an upgrade (``UpgradeRun``), right after it saves `swappingOut`, its commit point;
/// - a rollback (``StoreRollback``), right after it saves `restoring`;
/// - recovery (``UpgradeRecovery``), finding one of those states left by a crash.
///
/// Every phase is idempotent, so replaying from a saved state after a crash finishes the job.
struct JournaledSwap {
    enum Outcome {
        /// The new generation is in place and the work directory is gone; the journal as `swapped`.
        case finished(UpgradeJournal)
        /// The incoming store no longer matched its checksum, so the old generation was moved
        /// back and the work directory deleted: the store is as it was before the upgrade.
        case movedBack
    }

    var files: StoreFiles
    var fileSystem: FileSystem
    var logger: Logger

    var workDirectory: URL { files.workDirectory }
    var swap: GenerationSwap { GenerationSwap(files: files, workDirectory: workDirectory, fileSystem: fileSystem) }
    var externalData: ExternalDataCleanup { ExternalDataCleanup(files: files, fileSystem: fileSystem, logger: logger) }

    /// Moves the swap forward from the journal's state to the end, and cleans up.
    ///
    /// - parameter swapped: Called once the new store is in place, before the cleanup.
    /// - returns: ``Outcome/finished(_:)`` with the journal as `swapped`, or
    ///   ``Outcome/movedBack`` when the incoming store failed its checksum.
    func finish(_ journal: UpgradeJournal, swapped: () -> Void = {}) throws -> Outcome {
        var journal = journal
        if journal.state == .restoring {
            // The rollback moves the whole backup directory into place as `incoming/`.
            if !fileSystem.exists(swap.incoming) && fileSystem.exists(files.backupDirectory) {
                try fileSystem.rename(files.backupDirectory, to: swap.incoming, site: "rollback.take-backup")
                // Ordering: both directories of the rename: until the work directory's side is durable
                // a power loss could keep the backup's removal from the store directory alone.
                try fileSystem.sync(files.directory, .ordering, site: "rollback.sync-store-directory")
                try fileSystem.sync(workDirectory, .ordering, site: "rollback.sync-work-directory")
            }
            // The backup's external files go back before its store does (ExternalDataCleanup).
            try externalData.restore(from: ExternalDataCleanup.keptFolder(in: swap.incoming))
            journal.state = .swappingOut
            try journal.save(in: workDirectory, fileSystem: fileSystem)
        }
        // Past the commit point nothing may delete the only complete copy of the data: stop,
        // touching nothing, when a file the swap needs is gone (InterruptedSwapCheck).
        let verdict = try InterruptedSwapCheck(files: files, swap: swap, fileSystem: fileSystem).check(journal)
        if verdict == .newStoreInPlace, journal.state == .swappingOut {
            // The new store is at the store's path: moving "out" would take it for the old one.
            journal.state = .swappingIn
        }
        if journal.state == .swappingOut || journal.state == .swappingIn {
            if swap.incomingMainFileIsWaiting, let final = journal.final,
                !FileChecksum.verify(final, in: workDirectory)
            {
                // The verified store was damaged after its checksum was taken: the only safe
                // way is back. Nothing new has moved in (the main file moves in first).
                logger.error("the upgraded store no longer matches its checksum; restoring the original")
                try swap.moveOutgoingBack()
                try fileSystem.remove(workDirectory, site: "recovery.remove-damaged")
                return .movedBack
            }
        }
        if journal.state == .swappingOut {
            try swap.moveOut()
            journal.state = .swappingIn
            try journal.save(in: workDirectory, fileSystem: fileSystem)
        }
        if journal.state == .swappingIn {
            try swap.moveIn()
            journal.state = .swapped
            try journal.save(in: workDirectory, fileSystem: fileSystem)
            swapped()
        }
        try finishCleanup(journal)
        return .finished(journal)
    }

    /// After the swap: the old generation becomes the backup, or is deleted with the work
    /// directory. Idempotent.
    private func finishCleanup(_ journal: UpgradeJournal) throws {
        if journal.purpose == .upgrade, let columns = journal.externalDataColumns {
            // After the swap only, and the backup's links before any removal (ExternalDataCleanup).
            if journal.keepBackup, fileSystem.exists(swap.outgoingFile(nil)) {
                try externalData.keep(in: ExternalDataCleanup.keptFolder(in: swap.outgoing))
            }
            try externalData.removeUnreferenced(columns: columns)
        }
        if journal.purpose == .upgrade, journal.keepBackup, fileSystem.exists(swap.outgoingFile(nil)) {
            let info = BackupInfo(version: journal.from, createdAt: Date())
            try fileSystem.writeNewFile(
                info.encoded(), to: swap.outgoing.appendingPathComponent(BackupInfo.fileName),
                site: "backup.write-info", sync: .ordering)
            // Replace an older backup: delete it, then rename. A crash between the two leaves
            // no backup directory and `outgoing/` still here, and the replay does the rename.
            try fileSystem.remove(files.backupDirectory, site: "backup.remove-previous")
            try fileSystem.rename(swap.outgoing, to: files.backupDirectory, site: "backup.rename")
            // Ordering: both directories of the rename, before the work directory is removed: with only
            // the store directory synced, a power loss could undo the rename yet keep the
            // work directory's removal, and the backup would be gone from both places.
            try fileSystem.sync(files.directory, .ordering, site: "backup.sync-store-directory")
            try fileSystem.sync(workDirectory, .ordering, site: "backup.sync-work-directory")
        }
        try fileSystem.remove(workDirectory, site: "cleanup.remove-work-directory")
        // Durable, the one such sync of an upgrade: the app gets the store next and writes into
        // it, so everything the swap did must be on the disk first. On Darwin this is a full
        // flush of the drive's cache (F_FULLFSYNC), which makes every write before it durable:
        // the ordering syncs only kept them in order. It also makes the work directory's
        // removal durable.
        try fileSystem.sync(files.directory, .durable, site: "cleanup.sync-store-directory")
    }
}
