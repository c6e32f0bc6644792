import StepwiseModel
import StepwiseStore

extension UpgradeRun {
    /// The target's external-storage columns, for the cleanup after the swap
    /// (``ExternalDataCleanup``); nil when neither the store's version nor the target has an
    /// external-storage attribute: then the upgrade leaves the folder alone.
    func externalDataColumns(of plan: UpgradePlan) throws -> [ExternalDataColumn]? {
        guard let first = plan.steps.first, let last = plan.steps.last else { return nil }
        let target = try StoreLayout(model: last.destination)
        let sourceColumns = try StoreLayout(model: first.source).externalDataColumns
        let columns = target.externalDataColumns
        return columns.isEmpty && sourceColumns.isEmpty ? nil : columns
    }
}
