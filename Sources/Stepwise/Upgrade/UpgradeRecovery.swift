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
/// | `swappingOut`, `swappingIn`, `restoring` | finishes the swap (``JournaledSwap``) |
/// | `swapped` | finishes the cleanup (backup kept or deleted, work directory deleted) |
///
/// Recovery only decides; the swap itself has one home, ``JournaledSwap``, which the run and a
/// rollback call too. Before a swap state moves forward, ``InterruptedSwapCheck`` checks that
/// the files the journal names are where it says; if one is missing, and the store's path
/// doesn't hold the verified new store, the swap throws and changes nothing.
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
            // Past the commit point: the swap only moves forward (JournaledSwap).
            switch try JournaledSwap(files: files, fileSystem: fileSystem, logger: logger).finish(journal) {
            case .finished(let finished): return .finishedSwap(finished)
            case .movedBack: return .nothing
            }
        }
    }
}
