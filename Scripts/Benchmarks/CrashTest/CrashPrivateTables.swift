import Foundation
import GRDB
import StepwiseStore
import StepwiseTestSupport

/// The persistent history and CloudKit records of the crash test's store, and what the
/// upgraded store must make of them.
///
/// Every tag and every thousandth item (at least one) gets an insert change in its own
/// transaction, authored `Tag:<label>` or `Item:<key>`, and every tag a CloudKit record; the
/// sampled items an update of `tag` and `createdAt`; a deleted item (a key no item has) a
/// deletion and a pending CloudKit deletion, authored `Item:deleted`. The WAL variant adds one
/// more update, of item 1, only in the `-wal`. Through Bench → Bench 2 (rebuilt) → Bench 3
/// (in place) every change and record must still name its object, the deleted item's a key
/// above every item's, and the masks follow the columns.
enum CrashPrivateTables {
    /// Items that get history: every thousandth, and item 1 for small stores.
    static func sampledItems(rows: Int) -> [Int] {
        Array(Set([1] + Array(stride(from: 1000, through: rows, by: 1000)))).sorted()
    }

    /// The mask of an update of `tag` and `createdAt` in Bench ([tag, createdAt, name, note,
    /// value]) and in Bench 2 and 3, where `createdAt` is the third column ([tag, amount,
    /// createdAt, …]).
    static let maskBefore: [UInt8] = [0b1100_0000]
    static let maskAfter: [UInt8] = [0b1010_0000]

    /// Adds the tables and rows to the store at `url` (Bench, `rows` items).
    static func add(to url: URL, rows: Int) throws {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { db in
            try CoreDataPrivateTablesFixture.addTables(to: db)
            for key in 1...BenchModel.tagCount {
                try CoreDataPrivateTablesFixture.recordTransaction(
                    [.init(entity: 2, primaryKey: Int64(key), type: .insert)], author: "Tag:tag \(key)", in: db)
                try CoreDataPrivateTablesFixture.mirror(
                    entity: 2, primaryKey: Int64(key), recordName: "Tag:tag \(key)", in: db)
            }
            for key in sampledItems(rows: rows) {
                try CoreDataPrivateTablesFixture.recordTransaction(
                    [.init(entity: 1, primaryKey: Int64(key), type: .insert)], author: "Item:\(key)", in: db)
                try CoreDataPrivateTablesFixture.recordTransaction(
                    [.init(entity: 1, primaryKey: Int64(key), type: .update, columns: maskBefore)],
                    author: "Item:\(key)", in: db)
            }
            let deleted = Int64(rows + 10)
            try CoreDataPrivateTablesFixture.recordTransaction(
                [.init(entity: 1, primaryKey: deleted, type: .delete)], author: "Item:deleted", in: db)
            try CoreDataPrivateTablesFixture.mirror(
                entity: 1, primaryKey: deleted, recordName: "Item:deleted", needsCloudDelete: true, in: db)
        }
        _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
    }

    /// The WAL variant's extra change, written with the note in the `-wal`.
    static func addInWAL(_ db: Database) throws {
        try CoreDataPrivateTablesFixture.recordTransaction(
            [.init(entity: 1, primaryKey: 1, type: .update, columns: maskBefore)], author: "Item:1 (wal)", in: db)
    }

    /// Checks the private tables of an upgraded store (Bench 3). Throws a ``BenchError``.
    static func check(_ db: Database, rows: Int, withWAL: Bool) throws {
        let sampled = sampledItems(rows: rows).count
        let expected = BenchModel.tagCount + 2 * sampled + 1 + (withWAL ? 1 : 0)
        let changes = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ACHANGE") ?? -1
        let author = "(SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = t.ZAUTHORTS)"
        // Every change of a living object names it: items by their key (amount = 7 × key).
        let misnamed =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM ACHANGE AS c JOIN ATRANSACTION AS t ON t.Z_PK = c.ZTRANSACTIONID
                    WHERE \(author) <> 'Item:deleted' AND NOT (
                        (c.ZENTITY = 1 AND \(author) IN (
                            'Item:' || (SELECT ZAMOUNT / 7 FROM ZITEM WHERE Z_PK = c.ZENTITYPK),
                            'Item:' || (SELECT ZAMOUNT / 7 FROM ZITEM WHERE Z_PK = c.ZENTITYPK) || ' (wal)'))
                        OR (c.ZENTITY = 2 AND \(author) = 'Tag:' || (SELECT ZLABEL FROM ZTAG WHERE Z_PK = c.ZENTITYPK)))
                    """) ?? -1
        let misnamedRecords =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM ANSCKRECORDMETADATA AS r WHERE r.ZCKRECORDNAME <> 'Item:deleted'
                    AND NOT (r.ZENTITYID = 2 AND r.ZCKRECORDNAME = 'Tag:' || (SELECT ZLABEL FROM ZTAG WHERE Z_PK = r.ZENTITYPK))
                    """) ?? -1
        let itemMaximum = try Int.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 1") ?? -1
        // The deleted item's key is one above every item's: `rows + 1`, or above the items
        // that were only in the -wal (WALOnlyItems) too.
        let deletedKey = (try Int.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM ZITEM") ?? -2) + 1
        let deletedKeys = try Int.fetchAll(
            db,
            sql: """
                SELECT c.ZENTITYPK FROM ACHANGE AS c JOIN ATRANSACTION AS t ON t.Z_PK = c.ZTRANSACTIONID
                WHERE \(author) = 'Item:deleted'
                UNION ALL SELECT ZENTITYPK FROM ANSCKRECORDMETADATA WHERE ZCKRECORDNAME = 'Item:deleted'
                """)
        let masks = try Data.fetchAll(db, sql: "SELECT DISTINCT ZCOLUMNS FROM ACHANGE WHERE ZCHANGETYPE = 1")
        let walChanges =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM ACHANGE AS c JOIN ATRANSACTION AS t ON t.Z_PK = c.ZTRANSACTIONID
                    WHERE \(author) = 'Item:1 (wal)'
                    """) ?? -1
        guard changes == expected, misnamed == 0, misnamedRecords == 0, deletedKeys == [deletedKey, deletedKey],
            itemMaximum == deletedKey, deletedKey >= rows + 1, masks == [Data(maskAfter)],
            walChanges == (withWAL ? 1 : 0)
        else {
            throw BenchError(
                "history is wrong: \(changes) changes (want \(expected)), \(misnamed) name another object, \(misnamedRecords) records name another object, the deleted item's keys \(deletedKeys) (want \(deletedKey) twice, Z_MAX \(itemMaximum)), masks \(masks.map { [UInt8]($0) }) (want \(maskAfter)), \(walChanges) change from the -wal"
            )
        }
    }
}
