import Foundation
import Logging
import StepwiseStore

/// What an earlier, interrupted run left in the work directory, dealt with before anything
/// else happens to the store. Runs under the upgrade lock.
///
/// | Journal state | What recovery does |
/// |---|---|
/// | none, unreadable, `copying` | deletes the work directory: nothing was committed |
/// | `running`, `failed`, `verified` | keeps it for resuming if the store is unchanged since (its size and modification times), else deletes it |
/// | `swappingOut`, `swappingIn`, `restoring` | finishes the swap (``GenerationSwap``) |
/// | `swapped` | finishes the cleanup (backup kept or deleted, work directory deleted) |
///
/// Before a swap state moves forward, ``InterruptedSwapCheck`` checks that the files the
/// journal names are where it says; if one is missing, and the store's path doesn't hold the
/// verified new store, recovery throws and changes nothing.
///
/// The original store is untouched in the first two rows; past the commit point the swap
/// only ever moves forward, unless the incoming store no longer matches its checksum, in
/// which case the old generation is moved back.
struct UpgradeRecovery {
    enum Outcome {
        /// No earlier run, or one whose work was discarded.
        case nothing
        /// An interrupted swap (or rollback) was completed.
        case finishedSwap(UpgradeJournal)
        /// Checkpoints that a run with the same plan may resume from.
        case resumable(UpgradeJournal)
    }

    var files: StoreFiles
    var fileSystem: FileSystem
    var logger: Logger

    var workDirectory: URL { files.workDirectory }
    var swap: GenerationSwap { GenerationSwap(files: files, workDirectory: workDirectory, fileSystem: fileSystem) }
    var externalData: ExternalDataCleanup { ExternalDataCleanup(files: files, fileSystem: fileSystem, logger: logger) }

    func recover() throws -> Outcome {
        guard fileSystem.exists(workDirectory) else { return .nothing }
        guard let journal = UpgradeJournal.load(from: workDirectory) else {
            logger.notice("discarding an interrupted upgrade's work directory without journal")
            try fileSystem.remove(workDirectory, site: "recovery.remove-unjournaled")
            return .nothing
        }
        switch journal.state {
        case .copying:
            try fileSystem.remove(workDirectory, site: "recovery.remove-copying")
            return .nothing
        case .running, .failed, .verified:
            guard journal.purpose == .upgrade, journal.original == UpgradeJournal.Fingerprint(of: files) else {
                logger.notice("the store changed since the interrupted upgrade; its checkpoints are discarded")
                try fileSystem.remove(workDirectory, site: "recovery.remove-stale")
                return .nothing
            }
            return .resumable(journal)
        case .swappingOut, .swappingIn, .swapped, .restoring:
            logger.notice("finishing an interrupted swap", metadata: ["state": "\(journal.state.rawValue)"])
            return try finishSwap(journal)
        }
    }

    /// Moves the swap forward from the journal's state to the end. Also the normal path of
    /// a run, which calls it right after saving `swappingOut`.
    /// - parameter swapped: Called once the new store is in place, before the cleanup.
    func finishSwap(_ journal: UpgradeJournal, swapped: () -> Void = {}) throws -> Outcome {
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
                return .nothing
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
        return .finishedSwap(journal)
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

/// `backup.json` in a backup directory: which version the kept store is at.
struct BackupInfo: Codable, Sendable {
    static let fileName = "backup.json"
    var version: String?
    var createdAt: Date

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(self)) ?? Data()
    }

    static func load(from directory: URL) -> BackupInfo? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let data = try? Data(contentsOf: directory.appendingPathComponent(fileName)) else { return nil }
        return try? decoder.decode(BackupInfo.self, from: data)
    }
}
