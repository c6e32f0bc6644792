/// A filter in Core Data's predicate syntax (`NSPredicate`), as used by entity mappings:
///
/// - comparisons `==`, `=`, `!=`, `<>`, `<`, `<=`, `=<`, `>`, `>=`, `=>`;
/// - `BEGINSWITH`, `ENDSWITH`, `CONTAINS`, `LIKE` (wildcards `*` and `?`), and `IN` with a
///   list `{"a", "b"}` or a key path; every operator may be followed by `[c]`
///   (case-insensitive), `[d]` (diacritic-insensitive) or `[cd]`;
/// - `AND`/`&&`, `OR`/`||`, `NOT`/`!`, parentheses, `TRUEPREDICATE`, `FALSEPREDICATE`;
/// - nil checks: `name == nil`, `name != nil`.
///
/// `NOT` binds tighter than `AND`, which binds tighter than `OR`. Keywords are
/// case-insensitive. Stepwise reads this syntax from mapping models, and ``description``
/// writes it back.
public indirect enum Predicate: Sendable, Hashable, CustomStringConvertible {
    /// `lhs OP[options] rhs`. For ``ComparisonOperator/in``, `rhs` is the list.
    case comparison(Expression, ComparisonOperator, Expression, options: ComparisonOptions = [])
    /// All parts hold (`a AND b AND c`).
    case and([Predicate])
    /// At least one part holds.
    case or([Predicate])
    /// `NOT inner`.
    case not(Predicate)
    /// `TRUEPREDICATE` or `FALSEPREDICATE`.
    case constant(Bool)

    /// `lhs IN {values…}`.
    public static func isIn(_ lhs: Expression, _ values: [Expression], options: ComparisonOptions = []) -> Predicate {
        .comparison(lhs, .in, .aggregate(values), options: options)
    }

    /// The predicate in Core Data's syntax, parseable by `ExpressionParser`.
    ///
    /// Parentheses are written where the structure needs them, and around an `AND` inside an
    /// `OR` for the reader.
    public var description: String {
        switch self {
        case .comparison(let lhs, let op, let rhs, let options):
            return "\(lhs) \(op.rawValue)\(options.modifier) \(rhs)"
        case .and([]):
            return "TRUEPREDICATE"  // what an empty conjunction means
        case .or([]):
            return "FALSEPREDICATE"
        case .and(let parts):
            return parts.map { part in
                switch part {
                case .and, .or: return "(\(part))"
                default: return part.description
                }
            }.joined(separator: " AND ")
        case .or(let parts):
            return parts.map { part in
                switch part {
                case .and, .or: return "(\(part))"
                default: return part.description
                }
            }.joined(separator: " OR ")
        case .not(let inner):
            switch inner {
            case .comparison, .constant, .not: return "NOT \(inner)"
            case .and, .or: return "NOT (\(inner))"
            }
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
    /// The left string starts with the right one.
    case beginsWith = "BEGINSWITH"
    /// The left string ends with the right one.
    case endsWith = "ENDSWITH"
    /// The left string contains the right one.
    case contains = "CONTAINS"
    /// The left string matches the pattern on the right: `*` matches any run of characters,
    /// `?` exactly one, and a backslash makes the next character literal.
    case like = "LIKE"
    /// The left value equals an element of the list on the right.
    case `in` = "IN"
}

/// The `[c]`, `[d]` and `[cd]` modifiers of a comparison.
///
/// Both fold strings before comparing them, the same way in Swift and in SQL
/// (`SQLExpressionCompiler/registerFunctions(in:)`): see `fold(_:)`.
public struct ComparisonOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// `[c]`: "Straße", "STRASSE" and "strasse" compare equal.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: "Édith" and "Edith" compare equal.
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)

    /// `[c]`, `[d]`, `[cd]` or nothing.
    public var modifier: String {
        var letters = ""
        if contains(.caseInsensitive) { letters += "c" }
        if contains(.diacriticInsensitive) { letters += "d" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }
}
