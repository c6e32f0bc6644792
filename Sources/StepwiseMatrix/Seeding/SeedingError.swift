/// A seeded store that can't be generated: the model asks for something the row counts
/// can't give, or the store can't be written.
public struct SeedingError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// A row count below zero, or for an entity the model doesn't have or that is abstract.
        case invalidRowCount(entity: String, count: Int)
        /// The model's rules can't all hold with these row counts: a required to-one whose
        /// destination has no rows, a to-many whose minimum count exceeds the rows available, a
        /// unique Boolean on more than two rows…
        case unsatisfiable(entity: String, property: String, reason: String)
    }

    public var kind: Kind
    /// The store being generated, when known.
    public var path: String?

    public init(_ kind: Kind, path: String? = nil) {
        self.kind = kind
        self.path = path
    }

    public var description: String {
        let store = path.map { "\($0): " } ?? ""
        switch kind {
        case .invalidRowCount(let entity, let count):
            return
                "\(store)can't seed \(count) rows of '\(entity)': give 0 or more rows, to concrete entities of the model."
        case .unsatisfiable(let entity, let property, let reason):
            return
                "\(store)can't seed \(entity).\(property): \(reason). Give the entities involved more (or fewer) rows."
        }
    }
}
