/// One index Core Data creates in a store.
///
/// Names follow Core Data (corpus README §5): `<TABLE>_Z_ENT_INDEX`, `<TABLE>_<COLUMN>_INDEX`
/// for to-one foreign keys and indexed attributes, `<TABLE>_<C1>_<C2>…` for compound indexes
/// and `Z_<Entity>_<index>` for fetch indexes; from Core Data 1044, `Z_<Entity>_UNIQUE_<p1>_<p2>`
/// for uniqueness constraints (``CoreDataRelease``).
package struct IndexLayout: Sendable, Hashable {
    /// Why the index exists.
    package enum Kind: Sendable, Hashable {
        /// On `Z_ENT`, in tables holding more than one entity.
        case entityNumber
        /// On the foreign key of the to-one `entity.relationship`, or on the hidden foreign key
        /// of the to-many without inverse `entity.relationship`, in its destination's table.
        case foreignKey(entity: String, relationship: String)
        /// On an attribute marked indexed.
        case attribute(entity: String, property: String)
        /// A compound index of `entity`.
        case compound(entity: String, properties: [String])
        /// A named fetch index of `entity`.
        case fetchIndex(entity: String, name: String)
        /// A uniqueness constraint of `entity`, as Core Data 1044 and later write it.
        case uniquenessConstraint(entity: String, properties: [String])
        /// On a join table's two columns, the one named after `entity.relationship` first, as
        /// Core Data 640 and later write it.
        case joinTable(entity: String, relationship: String)
    }

    /// One indexed column.
    package struct Element: Sendable, Hashable {
        /// The column's name.
        package var column: String
        /// False for a descending fetch-index element (`DESC`).
        package var isAscending: Bool

        /// Creates an element, ascending by default.
        package init(column: String, isAscending: Bool = true) {
            self.column = column
            self.isAscending = isAscending
        }
    }

    /// The index's name.
    package var name: String
    /// The indexed table.
    package var table: String
    /// The indexed columns, in order.
    package var elements: [Element]
    /// Why the index exists.
    package var kind: Kind

    /// The indexed column names, in order.
    package var columns: [String] { elements.map(\.column) }

    /// Whether each element is spelled `<C> COLLATE BINARY ASC`, as Core Data spells the indexes
    /// it names after entities (``CoreDataRelease``).
    package var spellsCollation = false

    /// Whether the index is `UNIQUE`: a uniqueness constraint's.
    package var isUnique: Bool {
        if case .uniquenessConstraint = kind { return true }
        return false
    }

    /// The `CREATE INDEX` statement, every identifier quoted.
    package var createStatement: String {
        let list = elements.map { element in
            SQLIdentifier.quote(element.column) + (spellsCollation ? " COLLATE BINARY" : "")
                + (element.isAscending ? (spellsCollation ? " ASC" : "") : " DESC")
        }
        return
            "CREATE \(isUnique ? "UNIQUE " : "")INDEX \(SQLIdentifier.quote(name)) ON \(SQLIdentifier.quote(table)) (\(list.joined(separator: ", ")))"
    }
}
