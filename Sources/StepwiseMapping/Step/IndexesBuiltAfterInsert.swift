import GRDB
import StepwiseStore

/// The plain (non-unique) indexes of an empty destination table, dropped while pass 1's
/// `INSERT … SELECT` fills it and created again from their own SQL right after.
///
/// An index kept up during the insert takes every row's entry at a random place (names,
/// foreign keys), a page split and a rewrite at a time; `CREATE INDEX` on the filled table
/// sorts the entries once and writes each page once. The store ends with the same indexes,
/// created by the same statements. Unique indexes are not this type's: the rebuild drops them
/// for the whole step and checks uniqueness when the step ends (``UniquenessCheckedAtEnd``).
/// A table that already holds rows keeps its indexes (rebuilding them would cost more than
/// the rows being added).
struct IndexesBuiltAfterInsert {
    private let db: Database
    private let statements: [String]

    init(_ db: Database, table: String) throws {
        self.db = db
        let isEmpty =
            try Bool.fetchOne(
                db, sql: "SELECT NOT EXISTS (SELECT 1 FROM \"main\".\(table.quotedSQLIdentifier))") ?? false
        guard isEmpty else {
            statements = []
            return
        }
        let indexes = try Row.fetchAll(
            db,
            sql: """
                SELECT "name", "sql" FROM "main"."sqlite_master"
                WHERE "type" = 'index' AND "tbl_name" = ? COLLATE NOCASE AND "sql" IS NOT NULL
                """,
            arguments: [table])
        var statements: [String] = []
        for index in indexes {
            let name: String = index["name"]
            let sql: String = index["sql"]
            // Only `CREATE INDEX`: a `CREATE UNIQUE INDEX` left here is checked per statement.
            guard sql.uppercased().hasPrefix("CREATE INDEX") else { continue }
            try db.execute(sql: "DROP INDEX \"main\".\(name.quotedSQLIdentifier)")
            statements.append(sql)
        }
        self.statements = statements
    }

    /// Creates the dropped indexes again. Call it on every way out that goes on with the step
    /// (a failure that ends the step deletes its file, indexes and all).
    func rebuild() throws {
        for sql in statements { try db.execute(sql: sql) }
    }
}
