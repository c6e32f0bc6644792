import GRDB
import StepwiseStore

/// What an in-place step (``InPlaceMigration``) does to Core Data's private tables
/// (``/StepwiseStore/CoreDataPrivateTables``), which it otherwise keeps exactly as they are,
/// indexes and `Z_PRIMARYKEY` rows included.
///
/// An in-place step on a store that has them keeps every entity number (a step that would
/// renumber entities rebuilds such a store: ``InPlaceRenumbering``) and primary key, so only
/// what Core Data's own in-place migrator changes is changed (``PrivateTablePlan``):
/// - the history is cut where a removed entity's last change was (``HistoryTruncation``), and
///   the removed entity's CloudKit records are deleted;
/// - update masks of entities whose properties change are rewritten (``HistoryColumnsFunction``).
///
/// It runs in the step's transaction, after the model tables are altered, and in its
/// rehearsal too (on empty tables).
enum PrivateTableInPlace {
    static func apply(_ plan: PrivateTablePlan, in db: Database) throws {
        let tables = try CoreDataPrivateTables.tables(in: db).filter(\.kind.isCarried)
        guard !tables.isEmpty else { return }
        if let last = try HistoryTruncation.lastTransaction(changing: Array(plan.removed.keys), in: tables, db: db) {
            for table in tables {
                guard let kept = HistoryTruncation.keptRows(of: table, after: last, row: table.name.quotedSQLIdentifier)
                else { continue }
                try db.execute(sql: "DELETE FROM \(table.name.quotedSQLIdentifier) WHERE NOT \(kept)")
            }
        }
        if !plan.removed.isEmpty {
            for table in tables where table.kind == .cloudKitMirroring {
                guard let reference = table.entityReference else { continue }
                try db.execute(
                    sql: """
                        DELETE FROM \(table.name.quotedSQLIdentifier)
                        WHERE \(reference.entityColumn.quotedSQLIdentifier) IN (\(plan.removedNumberList))
                        """)
            }
        }
        let changed = plan.maskChanges.map { String($0.sourceNumber) }.joined(separator: ", ")
        guard !changed.isEmpty,
            let change = tables.first(where: { $0.name.uppercased() == CoreDataPrivateTables.changeTableName }),
            Set(change.columns.map { $0.uppercased() }).isSuperset(of: ["ZCOLUMNS", "ZCHANGETYPE", "ZENTITY"])
        else { return }
        HistoryColumnsFunction.register(plan.maskChanges, in: db)
        let table = change.name.quotedSQLIdentifier
        try db.execute(
            sql: """
                UPDATE \(table) SET "ZCOLUMNS" = \(HistoryColumnsFunction.expression(row: table))
                WHERE "ZCHANGETYPE" = 1 AND "ZENTITY" IN (\(changed))
                """)
    }
}
