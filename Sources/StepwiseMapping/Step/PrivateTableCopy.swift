import GRDB
import StepwiseStore

/// Carries Core Data's private tables (persistent history, CloudKit mirroring:
/// ``/StepwiseStore/CoreDataPrivateTables``) from a rebuilding step's source, attached as
/// `src`, into its new destination, in the step's transaction.
///
/// The destination gets each table exactly as the source has it: its `CREATE TABLE` from
/// `sqlite_master` (their columns vary by Core Data release, so no layout could rebuild
/// them), then its rows in one `INSERT INTO … SELECT` per table, then its indexes (built
/// once, after the rows) and triggers. The rows are rewritten on the way as
/// ``PrivateTablePlan`` says: entity numbers and primary keys mapped through
/// ``PrivateTableKeys``, update masks through ``HistoryColumnsFunction``, the history cut
/// where ``HistoryTruncation`` cuts it, and a removed entity's CloudKit records left out.
/// The `Z_PRIMARYKEY` rows of Core Data's private entities come along with their `Z_MAX`.
/// `Z_MODELCACHE` is not carried: it holds the source's model.
///
/// Memory stays flat: rows go from table to table inside SQLite.
enum PrivateTableCopy {
    /// Copies the private tables of `src` into `main`. A source without any costs one read of
    /// its schema. Returns how many CloudKit records were copied under their objects' new keys.
    @discardableResult
    static func run(_ plan: PrivateTablePlan, manager: MigrationManager) throws -> Int {
        let db = manager.db
        let sourceSchema = MigrationStep.sourceSchema
        let source = sourceSchema.quotedSQLIdentifier
        try db.execute(
            sql: """
                INSERT INTO "main"."Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX")
                SELECT "Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX" FROM \(source)."Z_PRIMARYKEY"
                WHERE NOT (\(CoreDataPrivateTables.modelEntityCondition))
                """)
        let tables = try CoreDataPrivateTables.tables(in: db, schema: sourceSchema).filter(\.kind.isCarried)
        guard !tables.isEmpty else { return 0 }
        let truncation = try HistoryTruncation.lastTransaction(
            changing: Array(plan.removed.keys), in: tables, db: db, schema: sourceSchema)
        let mapsKeys = tables.contains { $0.entityReference != nil }
        if mapsKeys {
            try PrivateTableKeys.make(for: tables, plan: plan, truncation: truncation, manager: manager)
        }
        defer {
            if mapsKeys { try? db.execute(sql: "DROP TABLE IF EXISTS \(PrivateTableKeys.qualifiedName)") }
        }
        HistoryColumnsFunction.register(plan.maskChanges, in: db)
        var records = 0
        for table in tables {
            try db.execute(sql: table.createStatement)
            try db.execute(sql: insertStatement(for: table, plan: plan, truncation: truncation, mapsKeys: mapsKeys))
            if table.kind == .cloudKitMirroring, table.entityReference != nil { records += db.changesCount }
            for statement in table.indexStatements + table.triggerStatements {
                try db.execute(sql: statement)
            }
        }
        return records
    }

    /// `INSERT INTO main.<table> (…) SELECT … FROM src.<table> …`, with the columns that name
    /// objects or hold update masks rewritten and the dropped rows left out.
    private static func insertStatement(
        for table: CoreDataPrivateTables.Table, plan: PrivateTablePlan, truncation: Int64?, mapsKeys: Bool
    ) -> String {
        let row = "\"s\""
        let reference = table.entityReference
        let remapsMasks =
            table.name.uppercased() == CoreDataPrivateTables.changeTableName && !plan.maskChanges.isEmpty
            && Set(table.columns.map { $0.uppercased() }).isSuperset(of: ["ZCOLUMNS", "ZCHANGETYPE", "ZENTITY"])
        let values = table.columns.map { column -> String in
            let name = column.uppercased()
            if let reference, mapsKeys {
                if name == reference.entityColumn {
                    return "COALESCE(\"k\".destination_entity, \(row).\(column.quotedSQLIdentifier))"
                }
                if name == reference.primaryKeyColumn {
                    // A CloudKit record's object is its own (``PrivateTableKeys``).
                    let key =
                        table.kind == .cloudKitMirroring
                        ? "\"k\".record_pk, \"k\".destination_pk" : "\"k\".destination_pk"
                    return "COALESCE(\(key), \(row).\(column.quotedSQLIdentifier))"
                }
            }
            if remapsMasks, name == "ZCOLUMNS" {
                return HistoryColumnsFunction.expression(row: row)
            }
            return "\(row).\(column.quotedSQLIdentifier)"
        }
        var from = "\(MigrationStep.sourceSchema.quotedSQLIdentifier).\(table.name.quotedSQLIdentifier) AS \(row)"
        if let reference, mapsKeys {
            from += """
                 LEFT JOIN \(PrivateTableKeys.qualifiedName) AS "k"
                    ON "k".source_entity = \(row).\(reference.entityColumn.quotedSQLIdentifier)
                   AND "k".source_pk = \(row).\(reference.primaryKeyColumn.quotedSQLIdentifier)
                """
        }
        var conditions: [String] = []
        if let truncation, let kept = HistoryTruncation.keptRows(of: table, after: truncation, row: row) {
            conditions.append(kept)
        }
        if let reference, table.kind == .cloudKitMirroring, !plan.removed.isEmpty {
            let entity = "\(row).\(reference.entityColumn.quotedSQLIdentifier)"
            conditions.append("(\(entity) IS NULL OR \(entity) NOT IN (\(plan.removedNumberList)))")
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        return """
            INSERT INTO "main".\(table.name.quotedSQLIdentifier) (\(table.columns.map(\.quotedSQLIdentifier).joined(separator: ", ")))
            SELECT \(values.joined(separator: ", ")) FROM \(from)\(filter)
            """
    }
}
