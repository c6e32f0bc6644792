import GRDB
import StepwiseStore
import Testing

@Suite("SQLiteSchema")
struct SQLiteSchemaTests {
    private func schema(_ statements: [String]) throws -> SQLiteSchema {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.write { db in
            for statement in statements { try db.execute(sql: statement) }
            return try SQLiteSchema.read(from: db)
        }
    }

    @Test func readsColumnsKeysUniqueConstraintsAndIndexes() throws {
        let schema = try schema([
            "CREATE TABLE T (Z_PK INTEGER PRIMARY KEY, A VARCHAR(255), B FLOAT, C, CONSTRAINT A_B UNIQUE (A, B))",
            "CREATE TABLE J (X INTEGER, Y INTEGER, PRIMARY KEY (X, Y))",
            "CREATE INDEX T_B_INDEX ON T (B)",
            "CREATE UNIQUE INDEX T_C ON T (C, A)",
            // AUTOINCREMENT creates sqlite_sequence, which must not be listed.
            "CREATE TABLE S (id INTEGER PRIMARY KEY AUTOINCREMENT)",
        ])
        #expect(schema.tables.map(\.name) == ["J", "S", "T"])
        let table = try #require(schema.table(named: "t"))
        #expect(
            table.columns == [
                .init(name: "Z_PK", type: "INTEGER"), .init(name: "A", type: "VARCHAR(255)"),
                .init(name: "B", type: "FLOAT"), .init(name: "C", type: ""),
            ])
        #expect(table.primaryKey == ["Z_PK"])
        #expect(table.uniqueConstraints == [["A", "B"]])
        #expect(schema.table(named: "J")?.primaryKey == ["X", "Y"])
        #expect(schema.table(named: "J")?.uniqueConstraints == [])
        #expect(
            schema.indexes == [
                .init(name: "T_B_INDEX", table: "T", columns: ["B"]),
                .init(name: "T_C", table: "T", columns: ["C", "A"], isUnique: true),
            ])
    }

    @Test func anExpressionIndexIsReadAndComparedByItsExpressions() throws {
        let table = "CREATE TABLE T (Z_PK INTEGER PRIMARY KEY, A VARCHAR, B VARCHAR)"
        let lower = try schema([table, "CREATE INDEX T_X ON T (lower(A))"])
        let upper = try schema([table, "CREATE INDEX T_X ON T (upper(A))"])
        let index = try #require(lower.index(named: "T_X"))
        #expect(index.columns.count == 1)
        #expect(index.columns.first?.contains("lower(A)") == true)
        #expect(lower.differences(from: lower).isEmpty)
        #expect(
            lower.differences(from: upper).contains {
                if case .indexMismatch(index: "T_X", _, _) = $0 { return true }
                return false
            })
        // Another expression index of the same arity is no copy of it.
        let renamed = try schema([table, "CREATE INDEX T_Y ON T (upper(B))"])
        #expect(renamed.redundantIndexes(comparedWith: lower).isEmpty)
    }

    @Test func equalityIgnoresColumnOrderAndSpelling() throws {
        let one = try schema(["CREATE TABLE T ( A INTEGER, B varchar )", "CREATE INDEX I ON T (A)"])
        let two = try schema([#"CREATE TABLE "t" ("b" VARCHAR, "a" INTEGER)"#, #"CREATE INDEX "i" ON "t" ("a")"#])
        #expect(one == two)
        #expect(one.differences(from: two) == [])
        #expect(one.hashValue == two.hashValue)
    }

    @Test func differencesNameTablesColumnsTypesKeysConstraintsAndIndexes() throws {
        let expected = try schema([
            "CREATE TABLE ZATRECORD (Z_PK INTEGER PRIMARY KEY, ZCUSTOMDATA BLOB, ZHIDDEN INTEGER, ZA INTEGER, ZB INTEGER, CONSTRAINT ZA_ZB UNIQUE (ZA, ZB))",
            "CREATE TABLE ZQUEUEDREQUEST (Z_PK INTEGER PRIMARY KEY)",
            "CREATE TABLE J (X INTEGER, Y INTEGER, PRIMARY KEY (X, Y))",
            "CREATE INDEX ZATRECORD_ZHIDDEN_INDEX ON ZATRECORD (ZHIDDEN)",
            "CREATE INDEX ZATRECORD_ZA_INDEX ON ZATRECORD (ZA)",
        ])
        let actual = try schema([
            "CREATE TABLE ZATRECORD (Z_PK INTEGER PRIMARY KEY, ZHIDDEN VARCHAR, ZA INTEGER, ZB INTEGER, ZEXTRA BLOB)",
            "CREATE TABLE Z_5DISPLAYTYPES (X INTEGER)",
            "CREATE TABLE J (X INTEGER, Y INTEGER, PRIMARY KEY (Y, X))",
            "CREATE INDEX ZATRECORD_ZA_INDEX ON ZATRECORD (ZB)",
            "CREATE INDEX ZATRECORD_ZEXTRA_INDEX ON ZATRECORD (ZEXTRA)",
        ])
        let differences = actual.differences(from: expected)
        #expect(
            differences == [
                .primaryKeyMismatch(table: "J", expected: ["X", "Y"], actual: ["Y", "X"]),
                .missingColumn(table: "ZATRECORD", column: "ZCUSTOMDATA"),
                .columnTypeMismatch(table: "ZATRECORD", column: "ZHIDDEN", expected: "INTEGER", actual: "VARCHAR"),
                .extraColumn(table: "ZATRECORD", column: "ZEXTRA"),
                .missingUniqueConstraint(table: "ZATRECORD", columns: ["ZA", "ZB"]),
                .missingTable("ZQUEUEDREQUEST"),
                .extraTable("Z_5DISPLAYTYPES"),
                .indexMismatch(
                    index: "ZATRECORD_ZA_INDEX",
                    expected: .init(name: "ZATRECORD_ZA_INDEX", table: "ZATRECORD", columns: ["ZA"]),
                    actual: .init(name: "ZATRECORD_ZA_INDEX", table: "ZATRECORD", columns: ["ZB"])),
                .extraIndex(table: "ZATRECORD", index: "ZATRECORD_ZEXTRA_INDEX"),
                .missingIndex(table: "ZATRECORD", index: "ZATRECORD_ZHIDDEN_INDEX"),
            ])
        #expect(
            differences.map(\.description) == [
                "table J has primary key (Y, X), expected (X, Y)",
                "table ZATRECORD lacks column ZCUSTOMDATA",
                "column ZATRECORD.ZHIDDEN is declared VARCHAR, expected INTEGER",
                "table ZATRECORD has an unexpected column ZEXTRA",
                "table ZATRECORD lacks the unique constraint on (ZA, ZB)",
                "table ZQUEUEDREQUEST is missing",
                "table Z_5DISPLAYTYPES is not expected",
                "index ZATRECORD_ZA_INDEX is an index on ZATRECORD (ZB), expected an index on ZATRECORD (ZA)",
                "table ZATRECORD has an unexpected index ZATRECORD_ZEXTRA_INDEX",
                "table ZATRECORD lacks index ZATRECORD_ZHIDDEN_INDEX",
            ])
        #expect(differences.map(\.table).contains("ZQUEUEDREQUEST"))
        #expect(
            actual.differences(from: expected, ignoringTables: ["zatrecord", "J", "ZQUEUEDREQUEST", "Z_5DISPLAYTYPES"])
                == [])
    }
}
