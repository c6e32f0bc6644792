import GRDB
import StepwiseStore

extension DropCounter {
    /// What Core Data's private tables lose with the entities whose rows `drops` drops
    /// (``DroppedData/Kind/entity``), counted in the store: the persistent history up to the
    /// last transaction that changed one of them (``DroppedData/Kind/persistentHistory``, one
    /// entry named after the entity of that last change) and their objects' CloudKit records
    /// (``DroppedData/Kind/cloudKitMetadata``, one entry per entity that has some). Each entry
    /// takes the reason of its entity's drop. Empty when the store has no such tables, or they
    /// hold nothing of these entities.
    ///
    /// A step drops exactly this (``PrivateTablePlan``), as Core Data's migrator does.
    package func privateTableDrops(for drops: [DroppedData], in db: Database) throws -> [DroppedData] {
        var removed: [Int: DroppedData] = [:]
        for drop in drops where drop.kind == .entity {
            if let entity = layout.entity(named: drop.entity) { removed[entity.number] = drop }
        }
        guard !removed.isEmpty else { return [] }
        let tables = try CoreDataPrivateTables.tables(in: db).filter(\.kind.isCarried)
        guard !tables.isEmpty else { return [] }
        var found: [DroppedData] = []
        let numbers = removed.keys.sorted()
        if let last = try HistoryTruncation.lastTransaction(changing: numbers, in: tables, db: db) {
            let list = numbers.map(String.init).joined(separator: ", ")
            let cutBy =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT "ZENTITY" FROM "ACHANGE" WHERE "ZTRANSACTIONID" = ? AND "ZENTITY" IN (\(list))
                        ORDER BY "ZENTITY" LIMIT 1
                        """,
                    arguments: [last]) ?? numbers[0]
            let changes =
                try Int.fetchOne(
                    db, sql: #"SELECT COUNT(*) FROM "ACHANGE" WHERE "ZTRANSACTIONID" <= ?"#,
                    arguments: [last]) ?? 0
            if let drop = removed[cutBy] {
                found.append(
                    DroppedData(entity: drop.entity, kind: .persistentHistory, reason: drop.reason, count: changes))
            }
        }
        let references = tables.filter { $0.kind == .cloudKitMirroring }.compactMap(\.entityReference)
        for number in numbers {
            guard let drop = removed[number], !references.isEmpty else { continue }
            var records = 0
            for reference in references {
                records +=
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM \(reference.table.quotedSQLIdentifier)
                            WHERE \(reference.entityColumn.quotedSQLIdentifier) = ?
                            """,
                        arguments: [number]) ?? 0
            }
            if records > 0 {
                found.append(
                    DroppedData(entity: drop.entity, kind: .cloudKitMetadata, reason: drop.reason, count: records))
            }
        }
        return found
    }
}
