/// One way a database's schema differs from a reference schema (usually: a store's real
/// schema compared with what its model version needs).
///
/// "Missing" things are in the reference but not in the database; "extra" things are in the
/// database but not in the reference.
public enum SchemaDifference: Sendable, Hashable, CustomStringConvertible {
    /// The reference has this table; the database doesn't.
    case missingTable(String)
    /// The database has a table the reference doesn't.
    case extraTable(String)
    /// A table lacks a column of the reference.
    case missingColumn(table: String, column: String)
    /// A table has a column the reference doesn't.
    case extraColumn(table: String, column: String)
    /// A column is declared with another type than in the reference.
    case columnTypeMismatch(table: String, column: String, expected: String, actual: String)
    /// A table's primary key has other columns (or another order) than in the reference.
    case primaryKeyMismatch(table: String, expected: [String], actual: [String])
    /// A table lacks a UNIQUE constraint of the reference.
    case missingUniqueConstraint(table: String, columns: [String])
    /// A table has a UNIQUE constraint the reference doesn't.
    case extraUniqueConstraint(table: String, columns: [String])
    /// The reference has this index; the database doesn't.
    case missingIndex(table: String, index: String)
    /// The database has an index the reference doesn't.
    case extraIndex(table: String, index: String)
    /// Same name, but another table, other columns or another uniqueness.
    case indexMismatch(index: String, expected: SQLiteSchema.Index, actual: SQLiteSchema.Index)
    /// The reference has this derived attribute's `Z_DA_…` trigger; the database doesn't.
    case missingTrigger(table: String, trigger: String)
    /// The database has a `Z_DA_…` trigger the reference doesn't.
    case extraTrigger(table: String, trigger: String)
    /// A `Z_DA_…` trigger has another text than the reference's.
    case triggerMismatch(table: String, trigger: String, expected: String, actual: String)

    /// The table concerned (for an index: the reference's table).
    public var table: String {
        switch self {
        case .missingTable(let table), .extraTable(let table): table
        case .missingColumn(let table, _), .extraColumn(let table, _): table
        case .columnTypeMismatch(let table, _, _, _), .primaryKeyMismatch(let table, _, _): table
        case .missingUniqueConstraint(let table, _), .extraUniqueConstraint(let table, _): table
        case .missingIndex(let table, _), .extraIndex(let table, _): table
        case .indexMismatch(_, let expected, _): expected.table
        case .missingTrigger(let table, _), .extraTrigger(let table, _): table
        case .triggerMismatch(let table, _, _, _): table
        }
    }

    public var description: String {
        switch self {
        case .missingTable(let table):
            return "table \(table) is missing"
        case .extraTable(let table):
            return "table \(table) is not expected"
        case .missingColumn(let table, let column):
            return "table \(table) lacks column \(column)"
        case .extraColumn(let table, let column):
            return "table \(table) has an unexpected column \(column)"
        case .columnTypeMismatch(let table, let column, let expected, let actual):
            return "column \(table).\(column) is declared \(Self.show(actual)), expected \(Self.show(expected))"
        case .primaryKeyMismatch(let table, let expected, let actual):
            return "table \(table) has primary key \(Self.list(actual)), expected \(Self.list(expected))"
        case .missingUniqueConstraint(let table, let columns):
            return "table \(table) lacks the unique constraint on \(Self.list(columns))"
        case .extraUniqueConstraint(let table, let columns):
            return "table \(table) has an unexpected unique constraint on \(Self.list(columns))"
        case .missingIndex(let table, let index):
            return "table \(table) lacks index \(index)"
        case .extraIndex(let table, let index):
            return "table \(table) has an unexpected index \(index)"
        case .indexMismatch(let index, let expected, let actual):
            return "index \(index) is \(Self.show(actual)), expected \(Self.show(expected))"
        case .missingTrigger(let table, let trigger):
            return "table \(table) lacks the derived-attribute trigger \(trigger)"
        case .extraTrigger(let table, let trigger):
            return "table \(table) has an unexpected derived-attribute trigger \(trigger)"
        case .triggerMismatch(let table, let trigger, let expected, let actual):
            return "trigger \(trigger) on \(table) is \"\(actual)\", expected \"\(expected)\""
        }
    }

    private static func list(_ columns: [String]) -> String {
        columns.isEmpty ? "(none)" : "(\(columns.joined(separator: ", ")))"
    }

    private static func show(_ type: String) -> String {
        type.isEmpty ? "without type" : type
    }

    private static func show(_ index: SQLiteSchema.Index) -> String {
        "\(index.isUnique ? "a unique index" : "an index") on \(index.table) \(list(index.columns))"
    }
}
