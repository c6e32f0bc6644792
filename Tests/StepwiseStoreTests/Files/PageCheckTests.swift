import GRDB
import StepwiseStore
import Testing

/// What each level of SQLite's page check finds: an index whose definition was edited by hand
/// so that its entries no longer match it is found by `integrity_check` of its table, and not
/// by `quick_check`. That is why an index renamed in the schema is checked in full, table by
/// table, while the matrix reads every store with `quick_check`.
@Suite("Page check")
struct PageCheckTests {
    /// A table whose index, `byName`, now claims to cover `age` while its entries hold `name`.
    func storeWithAMismatchedIndex() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.writeWithoutTransaction { db in
            try db.execute(
                sql: """
                    CREATE TABLE "ZPERSON" ("Z_PK" INTEGER PRIMARY KEY, "ZNAME" VARCHAR, "ZAGE" INTEGER);
                    CREATE INDEX "byName" ON "ZPERSON" ("ZNAME");
                    CREATE TABLE "ZOTHER" ("Z_PK" INTEGER PRIMARY KEY, "ZVALUE" INTEGER);
                    INSERT INTO "ZPERSON" VALUES (1, 'Ada', 36), (2, 'Alan', 41);
                    INSERT INTO "ZOTHER" VALUES (1, 7);
                    """)
            let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(
                sql:
                    "UPDATE sqlite_master SET sql = 'CREATE INDEX \"byName\" ON \"ZPERSON\" (\"ZAGE\")' WHERE name = 'byName'"
            )
            try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
        return queue
    }

    @Test("integrity_check of the table finds the index that doesn't match; quick_check doesn't")
    func fullCheckOfOneTable() throws {
        let queue = try storeWithAMismatchedIndex()
        try queue.read { db in
            #expect(try PageCheck.problems(in: db, full: false).isEmpty)
            #expect(try PageCheck.problems(in: db, full: false, table: "ZPERSON").isEmpty)
            #expect(try PageCheck.problems(in: db, full: true, table: "ZOTHER").isEmpty)
            let found = try PageCheck.problems(in: db, full: true, table: "ZPERSON")
            #expect(found.count == 2)
            #expect(found.allSatisfy { $0.contains("byName") })
            #expect(try PageCheck.problems(in: db, full: true) == found)
        }
    }
}
