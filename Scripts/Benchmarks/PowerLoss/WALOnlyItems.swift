import Foundation
import GRDB
import StepwiseStore

/// Whole rows that exist only in the power-loss store's `-wal`: new items, each with a tag,
/// written after the main file's last checkpoint. A power loss at any sync must keep every one
/// of them (issue 26: "the store has rows only in its -wal").
///
/// Their keys start above the key ``CrashPrivateTables`` gives its deleted item (`rows + 10`),
/// so no history change names them; each note says which key it had (`only in the -wal: 7`
/// for the 7th), and its amount is `7 × key`, as every item's.
struct WALOnlyItems {
    /// The keys of the new items.
    var keys: [Int]

    /// `count` items above a store of `rows` items.
    init(count: Int, rows: Int) {
        keys = Array((rows + 11)..<(rows + 11 + count))
    }

    static let notePrefix = "only in the -wal: "

    func note(_ key: Int) -> String { Self.notePrefix + "\(key)" }

    /// The tag the item of `key` points to, as the seeder's items do.
    func tag(_ key: Int) -> Int { (key % BenchModel.tagCount) + 1 }

    /// Inserts the items in `db` (Bench), in the transaction that stays in the `-wal`.
    func insert(_ db: Database) throws {
        let entity = try Int.fetchOne(db, sql: #"SELECT "Z_ENT" FROM "Z_PRIMARYKEY" WHERE "Z_NAME" = 'Item'"#)
        guard let entity else { throw BenchError("the store has no Item in Z_PRIMARYKEY") }
        let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
        for key in keys {
            try db.execute(
                sql: """
                    INSERT INTO "ZITEM" ("Z_PK", "Z_ENT", "Z_OPT", "ZNAME", "ZVALUE", "ZCREATEDAT", "ZNOTE", "ZTAG")
                    VALUES (?, ?, 1, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    key, entity, "WAL Item \(key)", key * 7,
                    start.addingTimeInterval(Double(key)).timeIntervalSinceReferenceDate, note(key), tag(key),
                ])
        }
        if let last = keys.last {
            try db.execute(
                sql: #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = MAX("Z_MAX", ?) WHERE "Z_ENT" = ?"#,
                arguments: [last, entity])
        }
    }

    /// How many of the items a store holds, whole: note, amount and tag as written. `remark`
    /// is the note's column (`ZNOTE` in Bench and Bench 2, `ZREMARK` in Bench 3).
    func countPresent(_ db: Database, noteColumn: String) throws -> Int {
        let column = noteColumn.quotedSQLIdentifier
        let amount = try db.columns(in: "ZITEM").contains { $0.name == "ZAMOUNT" } ? "ZAMOUNT" : "ZVALUE"
        return try Int.fetchOne(
            db,
            sql: """
                SELECT COUNT(DISTINCT i."Z_PK") FROM "ZITEM" AS i JOIN "ZTAG" AS t ON t."Z_PK" = i."ZTAG"
                WHERE i.\(column) = ? || (i.\(amount.quotedSQLIdentifier) / 7)
                AND t."ZLABEL" = 'tag ' || ((i.\(amount.quotedSQLIdentifier) / 7) % ? + 1)
                AND i.\(amount.quotedSQLIdentifier) / 7 BETWEEN ? AND ?
                """,
            arguments: [Self.notePrefix, BenchModel.tagCount, keys.first ?? 0, keys.last ?? -1]) ?? -1
    }

    /// Checks that the items are in the `-wal` only: a copy of the main file alone has none of
    /// them, and a copy of the main file with its `-wal` has all. Throws a ``BenchError``.
    func checkOnlyInWAL(of store: URL) throws {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("power-loss-wal-check-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for withWAL in [false, true] {
            let copy = scratch.appendingPathComponent("\(withWAL ? "with" : "without")-wal.sqlite")
            try FileManager.default.copyItem(at: store, to: copy)
            if withWAL { try FileManager.default.copyItem(atPath: store.path + "-wal", toPath: copy.path + "-wal") }
            let queue = try DatabaseQueue(path: copy.path)
            let present = try queue.read { db in try countPresent(db, noteColumn: "ZNOTE") }
            try queue.close()
            guard present == (withWAL ? keys.count : 0) else {
                throw BenchError(
                    "the store's main file \(withWAL ? "with its -wal " : "alone ")holds \(present) of the \(keys.count) items meant to be only in the -wal"
                )
            }
        }
    }
}
