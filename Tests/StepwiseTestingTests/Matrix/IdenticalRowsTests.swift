import Foundation
import GRDB
import StepwiseTesting
import Testing

@testable import StepwiseMatrix

/// The matrix's SQL comparison may only say "identical" when the row-by-row comparison would
/// find every value the same storage class and bytes; anything else is "can't tell".
@Suite("IdenticalRows: SQL stands in for the row-by-row comparison only when it is exact")
struct IdenticalRowsTests {
    /// Column `A` has no declared type (anything goes), `B` is FLOAT, `C` is VARCHAR.
    static let schema = """
        CREATE TABLE "T" ("Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "A", "B" FLOAT, "C" VARCHAR)
        """

    /// Writes `first` and `second` rows (`Z_PK`, `A`, `B`, `C`; `Z_ENT` 1) into two stores and
    /// asks whether their rows are identical over `A`, `B` and `C`.
    /// Two stores, the second filled by `fill(db, 1)` and the first by `fill(db, 0)`; then
    /// `body` on the first, the second attached as `other`, ready to compare.
    func withTwoStores<T>(_ fill: (Database, Int) throws -> Void, _ body: (Database) throws -> T) throws -> T {
        let directory = try TemporaryDirectory(prefix: "stepwise-identical-rows")
        let urls = [directory.path("first.sqlite"), directory.path("second.sqlite")]
        for (index, url) in urls.enumerated() {
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in try fill(db, index) }
            try queue.close()
        }
        let queue = try DatabaseQueue(path: urls[0].path)
        defer { try? queue.close() }
        return try queue.inDatabase { db in
            IdenticalRows.prepare(db)
            try db.execute(sql: "ATTACH DATABASE ? AS \"other\"", arguments: [urls[1].path])
            return try body(db)
        }
    }

    /// `names` of `table` as compared columns, with their declared types in both stores.
    func columns(_ names: [String], of table: String, _ db: Database) throws -> [IdenticalRows.Column] {
        let types = (
            try IdenticalRows.declaredTypes(db, table: table, schema: "main"),
            try IdenticalRows.declaredTypes(db, table: table, schema: "other")
        )
        return names.map { IdenticalRows.Column($0, $0, declaredTypes: (types.0[$0], types.1[$0])) }
    }

    func identical(_ first: [[DatabaseValueConvertible?]], _ second: [[DatabaseValueConvertible?]]) throws -> Bool {
        try withTwoStores { db, index in
            try db.execute(sql: Self.schema)
            for row in [first, second][index] {
                try db.execute(
                    sql: "INSERT INTO \"T\" (\"Z_PK\", \"Z_ENT\", \"A\", \"B\", \"C\") VALUES (?, 1, ?, ?, ?)",
                    arguments: StatementArguments(row))
            }
        } _: { db in
            let columns = try columns(["A", "B", "C"], of: "T", db)
            let mine = IdenticalRows.Side(schema: "main", table: "T", entity: 1)
            let theirs = IdenticalRows.Side(schema: "other", table: "T", entity: 1)
            let count = try IdenticalRows.count(db, mine)
            let byEntity =
                try IdenticalRows.count(db, theirs) == count
                && IdenticalRows.areIdentical(db, mine, theirs, columns: columns, count: count)
            // The whole-table pass (every entity of a table at once) must answer alike.
            let byTable = try IdenticalRows.tableRowsAreIdentical(db, table: "T", columns: columns)
            #expect(byTable == byEntity)
            return byEntity
        }
    }

    @Test func equalRowsAreIdentical() throws {
        let rows: [[DatabaseValueConvertible?]] = [
            [1, 1, 1.5, "x"], [2, nil, 0.0, "é"], [3, Data([1, 2]), -2.0, nil],
        ]
        #expect(try identical(rows, rows))
    }

    @Test func anIntegerAndARealOfTheSameValueDifferWhereTheColumnKeepsBoth() throws {
        #expect(try !identical([[1, 1, 1.0, "x"]], [[1, 1.0, 1.0, "x"]]))
    }

    @Test func zeroAndNegativeZeroDifferWhereTheColumnKeepsTheSign() throws {
        #expect(try !identical([[1, 0.0, 1.0, "x"]], [[1, -0.0, 1.0, "x"]]))
        // FLOAT affinity stores -0.0 as 0.0: both stores hold the same bits.
        #expect(try identical([[1, 1, 0.0, "x"]], [[1, 1, -0.0, "x"]]))
    }

    @Test func canonicallyEquivalentTextDiffers() throws {
        #expect(try !identical([[1, 1, 1.0, "é"]], [[1, 1, 1.0, "e\u{301}"]]))
    }

    @Test func textAndANumberDiffer() throws {
        #expect(try !identical([[1, "1", 1.0, "x"]], [[1, 1, 1.0, "x"]]))
        #expect(try !identical([[1, Data("1".utf8), 1.0, "x"]], [[1, "1", 1.0, "x"]]))
    }

    @Test func otherKeysAreNotMatchedByPosition() throws {
        #expect(try !identical([[1, 1, 1.0, "x"]], [[2, 1, 1.0, "x"]]))
    }

    @Test func anyValueDifferenceIsFound() throws {
        #expect(try !identical([[1, 1, 1.0, "x"], [2, 2, 2.0, "y"]], [[1, 1, 1.0, "x"], [2, 2, 2.5, "y"]]))
    }

    @Test func theWholeTablePassComparesEveryEntitysRows() throws {
        try withTwoStores { db, index in
            try db.execute(sql: Self.schema)
            try db.execute(
                sql: "INSERT INTO \"T\" VALUES (1, 1, 1, 1.5, 'same'), (2, 2, 2, 2.5, ?)",
                arguments: [["x", "y"][index]])
        } _: { (db: Database) throws -> Void in
            let columns = ["Z_ENT", "A", "B", "C"].map {
                IdenticalRows.Column($0, $0, declaredTypes: (nil, nil))
            }
            // Entity 1's rows agree, entity 2's don't: the table as a whole isn't identical.
            let entity1 = (
                IdenticalRows.Side(schema: "main", table: "T", entity: 1),
                IdenticalRows.Side(schema: "other", table: "T", entity: 1)
            )
            #expect(try IdenticalRows.areIdentical(db, entity1.0, entity1.1, columns: columns, count: 1))
            #expect(try !IdenticalRows.tableRowsAreIdentical(db, table: "T", columns: columns))
        }
    }

    /// Writes `first` and `second` rows (`A`, `B`, `C`, `D`) into a table without keys, like a
    /// join table, in two stores, and asks whether they hold the same rows as multisets.
    func sameMultiset(_ first: [[DatabaseValueConvertible?]], _ second: [[DatabaseValueConvertible?]]) throws
        -> Bool
    {
        try withTwoStores { db, index in
            try db.execute(sql: "CREATE TABLE \"J\" (\"A\", \"B\" FLOAT, \"C\" VARCHAR, \"D\" INTEGER)")
            for row in [first, second][index] {
                try db.execute(sql: "INSERT INTO \"J\" VALUES (?, ?, ?, ?)", arguments: StatementArguments(row))
            }
        } _: { db in
            try IdenticalRows.tablesAreIdentical(
                db, table: "J", first: "main", second: "other", columns: columns(["A", "B", "C", "D"], of: "J", db))
        }
    }

    @Test func aJoinTableComparesAsAMultisetOfExactValues() throws {
        let row: [DatabaseValueConvertible?] = [1, 1.5, "x", 7]
        let other: [DatabaseValueConvertible?] = [2, 2.5, "y", 8]
        #expect(try sameMultiset([row, other], [other, row]))
        #expect(try !sameMultiset([row, row, other], [row, other, other]))
        #expect(try !sameMultiset([row], [row, row]))
        // An untyped column keeps the storage class and the zero's sign; FLOAT and INTEGER
        // columns store one form of each value in both stores.
        #expect(try !sameMultiset([[1, 1.5, "x", 7]], [[1.0, 1.5, "x", 7]]))
        #expect(try !sameMultiset([[0.0, 1.5, "x", 7]], [[-0.0, 1.5, "x", 7]]))
        #expect(try sameMultiset([[1, 0.0, "x", 7]], [[1, -0.0, "x", 7.0]]))
        #expect(try !sameMultiset([[1, 1.5, "\u{E9}", 7]], [[1, 1.5, "e\u{301}", 7]]))
        #expect(try !sameMultiset([[Data([1]), 1.5, "x", 7]], [[Data([2]), 1.5, "x", 7]]))
    }

    /// An entity wider than one query's chunk of columns: a difference in the last chunk only
    /// is still found.
    @Test func aDifferenceInALaterChunkOfColumnsIsFound() throws {
        let names = (0..<450).map { "C\($0)" }
        func identical(changing column: Int?) throws -> Bool {
            try withTwoStores { db, index in
                let columns = names.map { "\($0.quotedDatabaseIdentifier) INTEGER" }.joined(separator: ", ")
                try db.execute(
                    sql: "CREATE TABLE \"W\" (\"Z_PK\" INTEGER PRIMARY KEY, \"Z_ENT\" INTEGER, \(columns))")
                let values = names.indices.map { $0 == column && index == 1 ? -1 : $0 }
                let list = values.map(String.init).joined(separator: ", ")
                try db.execute(sql: "INSERT INTO \"W\" VALUES (1, 1, \(list)), (2, 1, \(list))")
            } _: { db in
                let columns = names.map { IdenticalRows.Column($0, $0, declaredTypes: ("INTEGER", "INTEGER")) }
                let sides = (
                    IdenticalRows.Side(schema: "main", table: "W", entity: 1),
                    IdenticalRows.Side(schema: "other", table: "W", entity: 1)
                )
                let byEntity = try IdenticalRows.areIdentical(db, sides.0, sides.1, columns: columns, count: 2)
                #expect(try IdenticalRows.tableRowsAreIdentical(db, table: "W", columns: columns) == byEntity)
                return byEntity
            }
        }
        #expect(try identical(changing: nil))
        #expect(try !identical(changing: 449))
        #expect(try !identical(changing: 0))
    }
}
