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
    /// `"inferred"` or `"explicit"`.
    public var kind: String
    /// The mapping models run, in order.
    public var mappingModels: [String]
    public var entityMappings: [EntityMappingReport]
    /// Destination instances the entity mappings created (their associations), all mappings
    /// together. Objects a policy inserts on its own (a shared Cuisine, say) aren't counted
    /// here; ``objects`` counts everything.
    public var rows: Int
    /// Objects in the destination store after the step, every entity together.
    public var objects: Int
    /// Wall-clock duration of the step.
    public var seconds: Double
    /// Whether the step altered a copy of the source in place (`ALTER TABLE`) instead of
    /// building a new file row by row or set by set.
    public var inPlace: Bool
    /// What the step dropped, counted in its source before it ran: rows of entities no
    /// mapping carried, and, for an inferred step, values of removed properties. Empty when
    /// it dropped nothing.
    public var drops: [DroppedData] = []

    /// The drops a mapping didn't declare that lost data (a count above zero).
    public var undeclaredDrops: [DroppedData] {
        drops.filter(\.losesUndeclaredData)
    }
}
