import StepwiseMapping

/// The steps that carry a store from one model version to another, as planned by
/// ``UpgradePlanner``.
public struct UpgradePlan: Sendable {
    /// One step of a plan.
    public struct Step: Sendable {
        /// How a step's mapping is obtained.
        public enum Kind: String, Sendable, Hashable, Codable {
            /// Inferred from the two versions (Core Data's lightweight migration).
            case inferred
            /// Written: mapping models from files or code (Core Data's heavyweight migration).
            case explicit
        }

        public var from: String
        public var to: String
        public var kind: Kind
        /// The mapping models of an explicit step, in run order; the inferred mapping otherwise.
        public var mappingModels: [MappingModel]
    }

    /// The store's version.
    public var from: String
    /// The target version.
    public var to: String
    /// The steps, in order; empty when the store is already at the target.
    public var steps: [Step]

    /// The number of explicit (heavyweight) steps, which the planner minimizes first.
    public var explicitStepCount: Int {
        steps.filter { $0.kind == .explicit }.count
    }
}
