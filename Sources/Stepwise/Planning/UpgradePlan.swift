import StepwiseMapping

/// The steps that carry a store from one model version to another, as planned by
/// ``UpgradePlanner``.
public struct UpgradePlan: Sendable {
    /// One step of a plan.
    public struct Step: Sendable {
        /// The version the step reads.
        public var from: String
        /// The version the step writes.
        public var to: String
        public var kind: StepKind
        /// The mapping models of an explicit step, in run order; the inferred mapping otherwise.
        public var mappingModels: [MappingModel]
        /// The versions a merged step passes through without writing them, oldest first:
        /// `["Recipes 3"]` for a step `Recipes 2 → Recipes 4` whose inferred mappings were
        /// composed into one pass (``/StepwiseMapping/MappingComposition``). Empty for a step between two
        /// versions the planner didn't merge.
        public var via: [String]

        /// A step of a plan.
        ///
        /// - parameters:
        ///   - from: The version the step reads.
        ///   - to: The version the step writes.
        ///   - kind: Whether the mapping was inferred or written.
        ///   - mappingModels: The mapping models to run, in order.
        ///   - via: The versions a merged step skips; empty (the default) for one step.
        public init(
            from: String, to: String, kind: StepKind, mappingModels: [MappingModel], via: [String] = []
        ) {
            self.from = from
            self.to = to
            self.kind = kind
            self.mappingModels = mappingModels
            self.via = via
        }

        /// Every version the step goes through, `from` first and `to` last.
        public var versions: [String] {
            [from] + via + [to]
        }

        /// Whether the step does the work of several consecutive inferred steps in one pass.
        public var isMerged: Bool {
            !via.isEmpty
        }
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
