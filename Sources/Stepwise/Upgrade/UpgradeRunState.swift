import StepwiseMapping
import StepwiseModel

/// What one phase of an ``UpgradeRun`` hands the next: made by `start()` or `resume(_:)`, taken
/// by `runSteps(_:)`, which returns it with its steps journaled, and then by
/// `verifyAndSwap(_:)`. The run itself keeps no phase state.
struct UpgradeRunState {
    /// The run's plan, made once: by ``UpgradePreparation`` for a fresh run, or again from the
    /// journal's versions for a resumed one (and then matched to its fingerprints).
    let plan: UpgradePlan
    /// The run's journal as last saved.
    var journal: UpgradeJournal
    /// Steps whose checkpoints came from an earlier run (1-based indexes): their reports say so.
    let resumedSteps: Set<Int>
    /// The damaged-store check of the original, running beside preparation and step 1 when the
    /// run reads the original itself (``IntegrityCheck``); nil when it checked a copy up front.
    let originalCheck: IntegrityCheck?
    /// Why the run copies the store rather than change it in one transaction
    /// (``UpgradeReport/copyReason``).
    let copyReason: String

    /// The version the run ends at: the last step's destination model.
    var targetModel: ObjectModel? { plan.steps.last?.destination }
}
