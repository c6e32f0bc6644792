/// What one migration step did.
public struct StepReport: Sendable, Hashable, Codable {
    /// How one entity mapping ran.
    public struct EntityMappingReport: Sendable, Hashable, Codable {
        public var name: String
        /// Destination instances created in pass 1.
        public var instances: Int
        /// Relationship links written in pass 2.
        public var links: Int
        /// Whether pass 1 ran as set-based SQL (`true`) or row by row through a policy (`false`).
        public var setBased: Bool
    }

    /// The source version's name.
    public var from: String
    /// The destination version's name.
    public var to: String
    public var kind: StepKind
    /// The mapping models run, in order.
    public var mappingModels: [String]
    public var entityMappings: [EntityMappingReport]
    /// Destination instances the entity mappings created (their associations), all mappings
    /// together. Objects a policy inserts on its own (a shared Cuisine, say) aren't counted
    /// here; ``objects`` counts everything.
    public var rows: Int
    /// Objects in the destination store after the step, every entity together.
    public var objects: Int
    /// Wall-clock duration of the step in this run: 0 for a step ``resumed`` from a checkpoint,
    /// which didn't run again (its time in the run that made the checkpoint is
    /// ``earlierRunSeconds``).
    public var seconds: Double
    /// How the step wrote its output: altered a copy of the source in place, rebuilt only
    /// the tables its mappings change, or built a new file.
    public var strategy: StepStrategy
    /// Whether the step altered a copy of the source in place (`ALTER TABLE`) instead of
    /// building a new file row by row or set by set: ``strategy`` is ``StepStrategy/inPlace``.
    ///
    /// **Deprecated:** read ``strategy``, which also tells a partial rebuild from a whole one.
    /// Still written in the JSON (reports, the journal, the CLI's `--json`) for one release,
    /// for the scripts that read it; it will then be removed.
    public var inPlace: Bool { strategy == .inPlace }
    /// What the step dropped, counted in its source before it ran: rows of entities no
    /// mapping carried, and, for an inferred step, values of removed properties. Empty when
    /// it dropped nothing.
    public var drops: [DroppedData] = []
    /// The tables a step that rebuilt only what its mappings change kept as they were, rows,
    /// keys and pages untouched (`MigrationStep`'s partial rebuild): the tables of entities
    /// whose mapping is a plain copy. Empty for a step that built a new file or altered the
    /// source in place.
    public var keptTables: [String] = []
    /// Whether the step's output came from an earlier, interrupted run's checkpoint rather
    /// than from this run (set in `Upgrader`'s reports; a step run alone is never resumed).
    public var resumed = false
    /// For a ``resumed`` step, how long it took in the earlier, interrupted run that made its
    /// checkpoint; nil otherwise.
    public var earlierRunSeconds: Double?

    /// A step's report; `MigrationStep/run(source:destination:access:)` makes them.
    public init(
        from: String, to: String, kind: StepKind, mappingModels: [String], entityMappings: [EntityMappingReport],
        rows: Int, objects: Int, seconds: Double, strategy: StepStrategy, drops: [DroppedData] = [],
        resumed: Bool = false
    ) {
        (self.from, self.to, self.kind) = (from, to, kind)
        (self.mappingModels, self.entityMappings) = (mappingModels, entityMappings)
        (self.rows, self.objects, self.seconds, self.strategy) = (rows, objects, seconds, strategy)
        (self.drops, self.resumed) = (drops, resumed)
    }

    /// A step's report, its strategy told by `inPlace` alone: ``StepStrategy/inPlace`` when
    /// true, else ``StepStrategy/rebuild``.
    ///
    /// **Deprecated:** pass `strategy:`
    /// (``init(from:to:kind:mappingModels:entityMappings:rows:objects:seconds:strategy:drops:resumed:)``).
    /// Removed with ``inPlace``.
    public init(
        from: String, to: String, kind: StepKind, mappingModels: [String], entityMappings: [EntityMappingReport],
        rows: Int, objects: Int, seconds: Double, inPlace: Bool, drops: [DroppedData] = [], resumed: Bool = false
    ) {
        self.init(
            from: from, to: to, kind: kind, mappingModels: mappingModels, entityMappings: entityMappings, rows: rows,
            objects: objects, seconds: seconds, strategy: inPlace ? .inPlace : .rebuild, drops: drops,
            resumed: resumed)
    }

    /// The report of this step taken from an earlier run's checkpoint: ``resumed``, with its
    /// time moved to ``earlierRunSeconds``, as it didn't run now.
    public func resumedFromCheckpoint() -> StepReport {
        guard !resumed else { return self }
        var copy = self
        copy.resumed = true
        copy.earlierRunSeconds = seconds
        copy.seconds = 0
        return copy
    }

    /// The strategy, for people: "in place", "partial rebuild: kept 3 tables" or "rebuilt", as
    /// the upgrade's events and the CLI's reports name it.
    package var strategySummary: String {
        switch strategy {
        case .inPlace: "in place"
        case .partialRebuild: "partial rebuild: kept \(keptTables.count) table\(keptTables.count == 1 ? "" : "s")"
        case .rebuild: "rebuilt"
        }
    }

    /// The drops a mapping didn't declare that lost data (a count above zero).
    public var undeclaredDrops: [DroppedData] {
        drops.filter(\.losesUndeclaredData)
    }
}

// The JSON form, written by hand for one reason: ``StepReport/inPlace``, now derived from
// ``StepReport/strategy``, is still written for one release, and a report or journal written
// before `strategy` existed (`inPlace` alone) must still be read: an upgrade interrupted by
// the previous release resumes from its journal, whose completed steps are `StepReport`s.
extension StepReport {
    private enum CodingKeys: String, CodingKey {
        case from, to, kind, mappingModels, entityMappings, rows, objects, seconds, strategy, inPlace, drops, resumed
        case earlierRunSeconds, keptTables
    }

    /// Reads a report; without `strategy` (written before it existed), the strategy is told
    /// from `inPlace` and ``keptTables``: ``StepStrategy/inPlace`` when `inPlace` is true, else
    /// ``StepStrategy/partialRebuild`` when tables were kept, else ``StepStrategy/rebuild``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        from = try container.decode(String.self, forKey: .from)
        to = try container.decode(String.self, forKey: .to)
        kind = try container.decode(StepKind.self, forKey: .kind)
        mappingModels = try container.decode([String].self, forKey: .mappingModels)
        entityMappings = try container.decode([EntityMappingReport].self, forKey: .entityMappings)
        rows = try container.decode(Int.self, forKey: .rows)
        objects = try container.decode(Int.self, forKey: .objects)
        seconds = try container.decode(Double.self, forKey: .seconds)
        drops = try container.decode([DroppedData].self, forKey: .drops)
        keptTables = try container.decode([String].self, forKey: .keptTables)
        resumed = try container.decode(Bool.self, forKey: .resumed)
        earlierRunSeconds = try container.decodeIfPresent(Double.self, forKey: .earlierRunSeconds)
        if let strategy = try container.decodeIfPresent(StepStrategy.self, forKey: .strategy) {
            self.strategy = strategy
        } else if try container.decode(Bool.self, forKey: .inPlace) {
            strategy = .inPlace
        } else {
            strategy = keptTables.isEmpty ? .rebuild : .partialRebuild
        }
    }

    /// Writes the report, ``strategy`` and, for one release, the derived ``inPlace``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(from, forKey: .from)
        try container.encode(to, forKey: .to)
        try container.encode(kind, forKey: .kind)
        try container.encode(mappingModels, forKey: .mappingModels)
        try container.encode(entityMappings, forKey: .entityMappings)
        try container.encode(rows, forKey: .rows)
        try container.encode(objects, forKey: .objects)
        try container.encode(seconds, forKey: .seconds)
        try container.encode(strategy, forKey: .strategy)
        try container.encode(inPlace, forKey: .inPlace)
        try container.encode(drops, forKey: .drops)
        try container.encode(keptTables, forKey: .keptTables)
        try container.encode(resumed, forKey: .resumed)
        try container.encodeIfPresent(earlierRunSeconds, forKey: .earlierRunSeconds)
    }
}
