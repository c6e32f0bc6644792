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
    /// Whether the step altered a copy of the source in place (`ALTER TABLE`) instead of
    /// building a new file row by row or set by set.
    public var inPlace: Bool
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
        rows: Int, objects: Int, seconds: Double, inPlace: Bool, drops: [DroppedData] = [], resumed: Bool = false
    ) {
        (self.from, self.to, self.kind) = (from, to, kind)
        (self.mappingModels, self.entityMappings) = (mappingModels, entityMappings)
        (self.rows, self.objects, self.seconds, self.inPlace) = (rows, objects, seconds, inPlace)
        (self.drops, self.resumed) = (drops, resumed)
    }

    private enum CodingKeys: String, CodingKey {
        case from, to, kind, mappingModels, entityMappings, rows, objects, seconds, inPlace, drops, resumed
        case earlierRunSeconds, keptTables
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

    /// The drops a mapping didn't declare that lost data (a count above zero).
    public var undeclaredDrops: [DroppedData] {
        drops.filter(\.losesUndeclaredData)
    }
}
