import GRDB

/// A piece of SQL and the values bound to its `?` placeholders, in order.
///
/// ```swift
/// let condition = try compiler.compile(filter)!   // "(+"s"."ZNAME" IS ?)", ["Chef"]
/// let rows = try Row.fetchAll(
///     db, sql: "SELECT \"s\".\"Z_PK\" FROM \"ZRECIPE\" AS \"s\" \(compiler.joinClause) WHERE \(condition.sql)",
///     arguments: condition.statementArguments)
/// ```
package struct SQLFragment: Sendable, Hashable, CustomStringConvertible {
    /// The SQL, with one `?` per argument. Identifiers are quoted; literals are never inlined.
    package var sql: String
    /// The bound values.
    package var arguments: [DatabaseValue]

    /// A fragment; `sql` must hold one `?` per argument.
    package init(sql: String, arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// The arguments, for GRDB's fetch and execute methods.
    package var statementArguments: StatementArguments {
        StatementArguments(arguments)
    }

    /// The SQL only: arguments may hold user data, which stays out of logs.
    package var description: String { sql }
}

extension SQLFragment {
    /// The two fragments one after the other, arguments in the same order.
    package static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(sql: lhs.sql + rhs.sql, arguments: lhs.arguments + rhs.arguments)
    }

    /// The fragment followed by plain SQL.
    package static func + (lhs: SQLFragment, rhs: String) -> SQLFragment {
        SQLFragment(sql: lhs.sql + rhs, arguments: lhs.arguments)
    }

    /// Plain SQL followed by the fragment.
    package static func + (lhs: String, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(sql: lhs + rhs.sql, arguments: rhs.arguments)
    }
}
