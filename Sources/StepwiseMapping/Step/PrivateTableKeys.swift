import GRDB
import StepwiseStore

/// The keys a rebuilding step gives the objects that Core Data's private tables name
/// (``/StepwiseStore/CoreDataPrivateTables/EntityReference``): `temp.stepwise_private_keys`,
/// source `(Z_ENT, Z_PK)` → destination `(Z_ENT, Z_PK)`.
///
/// A rebuild numbers each destination table's rows from 1 in the order its mappings make them,
/// so the keys a history change or a CloudKit record holds must follow, the way relationships
/// do: through the step's association tables (``MigrationManager``, one per entity mapping,
/// source key → destination key). Only the objects the private tables name get a row here,
/// and everything happens in SQL: a store's history is never held in memory.
///
/// - **A carried object** takes the key its first entity mapping gave it (the lowest, when a
///   policy split it in several).
/// - **An object that no longer exists**: a history change of a deleted object, the CloudKit
///   record of an object whose deletion isn't exported yet, an object a mapping's filter left
///   behind, or the second of two objects a policy merged into one. It gets a new key of its
///   destination entity above every key in use, and `Z_MAX` is raised past it, so that no
///   object, then or later, is ever taken for it: Core Data's history would otherwise report a
///   change of one object as a change of another, and CloudKit could export a pending deletion
///   as the deletion of an unrelated record. (Core Data's own migrator never renumbers primary
///   keys, so it never meets this case.)
///
/// The table is filled before the private tables are copied, so each copied row is read once
/// and written once, already mapped.
enum PrivateTableKeys {
    /// The table's name in the `temp` schema.
    static let tableName = "stepwise_private_keys"

    /// `temp."stepwise_private_keys"`.
    static var qualifiedName: String { "temp.\(tableName.quotedSQLIdentifier)" }

    /// The table's row in a correlated subquery of an `UPDATE` of it (an `UPDATE` can't alias it).
    private static var row: String { tableName.quotedSQLIdentifier }

    /// Creates and fills the table for the references of `tables` (in the attached source,
    /// `src`). `truncation` is the last transaction number the step drops (its changes need no
    /// key). Returns how many new keys were handed out.
    @discardableResult
    static func make(
        for tables: [CoreDataPrivateTables.Table], plan: PrivateTablePlan, truncation: Int64?,
        manager: MigrationManager
    ) throws -> Int {
        let db = manager.db
        try db.execute(
            sql: """
                CREATE TEMP TABLE \(tableName.quotedSQLIdentifier) (
                    source_entity INTEGER NOT NULL,
                    source_pk INTEGER NOT NULL,
                    destination_entity INTEGER,
                    destination_pk INTEGER,
                    PRIMARY KEY (source_entity, source_pk)
                ) WITHOUT ROWID;
                CREATE INDEX temp.\("\(tableName)_destination".quotedSQLIdentifier)
                    ON \(tableName.quotedSQLIdentifier) (destination_entity, destination_pk);
                """)
        let carried = plan.carried.keys.sorted().map(String.init).joined(separator: ", ")
        guard !carried.isEmpty else { return 0 }
        let source = MigrationStep.sourceSchema.quotedSQLIdentifier
        for table in tables {
            guard let reference = table.entityReference else { continue }
            let entity = reference.entityColumn.quotedSQLIdentifier
            let key = reference.primaryKeyColumn.quotedSQLIdentifier
            var condition = "\(entity) IN (\(carried)) AND \(key) IS NOT NULL"
            if let truncation, table.name.uppercased() == CoreDataPrivateTables.changeTableName {
                condition += " AND (\"ZTRANSACTIONID\" IS NULL OR \"ZTRANSACTIONID\" > \(truncation))"
            }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO \(qualifiedName) (source_entity, source_pk)
                    SELECT \(entity), \(key) FROM \(source).\(table.name.quotedSQLIdentifier) WHERE \(condition)
                    """)
        }
        try takeAssociatedKeys(plan: plan, manager: manager)
        // Two sources merged into one destination object: the first keeps it, the others get
        // new keys, so no two history identities or CloudKit records name the same object.
        try db.execute(
            sql: """
                UPDATE \(qualifiedName) SET destination_entity = NULL, destination_pk = NULL
                WHERE destination_pk IS NOT NULL AND EXISTS (
                    SELECT 1 FROM \(qualifiedName) AS "o"
                    WHERE "o".destination_entity = \(row).destination_entity AND "o".destination_pk = \(row).destination_pk
                      AND ("o".source_entity < \(row).source_entity
                           OR ("o".source_entity = \(row).source_entity AND "o".source_pk < \(row).source_pk)))
                """)
        return try handOutNewKeys(plan: plan, db: db)
    }

    /// Gives each carried object the destination key of its first association.
    private static func takeAssociatedKeys(plan: PrivateTablePlan, manager: MigrationManager) throws {
        // The associations of a row-by-row pass may still be buffered; reserved primary keys
        // must be given back before Z_MAX is read.
        try manager.flushPrimaryKeys()
        for lookup in manager.lookupTables where lookup.mapping.carriesSourceRows {
            guard let name = lookup.mapping.sourceEntity, let entity = manager.sourceLayout.entity(named: name),
                plan.carried[entity.number] != nil
            else { continue }
            let associated = """
                FROM \(lookup.qualifiedName) AS "a" WHERE "a".source_pk = \(row).source_pk
                """
            try manager.db.execute(
                sql: """
                    UPDATE \(qualifiedName) SET (destination_entity, destination_pk) = (
                        SELECT "a".destination_entity, "a".destination_pk \(associated)
                        ORDER BY "a".destination_pk LIMIT 1)
                    WHERE source_entity = ? AND destination_pk IS NULL AND EXISTS (SELECT 1 \(associated))
                    """,
                arguments: [entity.number])
        }
    }

    /// New keys for the objects no association names, table by table, above `Z_MAX`, which is
    /// raised past them. Returns how many there are.
    private static func handOutNewKeys(plan: PrivateTablePlan, db: Database) throws -> Int {
        let numbered = "stepwise_private_new_keys"
        try db.execute(
            sql: """
                CREATE TEMP TABLE \(numbered.quotedSQLIdentifier) (
                    source_entity INTEGER NOT NULL, source_pk INTEGER NOT NULL, position INTEGER NOT NULL,
                    PRIMARY KEY (source_entity, source_pk)) WITHOUT ROWID
                """)
        defer { try? db.execute(sql: "DROP TABLE temp.\(numbered.quotedSQLIdentifier)") }
        let byRoot = Dictionary(grouping: plan.carried.values.filter { $0.destinationRootNumber != nil }) {
            $0.destinationRootNumber ?? 0
        }
        var handedOut = 0
        for (root, entities) in byRoot.sorted(by: { $0.key < $1.key }) {
            let sources = entities.map(\.sourceNumber).sorted().map(String.init).joined(separator: ", ")
            let destinations = entities.sorted { $0.sourceNumber < $1.sourceNumber }.compactMap { entity in
                entity.destinationNumber.map { "WHEN \(entity.sourceNumber) THEN \($0)" }
            }.joined(separator: " ")
            try db.execute(sql: "DELETE FROM temp.\(numbered.quotedSQLIdentifier)")
            try db.execute(
                sql: """
                    INSERT INTO temp.\(numbered.quotedSQLIdentifier) (source_entity, source_pk, position)
                    SELECT source_entity, source_pk, ROW_NUMBER() OVER (ORDER BY source_entity, source_pk)
                    FROM \(qualifiedName) WHERE destination_pk IS NULL AND source_entity IN (\(sources))
                    """)
            let count = db.changesCount
            guard count > 0 else { continue }
            let maximum = #"(SELECT "Z_MAX" FROM "main"."Z_PRIMARYKEY" WHERE "Z_ENT" = \#(root))"#
            try db.execute(
                sql: """
                    UPDATE \(qualifiedName) SET
                        destination_entity = CASE source_entity \(destinations) END,
                        destination_pk = \(maximum) + (
                            SELECT "n".position FROM temp.\(numbered.quotedSQLIdentifier) AS "n"
                            WHERE "n".source_entity = \(row).source_entity AND "n".source_pk = \(row).source_pk)
                    WHERE destination_pk IS NULL AND source_entity IN (\(sources))
                    """)
            try db.execute(
                sql: #"UPDATE "main"."Z_PRIMARYKEY" SET "Z_MAX" = "Z_MAX" + ? WHERE "Z_ENT" = ?"#,
                arguments: [count, root])
            handedOut += count
        }
        return handedOut
    }
}
