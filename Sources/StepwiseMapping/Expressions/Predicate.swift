/// A filter in Core Data's predicate syntax (`NSPredicate`), as used by entity mappings:
///
/// - comparisons `==`, `=`, `!=`, `<>`, `<`, `<=`, `>`, `>=`;
/// - `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE`, each optionally `[c]` (case-insensitive);
/// - `IN` with a literal list `{"a", "b"}`;
/// - `AND`/`&&`, `OR`/`||`, `NOT`/`!`, parentheses, `TRUEPREDICATE`, `FALSEPREDICATE`;
/// - nil checks: `name == nil`, `name != nil`.
public indirect enum Predicate: Sendable, Hashable, CustomStringConvertible {
    case comparison(Expression, ComparisonOperator, Expression, caseInsensitive: Bool)
    /// `lhs IN {values…}` (or `IN` a to-many key path).
    case isIn(Expression, [Expression])
    case and([Predicate])
    case or([Predicate])
    case not(Predicate)
    case constant(Bool)

    public var description: String {
        switch self {
        case .comparison(let lhs, let op, let rhs, let caseInsensitive):
            return "\(lhs) \(op.rawValue)\(caseInsensitive ? "[c]" : "") \(rhs)"
        case .isIn(let lhs, let values):
            return "\(lhs) IN {\(values.map(\.description).joined(separator: ", "))}"
        case .and(let parts):
            return parts.map { "(\($0))" }.joined(separator: " AND ")
        case .or(let parts):
            return parts.map { "(\($0))" }.joined(separator: " OR ")
        case .not(let inner):
            return "NOT (\(inner))"
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        }
    }
}

/// The operators of a comparison predicate.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
}
