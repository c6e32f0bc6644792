/// Where a stored relationship lives.
///
/// Core Data stores a relationship in one of three ways (corpus README §5):
/// - a to-one is a foreign-key column in the source's table (both sides of a one-to-one);
/// - a to-many whose inverse is to-one has no column of its own: the destination's table
///   holds the inverse's foreign key (and, if ordered, a `Z_FOK_<INVERSE>` position column);
/// - a to-many without inverse stores the same way under a hidden foreign key of its own
///   (``ColumnRole/hiddenForeignKey(entity:relationship:)``);
/// - a to-many whose inverse is to-many uses a join table (and so does a to-many without inverse
///   in an existing store that keeps it in one).
package struct RelationshipLayout: Sendable, Hashable {
    /// How the relationship is stored.
    package enum Storage: Sendable, Hashable {
        /// A to-one: `column` in the source's own table holds the destination's `Z_PK`.
        /// `entityColumn` (`Z<n>_<NAME>`) holds the destination's `Z_ENT` when the destination
        /// has subentities; `orderColumn` (`Z_FOK_<NAME>`) holds this row's position when the
        /// inverse is an ordered to-many.
        case foreignKey(column: String, entityColumn: String?, orderColumn: String?)
        /// A to-many with a to-one inverse: `table.column` (the inverse's foreign key) points
        /// back at the source; `orderColumn` in the same table holds positions when ordered.
        /// A to-many without inverse stored this way (``RelationshipLayout/hasHiddenForeignKey``)
        /// owns `column`, a hidden foreign key that only this relationship writes.
        case inverseForeignKey(table: String, column: String, orderColumn: String?)
        /// A join table: `sourceColumn` holds the source's `Z_PK`, `destinationColumn` the
        /// destination's; `orderColumn` holds the destination's position when ordered.
        case joinTable(table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?)
    }

    /// The relationship's name.
    package var name: String
    /// The entity that declares it (an ancestor, for inherited relationships).
    package var declaringEntity: String
    /// The destination entity's name.
    package var destination: String
    /// The inverse relationship's name, if any.
    package var inverse: String?
    package var isToMany: Bool
    package var isOrdered: Bool
    package var storage: Storage
    /// Whether the relationship is a to-many without (stored) inverse kept under a hidden foreign
    /// key in its destination's table (``ColumnRole/hiddenForeignKey(entity:relationship:)``):
    /// writing the key is then this relationship's job alone.
    package var hasHiddenForeignKey = false
    /// Beside the hidden foreign key, the column holding the `Z_ENT` of the object that holds each
    /// member (``ColumnRole/hiddenForeignKeyEntity(entity:relationship:)``), when the declaring
    /// entity has subentities; written with the key.
    package var hiddenEntityColumn: String?

    /// The foreign-key column of a to-one, in the source's table.
    package var foreignKeyColumn: String? {
        if case .foreignKey(let column, _, _) = storage { return column }
        return nil
    }

    /// The join table's name, for relationships stored in one.
    package var joinTableName: String? {
        if case .joinTable(let table, _, _, _) = storage { return table }
        return nil
    }
}
