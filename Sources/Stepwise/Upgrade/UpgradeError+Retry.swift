import GRDB
import StepwiseMapping

extension UpgradeError {
    /// Whether running the same upgrade again, with nothing changed, fails the same way.
    ///
    /// True when the step's own work is at fault, which no retry changes: a mapping, a policy,
    /// a value or the data (a failed step whose underlying error is a
    /// ``/StepwiseMapping/MappingError``, or a statement SQLite refused for what it writes: a
    /// constraint, a type mismatch, a value too big), or strict mode's refusal of a drop. Fix
    /// that first; the next upgrade then resumes after the steps that completed.
    ///
    /// False for what a later run can get past: a lock or an open store, free space, a
    /// file-system call, a store written underneath, an I/O or busy error of SQLite, a
    /// cancellation. Running the upgrade again resumes where it stopped.
    public var failsTheSameWayAgain: Bool {
        switch kind {
        case .stepFailed(_, _, _, _, let underlying):
            if underlying is MappingError { return true }
            if let error = underlying as? DatabaseError {
                return [.SQLITE_CONSTRAINT, .SQLITE_MISMATCH, .SQLITE_TOOBIG, .SQLITE_RANGE].contains(error.resultCode)
            }
            return false
        case .dropsData, .interruptedSwapMissingFile:
            // A missing file of a swap stays missing until a person puts the store back.
            return true
        case .lockTimeout, .storeInUse, .storeChangedDuringUpgrade, .insufficientSpace, .verificationFailed,
            .fileSystem, .noBackup, .upgradeRunning, .accessLockFailed:
            return false
        case .newerThanKnownVersions, .noMatchingVersion, .inconsistent, .emptyHistory, .unknownVersion, .noPath,
            .laterThanTarget, .unregisteredPolicy, .duplicateStage, .unknownEntities, .needsUpgrade,
            .unreadableAcceptedFindings,
            .malformedAcceptedFindings:
            // Nothing ran: the same store, bundle and options are refused the same way.
            return true
        }
    }
}
