import Foundation
import GRDB
import StepwiseMapping
import StepwiseStore

extension UpgradeRun {
    /// Strict mode, before step 1: refuses the first step of the plan that would lose data no
    /// mapping declared, by the drops ``UpgradePreparation`` counted in the store (or its copy).
    /// Nothing is counted when strict mode is off: each step counts its own drops as it runs,
    /// for the report.
    ///
    /// A drop that can't be traced back to the store (after a policy, say) has no count yet;
    /// it doesn't refuse here, and ``checkDrops(_:index:count:)`` refuses it once its step has
    /// counted it, still before the swap.
    func checkDrops(_ drops: [[DroppedData]], of plan: UpgradePlan) throws {
        guard options.strict else { return }
        for (offset, step) in plan.steps.enumerated() where offset < drops.count {
            let refused = drops[offset].filter { !$0.isDeclared && ($0.count ?? 0) > 0 }
            guard !refused.isEmpty else { continue }
            throw UpgradeError(
                .dropsData(index: offset + 1, count: plan.steps.count, from: step.from, to: step.to, drops: refused),
                storePath: files.store.path)
        }
    }

    /// After a step ran, before it is journaled: logs what it dropped and, in strict mode,
    /// refuses it when it lost data no mapping declared. The step's output is then discarded
    /// like any failed step's, and the store is untouched.
    func checkDrops(_ report: StepReport, index: Int, count: Int) throws {
        for drop in report.drops where drop.losesUndeclaredData {
            logger.warning(
                "step drops data",
                metadata: [
                    "step": "\(index)/\(count)", "from": "\(report.from)", "to": "\(report.to)",
                    "drop": "\(drop)",
                ])
        }
        guard options.strict else { return }
        let refused = report.undeclaredDrops
        guard !refused.isEmpty else { return }
        throw UpgradeError(
            .dropsData(index: index, count: count, from: report.from, to: report.to, drops: refused),
            storePath: files.store.path)
    }
}
