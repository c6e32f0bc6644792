import StepwiseMapping
import StepwiseModel

/// One step of a plan: the versions it reads and writes, whether its mapping was inferred or
/// written, and the mapping models it runs. It is what runs, what events and `stepwise plan`
/// show, and what the journal fingerprints; once it has run, a ``/StepwiseMapping/StepReport``
/// says what it did.
public struct PlannedStep: Sendable, Hashable, CustomStringConvertible {
    /// The version the step reads.
    public var source: ObjectModel
    /// The version the step writes.
    public var destination: ObjectModel
    public var kind: StepKind
    /// The mapping models of an explicit step, in run order; the inferred mapping otherwise.
    public var mappingModels: [MappingModel]
    /// The versions a merged step passes through without writing them, oldest first:
    /// `["Recipes 3"]` for a step `Recipes 2 → Recipes 4` whose inferred mappings were
    /// composed into one pass (`MappingComposition`). Empty for a step between
    /// two versions the planner didn't merge.
    public var via: [String]

    /// A step of a plan.
    ///
    /// - parameters:
    ///   - source: The version the step reads.
    ///   - destination: The version the step writes.
    ///   - kind: Whether the mapping was inferred or written.
    ///   - mappingModels: The mapping models to run, in order.
    ///   - via: The versions a merged step skips; empty (the default) for one step.
    public init(
        from source: ObjectModel, to destination: ObjectModel, kind: StepKind, mappingModels: [MappingModel],
        via: [String] = []
    ) {
        self.source = source
        self.destination = destination
        self.kind = kind
        self.mappingModels = mappingModels
        self.via = via
    }

    /// The name of the version the step reads.
    public var from: String { source.name }
    /// The name of the version the step writes.
    public var to: String { destination.name }

    /// Every version the step goes through, `from` first and `to` last.
    public var versions: [String] {
        [from] + via + [to]
    }

    /// Whether the step does the work of several consecutive inferred steps in one pass.
    public var isMerged: Bool {
        !via.isEmpty
    }

    /// Where each mapping model read from a file came from: its path, format and how it was
    /// bound to the step's versions.
    public var mappingFiles: [MappingOrigin] {
        mappingModels.compactMap(\.origin)
    }

    /// "Recipes 2 → Recipes 3 (explicit)".
    public var description: String {
        let through = via.isEmpty ? "" : " via \(via.joined(separator: ", "))"
        return "\(from) → \(to)\(through) (\(kind))"
    }
}

extension PlannedStep: Encodable {
    private enum CodingKeys: String, CodingKey {
        case from, to, kind, via, mappingModels, mappingFiles
    }

    /// The step as `stepwise plan --json` shows it: the versions' and mapping models' names,
    /// and where each mapping model came from.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(kind, forKey: .kind)
        try container.encode(via, forKey: .via)
        try container.encode(mappingModels.map(\.name), forKey: .mappingModels)
        try container.encode(mappingFiles, forKey: .mappingFiles)
    }
}
