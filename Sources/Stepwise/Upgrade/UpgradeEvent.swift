import StepwiseMapping

/// Progress of an upgrade, in the order it happens. A progress bar needs only
/// ``stepStarted(index:count:step:)``, ``rows(step:entityMapping:done:total:)`` and
/// ``stepFinished(index:count:report:)``.
public enum UpgradeEvent: Sendable {
    /// The upgrade waits for other processes to close the store: `processIDs` (empty where
    /// the platform can't name them) hold it through ``StoreAccess``, or, when
    /// `bareConnection` is true, have a SQLite connection open on it outside that protocol.
    /// Sent when the wait starts, then about once a second.
    case waitingForStore(processIDs: [Int32], bareConnection: Bool)
    /// A previous run's journal was found: `completedSteps` steps are kept, not redone.
    case resuming(completedSteps: Int)
    /// The store (and its `-wal`) is being copied into the work directory.
    case copying(bytes: Int64)
    /// The path was planned. Sent again, with `stepStarted` counting from 1 again, when an
    /// attempt in one transaction on the store (``UpgradePath/oneTransaction``) meets a step that
    /// turns out to rewrite rows: it rolls back, leaving the store as it was, and the copy path
    /// runs the plan.
    case planned(from: String, to: String, steps: [PlannedStep])
    /// A step started (1-based `index` of `count`).
    case stepStarted(index: Int, count: Int, step: PlannedStep)
    /// An entity mapping's pass started; `total` source rows when known.
    case entityMapping(step: Int, name: String, pass: Int, total: Int?)
    /// Rows done so far in the running entity mapping of a step.
    case rows(step: Int, entityMapping: String, done: Int, total: Int?)
    /// A step finished.
    case stepFinished(index: Int, count: Int, report: StepReport)
    /// The upgraded store is being checked.
    case verifying(UpgradeOptions.Verification)
    /// The upgraded store is replacing the original.
    case swapping
    /// The upgraded store is in place: swapped in on the copy path, the old one now being kept
    /// as the backup or deleted; committed on ``UpgradePath/oneTransaction`` (which sends no
    /// ``swapping``), its `-wal` now being checkpointed into the main file as the store closes.
    case swapped
    /// Done.
    case finished(UpgradeReport)
}
