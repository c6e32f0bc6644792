import StepwiseModel

/// Where a stored attribute lives: its table and column.
public struct AttributeLayout: Sendable, Hashable {
    /// The attribute's name.
    public var name: String
    /// The model's attribute type.
    public var type: AttributeType
    /// The entity that declares it (an ancestor, for inherited attributes).
    public var declaringEntity: String
    /// The table holding the column.
    public var table: String
    /// The column, e.g. `ZPENDINGSTATE1`.
    public var column: String
    /// The column's declared SQL type.
    public var columnType: ColumnType
}
