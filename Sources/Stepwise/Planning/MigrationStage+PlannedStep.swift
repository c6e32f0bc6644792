import StepwiseMapping

extension Array where Element == MigrationStage {
    /// The stage of `step` (the app's code around it, matched by its versions' names); nil when
    /// it has none. The one lookup the run (`UpgradeRun+Steps`) and the path choice
    /// (``UpgradePathChoice``) share.
    func stage(for step: PlannedStep) -> MigrationStage? {
        first { $0.from == step.from && $0.to == step.to }
    }
}
