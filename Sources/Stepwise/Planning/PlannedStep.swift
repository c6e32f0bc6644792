import StepwiseMapping

/// One step of a plan, as reports, events and `stepwise plan` show it: its versions, its
/// kind and the mapping models it will run. ``UpgradePlan/Step`` is the runnable form,
/// carrying the mapping models themselves.
public struct PlannedStep: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The version the step reads.
    public var from: String
    /// The version the step writes.
    public var to: String
    public var kind: StepKind
    /// The versions a merged step passes through in one pass, oldest first; empty otherwise.
    public var via: [String]
    /// The names of the mapping models the step runs, in order.
    public var mappingModels: [String]
    /// Where each mapping model read from a file came from: its path, format and how it was
    /// bound to the step's versions.
    public var mappingFiles: [MappingOrigin]

    public init(
        from: String, to: String, kind: StepKind, via: [String] = [], mappingModels: [String] = [],
        mappingFiles: [MappingOrigin] = []
    ) {
        self.from = from
        self.to = to
        self.kind = kind
        self.via = via
        self.mappingModels = mappingModels
        self.mappingFiles = mappingFiles
    }

    /// "Recipes 2 → Recipes 3 (explicit)".
    public var description: String {
        let through = via.isEmpty ? "" : " via \(via.joined(separator: ", "))"
        return "\(from) → \(to)\(through) (\(kind))"
    }
}

extension UpgradePlan.Step {
    /// The step as reports and events show it.
    public var planned: PlannedStep {
        PlannedStep(
            from: from, to: to, kind: kind, via: via, mappingModels: mappingModels.map(\.name),
            mappingFiles: mappingModels.compactMap(\.origin))
    }
}
