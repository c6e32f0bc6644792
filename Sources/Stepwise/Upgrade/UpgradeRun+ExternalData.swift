import StepwiseModel
import StepwiseStore

extension UpgradeRun {
    /// The target's external-storage columns, for the cleanup after the swap
    /// (``ExternalDataCleanup``); nil when neither the store's version nor the target has an
    /// external-storage attribute: then the upgrade leaves the folder alone.
    func externalDataColumns(of plan: UpgradePlan) throws -> [ExternalDataColumn]? {
        let history = VersionHistory(try upgrader.planningHistory().versions + [modelCache].compactMap { $0 })
        guard let targetModel = history.version(named: plan.to) else { return nil }
        let target = try StoreLayout(model: targetModel)
        let sourceColumns = try history.version(named: plan.from).map { try StoreLayout(model: $0).externalDataColumns }
        let columns = target.externalDataColumns
        return columns.isEmpty && (sourceColumns ?? []).isEmpty ? nil : columns
    }
}
