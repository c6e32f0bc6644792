import GRDB
import StepwiseStore

/// Where a step cuts the persistent history when it removes entities: Core Data's rule.
///
/// History can't name an object of an entity the destination doesn't have, so when a
/// migration removes entities, Core Data's migrator (`-[_NSSQLiteStoreMigrator
/// deleteStatementsForHistory]`) finds the last transaction that changed one of them,
/// `SELECT MAX(ZTRANSACTIONID) FROM ACHANGE WHERE ZENTITY IN (<removed>)`, and deletes every
/// transaction up to it and their changes: `DELETE FROM ATRANSACTION WHERE Z_PK <= <last>`,
/// `DELETE FROM ACHANGE WHERE ZTRANSACTIONID <= <last>`. It logs "Persistent History (<last>)
/// has to be truncated due to the following entities being removed", as apps' logs show.
/// (Apps that pass `NSPersistentHistoryAllowPartialHistoryMigration` get only the removed
/// entities' changes deleted instead; Stepwise has no such option and does the default.)
/// Transactions after the cut keep their numbers, so history tokens an app kept stay valid.
///
/// `ATRANSACTIONSTRING` is left as it is, as Core Data leaves it.
enum HistoryTruncation {
    /// The number of the last transaction that changed one of the `removed` entities (source
    /// `Z_ENT`s), in the history tables of `schema`; nil when none did, or the store keeps no
    /// history. Transactions up to it, and their changes, are dropped.
    static func lastTransaction(
        changing removed: [Int], in tables: [CoreDataPrivateTables.Table], db: Database, schema: String = "main"
    ) throws -> Int64? {
        guard !removed.isEmpty, hasHistory(tables) else { return nil }
        let list = removed.sorted().map(String.init).joined(separator: ", ")
        return try Int64.fetchOne(
            db,
            sql: """
                SELECT MAX("ZTRANSACTIONID") FROM \(schema.quotedSQLIdentifier)."ACHANGE" WHERE "ZENTITY" IN (\(list))
                """)
    }

    /// Whether `tables` hold a history with the columns the cut reads.
    static func hasHistory(_ tables: [CoreDataPrivateTables.Table]) -> Bool {
        let change = tables.first { $0.name.uppercased() == CoreDataPrivateTables.changeTableName }
        let columns = Set(change?.columns.map { $0.uppercased() } ?? [])
        return columns.isSuperset(of: ["ZENTITY", "ZTRANSACTIONID"])
            && tables.contains { $0.name.uppercased() == CoreDataPrivateTables.transactionTableName }
    }

    /// The condition that keeps a row of `table` past the cut at `last`, aliased `row`; nil for
    /// a table the cut doesn't touch. A change without a transaction number is kept, as
    /// Core Data's `DELETE … WHERE ZTRANSACTIONID <= …` keeps it.
    static func keptRows(of table: CoreDataPrivateTables.Table, after last: Int64, row: String) -> String? {
        switch table.name.uppercased() {
        case CoreDataPrivateTables.changeTableName:
            let transaction = "\(row).\"ZTRANSACTIONID\""
            return "(\(transaction) IS NULL OR \(transaction) > \(last))"
        case CoreDataPrivateTables.transactionTableName:
            return "\(row).\"Z_PK\" > \(last)"
        default:
            return nil
        }
    }
}
