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
    /// Where the plan joins the history, when it starts from the store's own cached model
    /// (``StoreIdentification/MatchKind/modelCache``): the version that model differs least
    /// from, and why the plan goes there first or doesn't. Nil for any other plan.
    public var modelCacheJoin: ModelCacheJoin?

    /// The number of explicit (heavyweight) steps, which the planner minimizes once it has
    /// kept what it can (`UpgradePlanner`'s path cost: drops first).
    public var explicitStepCount: Int {
        steps.filter { $0.kind == .explicit }.count
    }
}
