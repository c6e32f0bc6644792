import StepwiseModel

/// Where a stored attribute lives: its table and column.
package struct AttributeLayout: Sendable, Hashable {
    /// The attribute's name.
    package var name: String
    /// The model's attribute type.
    package var type: AttributeType
    /// The entity that declares it (an ancestor, for inherited attributes).
    package var declaringEntity: String
    /// The table holding the column.
    package var table: String
    /// The column, e.g. `ZPENDINGSTATE1`.
    package var column: String
    /// The column's declared SQL type.
    package var columnType: ColumnType
}
