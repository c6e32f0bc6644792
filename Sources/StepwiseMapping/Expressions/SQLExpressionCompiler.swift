import GRDB
import StepwiseStore

/// Compiles expressions and predicates to SQL over a source entity's rows, for the fast path
/// of a migration step (`INSERT … SELECT`), or says it can't by returning nil.
///
/// ```swift
/// var compiler = try SQLExpressionCompiler(layout: sourceLayout, sourceEntity: "Recipe", alias: "s")
/// guard let name = try compiler.compile(Expression.source("name")),                  // "s"."ZNAME"
///       let filter = try compiler.compile(try ExpressionParser.parsePredicate("chef.name BEGINSWITH[c] 'a'"))
/// else { /* evaluate row by row with ExpressionEvaluator */ }
/// let sql = """
///     SELECT \(name.sql) FROM \(compiler.planner.fromClause) \(compiler.joinClause)
///     WHERE \(filter.sql)
///     """
/// try Row.fetchAll(db, sql: sql, arguments: StatementArguments(name.arguments + filter.arguments))
/// ```
///
/// Arguments follow the order of the `?` in the SQL: concatenate fragments' arguments in the
/// order their SQL is written. The connection must have the functions of
/// ``registerFunctions(in:)``.
///
/// ### What compiles
/// Literals (bound as `?`, never inlined), key paths from `$source` or the evaluated object
/// through to-one relationships (``SourceJoinPlanner``), every comparison operator and
/// modifier, `AND`, `OR`, `NOT`, `TRUEPREDICATE`, `FALSEPREDICATE`. Not compiled (nil):
/// `FUNCTION`, `$destination`, `$manager`, `$entityPolicy`, `$entityMapping`, to-many key paths
/// and collection operators, `IN` a key path, and to-one values compared with anything but
/// nil. When a predicate or expression doesn't compile, the compiler is left as it was (no
/// joins are added).
///
/// ### Semantics
/// The SQL selects exactly the rows for which ``ExpressionEvaluator`` holds
/// (``ComparisonOperator/evaluate(_:_:options:)``):
/// - `==` and `!=` are `IS` and `IS NOT`, so nil equals nil and `x != 1` holds for nil `x`;
///   ordering comparisons are `(a < b) IS 1`, false with NULL. Every compiled predicate is
///   0 or 1, never NULL, so `NOT` is two-valued as in Swift.
/// - Columns in comparisons are written `+"s"."ZNAME"`: the unary plus drops the column's
///   type affinity, which SQLite would otherwise apply to the other operand ("If one operand
///   has TEXT affinity and the other has no affinity, TEXT affinity is applied to the other
///   operand"), making `'1' = 1` true for a VARCHAR column but not in Swift.
/// - `[c]`, `[d]`, `[cd]` wrap both sides in `stepwise_fold_case`, `stepwise_fold_diacritics`
///   or `stepwise_fold_case_diacritics`, which run ``ComparisonOptions/fold(_:)``; literals
///   are folded before they are bound.
/// - `BEGINSWITH`, `ENDSWITH`, `CONTAINS` and `LIKE` become `GLOB` (which, unlike SQLite's
///   `LIKE`, is case-sensitive and has no `%`/`_` wildcards) on text only
///   (`typeof(x) = 'text'`), with the literal escaped (`[*]`, `[?]`, `[[]`, `[]]`) and `*`
///   or `?` where the operator or `LIKE` pattern puts wildcards. A pattern from a column is
///   translated at run time by `stepwise_glob_escape` or `stepwise_like_glob`.
/// - `IN {a, b}` is `(x IS a OR x IS b)`.
///
/// - warning: SQLite's text functions stop at a NUL character; strings holding `"\0"` may
///   compare differently in SQL than in Swift.
package struct SQLExpressionCompiler: Sendable, Hashable {
    /// Resolves key paths and collects the joins the compiled SQL needs.
    package private(set) var planner: SourceJoinPlanner

    /// A compiler whose key paths resolve through `planner`.
    package init(planner: SourceJoinPlanner) {
        self.planner = planner
    }

    /// A compiler for rows of `sourceEntity`, whose table is aliased `alias`.
    ///
    /// - throws: ``MappingError`` when the layout has no such entity.
    package init(layout: StoreLayout, sourceEntity: String, alias: String = "s") throws(MappingError) {
        self.planner = try SourceJoinPlanner(layout: layout, sourceEntity: sourceEntity, alias: alias)
    }

    /// The `LEFT JOIN` clauses the fragments compiled so far need, separated by spaces.
    package var joinClause: String { planner.joinClause }

    /// The SQL value of `expression` (a column or a bound literal), or nil when it can't be
    /// computed in SQL.
    ///
    /// A to-one key path yields the foreign key (the destination's `Z_PK`); columns are
    /// written without the unary plus, so the value is exactly what is stored.
    ///
    /// - throws: ``MappingError`` when a key path names a property that doesn't exist.
    package mutating func compile(_ expression: Expression) throws(MappingError) -> SQLFragment? {
        var scratch = self
        switch expression {
        case .constant(let value):
            return value.sqlArgument.map { SQLFragment(sql: "?", arguments: [$0]) }
        case .keyPath(let root, let path) where root == .source || root == .evaluatedObject:
            guard let resolved = try scratch.planner.resolve(path) else { return nil }
            self = scratch
            return SQLFragment(sql: resolved.sql)
        case .keyPath, .function, .aggregate:
            return nil
        }
    }

    /// An SQL condition, 0 or 1 for every row, that holds exactly where `predicate` does, or
    /// nil when it can't be computed in SQL.
    ///
    /// - throws: ``MappingError`` when a key path names a property that doesn't exist.
    package mutating func compile(_ predicate: Predicate) throws(MappingError) -> SQLFragment? {
        var scratch = self
        guard let fragment = try scratch.condition(predicate) else { return nil }
        self = scratch
        return fragment
    }

    // MARK: - Predicates

    private mutating func condition(_ predicate: Predicate) throws(MappingError) -> SQLFragment? {
        switch predicate {
        case .constant(let value):
            return SQLFragment(sql: value ? "1" : "0")
        case .and(let parts), .or(let parts):
            let isAnd = if case .and = predicate { true } else { false }
            guard !parts.isEmpty else { return SQLFragment(sql: isAnd ? "1" : "0") }
            var compiled: [SQLFragment] = []
            for part in parts {
                guard let fragment = try condition(part) else { return nil }
                compiled.append(fragment)
            }
            return Self.joined(compiled, separator: isAnd ? " AND " : " OR ")
        case .not(let inner):
            guard let fragment = try condition(inner) else { return nil }
            return SQLFragment(sql: "(NOT \(fragment.sql))", arguments: fragment.arguments)
        case .comparison(let lhs, .in, let rhs, let options):
            return try membership(lhs, rhs, options)
        case .comparison(let lhs, let op, let rhs, let options):
            guard let left = try operand(lhs), let right = try operand(rhs) else { return nil }
            return Self.comparison(left, op, right, options)
        }
    }

    /// `x IN {a, b}` as `(x IS a OR x IS b)`, `0` for an empty list.
    private mutating func membership(
        _ lhs: Expression, _ rhs: Expression, _ options: ComparisonOptions
    ) throws(MappingError) -> SQLFragment? {
        let elements: [Expression]
        switch rhs {
        case .constant(.array(let values)): elements = values.map(Expression.constant)
        case .aggregate(let list): elements = list
        case .constant(.null): return SQLFragment(sql: "0")
        default: return nil
        }
        guard let left = try operand(lhs), !left.isToOne else { return nil }
        var tests: [SQLFragment] = []
        for element in elements {
            guard let right = try operand(element), !right.isToOne else { return nil }
            tests.append(Self.valueComparison(left, .equal, right, options))
        }
        guard !tests.isEmpty else { return SQLFragment(sql: "0") }
        return Self.joined(tests, separator: " OR ")
    }

    // MARK: - Operands

    /// One side of a comparison.
    private enum Operand {
        /// A scalar literal (nil, number, string or data).
        case constant(MappingValue)
        /// A quoted column reference, and whether it holds a to-one's foreign key.
        case column(String, isToOne: Bool)

        var isToOne: Bool {
            if case .column(_, true) = self { return true }
            return false
        }
    }

    private mutating func operand(_ expression: Expression) throws(MappingError) -> Operand? {
        switch expression {
        case .constant(let value):
            guard value.sqlArgument != nil else { return nil }
            if case .double(let number) = value, number.isNaN { return .constant(.null) }
            return .constant(value)
        case .keyPath(let root, let path) where root == .source || root == .evaluatedObject:
            guard let resolved = try planner.resolve(path) else { return nil }
            if case .toOne = resolved.target { return .column(resolved.sql, isToOne: true) }
            // Its column holds a marker and maybe a file's name (ExternalBinaryValue), not the
            // bytes a comparison is about: the row-by-row path compares the real bytes.
            if case .attribute(let attribute) = resolved.target, planner.layout.storesExternally(attribute) {
                return nil
            }
            return .column(resolved.sql, isToOne: false)
        case .keyPath, .function, .aggregate:
            return nil
        }
    }

    // MARK: - Comparisons

    private static func comparison(
        _ left: Operand, _ op: ComparisonOperator, _ right: Operand, _ options: ComparisonOptions
    ) -> SQLFragment? {
        // A foreign key is only meaningful against nil: its number means nothing in Swift,
        // where a to-one is an object.
        if left.isToOne || right.isToOne {
            switch (op, left, right) {
            case (.equal, .column(let column, true), .constant(.null)),
                (.equal, .constant(.null), .column(let column, true)):
                return SQLFragment(sql: "(\(column) IS NULL)")
            case (.notEqual, .column(let column, true), .constant(.null)),
                (.notEqual, .constant(.null), .column(let column, true)):
                return SQLFragment(sql: "(\(column) IS NOT NULL)")
            default:
                return nil
            }
        }
        return valueComparison(left, op, right, options)
    }

    /// A comparison between values that are not foreign keys.
    private static func valueComparison(
        _ left: Operand, _ op: ComparisonOperator, _ right: Operand, _ options: ComparisonOptions
    ) -> SQLFragment {
        switch op {
        case .equal, .notEqual, .in:
            let keyword = op == .notEqual ? "IS NOT" : "IS"
            return "(" + scalar(left, options) + " \(keyword) " + scalar(right, options) + ")"
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            return "((" + scalar(left, options) + " \(op.rawValue) " + scalar(right, options) + ") IS 1)"
        case .beginsWith, .endsWith, .contains, .like:
            return textMatch(left, op, right, options)
        }
    }

    /// A value to compare: a bound (folded) literal, or a column without affinity (or folded).
    private static func scalar(_ operand: Operand, _ options: ComparisonOptions) -> SQLFragment {
        switch operand {
        case .constant(let value):
            return SQLFragment(sql: "?", arguments: [folded(value, options).sqlArgument ?? .null])
        case .column(let column, _):
            guard let function = foldFunction(options) else { return SQLFragment(sql: "+" + column) }
            return SQLFragment(sql: "\(function)(\(column))")
        }
    }

    /// `(typeof(x) = 'text' AND (fold(x) GLOB pattern) IS 1)`; `0` when a literal side is not
    /// a string, since the string operators hold only between strings.
    private static func textMatch(
        _ left: Operand, _ op: ComparisonOperator, _ right: Operand, _ options: ComparisonOptions
    ) -> SQLFragment {
        var guards: [String] = []
        let subject: SQLFragment
        switch left {
        case .constant(.string(let text)):
            subject = SQLFragment(sql: "?", arguments: [options.fold(text).databaseValue])
        case .constant:
            return SQLFragment(sql: "0")
        case .column(let column, _):
            guards.append("typeof(\(column)) = 'text'")
            subject = SQLFragment(sql: foldFunction(options).map { "\($0)(\(column))" } ?? column)
        }
        let pattern: SQLFragment
        switch right {
        case .constant(.string(let text)):
            pattern = SQLFragment(sql: "?", arguments: [globPattern(op, options.fold(text)).databaseValue])
        case .constant:
            return SQLFragment(sql: "0")
        case .column(let column, _):
            guards.append("typeof(\(column)) = 'text'")
            let folded = foldFunction(options).map { "\($0)(\(column))" } ?? column
            switch op {
            case .beginsWith: pattern = SQLFragment(sql: "\(globEscapeFunction)(\(folded)) || '*'")
            case .endsWith: pattern = SQLFragment(sql: "'*' || \(globEscapeFunction)(\(folded))")
            case .contains: pattern = SQLFragment(sql: "'*' || \(globEscapeFunction)(\(folded)) || '*'")
            default: pattern = SQLFragment(sql: "\(likeGlobFunction)(\(folded))")
            }
        }
        let match = "(" + subject + " GLOB (" + pattern + ")) IS 1"
        return SQLFragment(
            sql: "(" + (guards + [match.sql]).joined(separator: " AND ") + ")", arguments: match.arguments)
    }

    /// The GLOB pattern for a literal right-hand side (already folded).
    private static func globPattern(_ op: ComparisonOperator, _ text: String) -> String {
        switch op {
        case .beginsWith: return TextMatching.globEscaped(text) + "*"
        case .endsWith: return "*" + TextMatching.globEscaped(text)
        case .contains: return "*" + TextMatching.globEscaped(text) + "*"
        default: return TextMatching.globPattern(TextMatching.likePattern(text))
        }
    }

    private static func folded(_ value: MappingValue, _ options: ComparisonOptions) -> MappingValue {
        if case .string(let text) = value { return .string(options.fold(text)) }
        return value
    }

    // MARK: - Assembly

    private static func joined(_ fragments: [SQLFragment], separator: String) -> SQLFragment {
        SQLFragment(
            sql: "(" + fragments.map(\.sql).joined(separator: separator) + ")",
            arguments: fragments.flatMap(\.arguments))
    }
}

extension MappingValue {
    /// The value bound for a literal: nil for objects and lists, which have no SQL value.
    var sqlArgument: DatabaseValue? {
        switch self {
        case .null: return .null
        case .integer(let value): return value.databaseValue
        case .double(let value): return value.isNaN ? .null : value.databaseValue
        case .string(let value): return value.databaseValue
        case .data(let value): return value.databaseValue
        case .object, .objects, .array, .transformable, .composite: return nil
        }
    }
}
