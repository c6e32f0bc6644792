/// One column of a ``TableLayout``, with what it stores.
package struct ColumnLayout: Sendable, Hashable {
    /// The column's name, e.g. `ZPENDINGSTATE1`.
    package var name: String
    /// The declared type, e.g. `INTEGER` or `VARCHAR(255)`.
    package var type: String
    /// What the column stores.
    package var role: ColumnRole

    /// Creates a column layout.
    package init(name: String, type: String, role: ColumnRole) {
        self.name = name
        self.type = type
        self.role = role
    }
}

/// What a column of a Core Data store holds, tying it back to the model.
package enum ColumnRole: Sendable, Hashable {
    /// `Z_PK`, the row's primary key, unique per root entity.
    case primaryKey
    /// `Z_ENT`, the row's entity number.
    case entityNumber
    /// `Z_OPT`, Core Data's optimistic-locking version counter.
    case optimisticLock
    /// The value of `entity.property` (the entity that declares the attribute).
    case attribute(entity: String, property: String)
    /// The destination's `Z_PK` for the to-one `entity.relationship`.
    case foreignKey(entity: String, relationship: String)
    /// The destination's `Z_ENT` for the to-one `entity.relationship`, present only when
    /// the destination has subentities (a `Z<n>_<NAME>` column).
    case foreignKeyEntity(entity: String, relationship: String)
    /// In a row of the destination, the `Z_PK` of the object whose to-many without inverse
    /// `entity.relationship` holds it: the hidden foreign key `Z<n><NAME>` (``HiddenForeignKey``).
    /// Nothing else writes it: there is no inverse to-one.
    case hiddenForeignKey(entity: String, relationship: String)
    /// Beside a ``hiddenForeignKey(entity:relationship:)``, the `Z_ENT` of the object holding
    /// the row, present only when `entity` has subentities (`Z<n>_<n><NAME>`).
    case hiddenForeignKeyEntity(entity: String, relationship: String)
    /// The position of the row in the ordered to-many `entity.relationship` (`Z_FOK_…`).
    case order(entity: String, relationship: String)
    /// In a join table, the `Z_PK` of the object that holds `entity.relationship`.
    case joinSource(entity: String, relationship: String)
    /// In a join table, the `Z_PK` of an object in `entity.relationship`.
    case joinDestination(entity: String, relationship: String)
    /// A column of `Z_PRIMARYKEY` or `Z_METADATA`.
    case bookkeeping
}
