import StepwiseMapping

/// The steps that carry a store from one model version to another, as planned by
/// `UpgradePlanner`.
public struct UpgradePlan: Sendable {
    /// The store's version.
    public var from: String
    /// The target version.
    public var to: String
    /// The steps, in order; empty when the store is already at the target.
    public var steps: [PlannedStep]

    /// The number of explicit (heavyweight) steps, which the planner minimizes first.
    public var explicitStepCount: Int {
        steps.filter { $0.kind == .explicit }.count
    }
}
