import GRDB
import GRDBSQLite

/// A statement run once per row, whose values are bound in place instead of passed as
/// `StatementArguments`.
///
/// Building a `StatementArguments` from values goes through GRDB's generic initializer,
/// which the Swift runtime instantiates on every call: a fifth of a policy's row loop in a
/// profile (three statements per row). Here the values are bound one by one with GRDB's own
/// `StatementBinding.bind(to:at:)` (the code `execute(arguments:)` ends up running), and the
/// statement is run by GRDB's `execute()`, so its bookkeeping (observers, error reporting,
/// `changesCount`) is unchanged.
///
/// This relies on GRDB keeping bindings across `execute()` calls once arguments were set
/// with `setArguments(_:)`: it then only resets the statement. The statement must therefore
/// be private to this object (made with `db.makeStatement`, never `cachedStatement`): a call
/// of `execute(arguments:)` on it elsewhere would make GRDB bind its own stored arguments.
package final class BoundStatement {
    package let statement: Statement
    private let count: Int

    /// Takes over `statement`, fresh from `db.makeStatement(sql:)`.
    package init(_ statement: Statement) throws {
        self.statement = statement
        count = Int(sqlite3_bind_parameter_count(statement.sqliteStatement))
        // Arms GRDB's "arguments are valid and bound" state once, with NULLs.
        try statement.setArguments(
            StatementArguments(Array(repeating: nil as (any DatabaseValueConvertible)?, count: count)))
    }

    /// Runs the statement with `values` for its parameters, in order.
    package func execute(_ values: [DatabaseValue]) throws {
        try bind(values)
        try statement.execute()
    }

    /// Runs the statement with `prefix` then `values` for its parameters, in order.
    package func execute(_ prefix: Int64, _ second: Int64, _ third: Int64, then values: [DatabaseValue]) throws {
        try reset(expecting: 3 + values.count)
        try bind(prefix.databaseValue, at: 1)
        try bind(second.databaseValue, at: 2)
        try bind(third.databaseValue, at: 3)
        for (offset, value) in values.enumerated() {
            try bind(value, at: CInt(offset + 4))
        }
        try statement.execute()
    }

    /// Runs the statement with up to three integers (nil binds NULL).
    package func execute(_ first: Int64?, _ second: Int64?, _ third: Int64? = nil) throws {
        let values = [first, second, third].prefix(count)
        try reset(expecting: values.count)
        for (offset, value) in values.enumerated() {
            try bind(value?.databaseValue ?? .null, at: CInt(offset + 1))
        }
        try statement.execute()
    }

    private func bind(_ values: [DatabaseValue]) throws {
        try reset(expecting: values.count)
        for (offset, value) in values.enumerated() {
            try bind(value, at: CInt(offset + 1))
        }
    }

    /// Readies the statement for new bindings. The result of the reset is ignored on
    /// purpose: it repeats the error of the previous run, if it failed, which that run
    /// already threw (a caller may have caught it and gone on).
    private func reset(expecting values: Int) throws {
        guard values == count else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: \(values)",
                sql: statement.sql)
        }
        sqlite3_reset(statement.sqliteStatement)
    }

    private func bind(_ value: DatabaseValue, at index: CInt) throws {
        let code = value.bind(to: statement.sqliteStatement, at: index)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: nil, sql: statement.sql)
        }
    }
}
