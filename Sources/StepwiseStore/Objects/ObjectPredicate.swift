import GRDB

/// A simple filter on an entity's properties, run as SQL (nothing is filtered in Swift).
///
/// ```swift
/// let mexican: ObjectPredicate = .equal("cuisine", "Mexican") && .isNotNil("chef")
/// ```
/// Property names are attribute names or to-one relationship names (compared with the
/// destination's `Z_PK`).
public indirect enum ObjectPredicate: Sendable {
    /// A comparison operator.
    public enum Comparison: String, Sendable {
        case equal = "="
        case notEqual = "<>"
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    case compare(String, Comparison, DatabaseValue)
    case beginsWith(String, String)
    case contains(String, String)
    case isNil(String)
    case isNotNil(String)
    case isIn(String, [DatabaseValue])
    case and([ObjectPredicate])
    case or([ObjectPredicate])
    case not(ObjectPredicate)

    public static func equal(_ property: String, _ value: some DatabaseValueConvertible) -> ObjectPredicate {
        .compare(property, .equal, value.databaseValue)
    }

    public static func && (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate { .and([lhs, rhs]) }
    public static func || (lhs: ObjectPredicate, rhs: ObjectPredicate) -> ObjectPredicate { .or([lhs, rhs]) }
    public static prefix func ! (operand: ObjectPredicate) -> ObjectPredicate { .not(operand) }

    /// The SQL condition and its arguments; `column` maps a property name to its quoted column.
    func sql(column: (String) throws -> String) throws -> (String, [DatabaseValue]) {
        switch self {
        case .compare(let property, let comparison, let value):
            return ("\(try column(property)) \(comparison.rawValue) ?", [value])
        case .beginsWith(let property, let prefix):
            // substr keeps it exact: LIKE would treat % and _ in the prefix as wildcards.
            return ("substr(\(try column(property)), 1, ?) = ?", [prefix.count.databaseValue, prefix.databaseValue])
        case .contains(let property, let text):
            return ("instr(\(try column(property)), ?) > 0", [text.databaseValue])
        case .isNil(let property):
            return ("\(try column(property)) IS NULL", [])
        case .isNotNil(let property):
            return ("\(try column(property)) IS NOT NULL", [])
        case .isIn(let property, let values):
            guard !values.isEmpty else { return ("0", []) }
            return ("\(try column(property)) IN (\(values.map { _ in "?" }.joined(separator: ", ")))", values)
        case .and(let parts), .or(let parts):
            guard !parts.isEmpty else { return (isAnd ? "1" : "0", []) }
            let rendered = try parts.map { try $0.sql(column: column) }
            let joiner = isAnd ? " AND " : " OR "
            return (rendered.map { "(\($0.0))" }.joined(separator: joiner), rendered.flatMap(\.1))
        case .not(let inner):
            let (condition, arguments) = try inner.sql(column: column)
            return ("NOT (\(condition))", arguments)
        }
    }

    private var isAnd: Bool {
        if case .and = self { return true }
        return false
    }
}
