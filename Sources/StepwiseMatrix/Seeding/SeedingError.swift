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
        /// A seeding constraint (``SeedingConstraints``) names an entity the version doesn't have.
        case unknownEntity(entity: String, version: String, constraint: String)
        /// A seeding constraint names a property the entity doesn't have, or one of the wrong
        /// kind (`every` takes a relationship; `unique` and `values` an attribute).
        case unknownProperty(entity: String, property: String, version: String, constraint: String, reason: String)
        /// A listed value (``SeedingConstraints/values``) that doesn't read as its attribute's
        /// type, an empty list, or a list for a unique attribute.
        case invalidValue(entity: String, property: String, value: String, reason: String)
        /// A seeding constraints file that can't be read or isn't the expected JSON.
        case unreadableConstraints(reason: String)
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
                "\(store)can't seed \(entity).\(property): \(reason). Give the entities involved more (or fewer) rows, or drop a seeding constraint."
        case .unknownEntity(let entity, let version, let constraint):
            return
                "\(store)the seeding constraint '\(constraint)' names the entity '\(entity)', which '\(version)' doesn't have. Check its spelling (entity names are case-sensitive)."
        case .unknownProperty(let entity, let property, let version, let constraint, let reason):
            return
                "\(store)the seeding constraint '\(constraint)' names '\(entity).\(property)' in '\(version)': \(reason)."
        case .invalidValue(let entity, let property, let value, let reason):
            return
                "\(store)can't seed \(entity).\(property) from the listed value '\(value)': \(reason). Fix the value list."
        case .unreadableConstraints(let reason):
            return
                "\(store)not a seeding constraints file: \(reason). Expected {\"defaultRows\": n, \"rows\": {\"Entity\": n}, \"every\": [\"Entity.relationship\"], \"unique\": [\"Entity.attribute\"], \"values\": {\"Entity.attribute\": [\"…\"]}}, every key optional."
        }
    }
}
