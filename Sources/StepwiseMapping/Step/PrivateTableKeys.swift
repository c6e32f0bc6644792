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
/// - **A carried object** takes the key its first entity mapping gave it (of the mapping's
///   destination entity; the lowest, when a policy split it in several). Objects a policy
///   merged into one all name that one in the history (`destination_pk`).
/// - **An object that no longer exists**: a history change of a deleted object, the CloudKit
///   record of an object whose deletion isn't exported yet, an object a mapping's filter left
///   behind. It gets a new key of its destination entity above every key in use, and `Z_MAX`
///   is raised past it, so that no object, then or later, is ever taken for it: the history
///   would otherwise report a change of one object as a change of another, and CloudKit could
///   export a pending deletion as the deletion of an unrelated record. (Core Data's own
///   migrator never renumbers primary keys, so it never meets this case.)
/// - **A CloudKit record of an object merged into another**: a record's object must be its own
///   (`ANSCKRECORDMETADATA` has a unique index on `ZENTITYID, ZENTITYPK`), so only the first
///   record keeps the merged object; the others get new keys as above (`record_pk`).
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
                    mirrored INTEGER NOT NULL DEFAULT 0,
                    destination_entity INTEGER,
                    destination_pk INTEGER,
                    record_pk INTEGER,
                    PRIMARY KEY (source_entity, source_pk)
                ) WITHOUT ROWID;
                CREATE INDEX temp.\("\(tableName)_destination".quotedSQLIdentifier)
                    ON \(tableName.quotedSQLIdentifier) (destination_entity, destination_pk);
                """)
        let carried = plan.carried.keys.sorted().map(String.init).joined(separator: ", ")
        guard !carried.isEmpty else { return 0 }
        try collectReferences(in: tables, carried: carried, truncation: truncation, db: db)
        try takeAssociatedKeys(plan: plan, manager: manager)
        let bySourceRoot = Dictionary(grouping: plan.carried.values.filter { $0.destinationRootNumber != nil }) {
            $0.destinationRootNumber ?? 0
        }
        var handedOut = 0
        for (root, entities) in bySourceRoot.sorted(by: { $0.key < $1.key }) {
            let sources = entities.map(\.sourceNumber).sorted().map(String.init).joined(separator: ", ")
            let destinations = entities.sorted { $0.sourceNumber < $1.sourceNumber }.compactMap { entity in
                entity.destinationNumber.map { "WHEN \(entity.sourceNumber) THEN \($0)" }
            }.joined(separator: " ")
            handedOut += try handOutNewKeys(
                to: "destination_pk IS NULL AND source_entity IN (\(sources))", root: root,
                assigning: "destination_entity = CASE source_entity \(destinations) END, destination_pk", db: db)
        }
        // A record whose object an earlier record already names (two objects merged into one).
        let taken = """
            mirrored = 1 AND destination_pk IS NOT NULL AND EXISTS (
                SELECT 1 FROM \(qualifiedName) AS "o"
                WHERE "o".mirrored = 1 AND "o".destination_entity = \(row).destination_entity
                  AND "o".destination_pk = \(row).destination_pk
                  AND ("o".source_entity < \(row).source_entity
                       OR ("o".source_entity = \(row).source_entity AND "o".source_pk < \(row).source_pk)))
            """
        let destinationRoots = Dictionary(grouping: manager.destinationLayout.entities) {
            manager.destinationLayout.entity(named: $0.rootName)?.number ?? $0.number
        }
        for (root, entities) in destinationRoots.sorted(by: { $0.key < $1.key }) {
            let numbers = entities.map { String($0.number) }.joined(separator: ", ")
            handedOut += try handOutNewKeys(
                to: "\(taken) AND destination_entity IN (\(numbers))", root: root, assigning: "record_pk", db: db)
        }
        return handedOut
    }

    /// Adds a row for every object a private table of the source names, and marks those a
    /// CloudKit table names (`mirrored`).
    private static func collectReferences(
        in tables: [CoreDataPrivateTables.Table], carried: String, truncation: Int64?, db: Database
    ) throws {
        let source = MigrationStep.sourceSchema.quotedSQLIdentifier
        for table in tables {
            guard let reference = table.entityReference else { continue }
            let entity = reference.entityColumn.quotedSQLIdentifier
            let key = reference.primaryKeyColumn.quotedSQLIdentifier
            var condition = "\(entity) IN (\(carried)) AND \(key) IS NOT NULL"
            if let truncation, let kept = HistoryTruncation.keptRows(of: table, after: truncation, row: "\"r\"") {
                condition += " AND \(kept)"
            }
            let mirrored = table.kind == .cloudKitMirroring ? 1 : 0
            // An upsert after a SELECT needs its WHERE (SQLite's parsing rule); there always is one.
            try db.execute(
                sql: """
                    INSERT INTO \(qualifiedName) (source_entity, source_pk, mirrored)
                    SELECT \(entity), \(key), \(mirrored) FROM \(source).\(table.name.quotedSQLIdentifier) AS "r"
                    WHERE \(condition)
                    ON CONFLICT (source_entity, source_pk) DO UPDATE SET mirrored = MAX(mirrored, excluded.mirrored)
                    """)
        }
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
            // A policy may associate objects of other entities too: the mapping's own come first.
            let own =
                lookup.mapping.destinationEntity.flatMap { manager.destinationLayout.entity(named: $0)?.number } ?? 0
            try manager.db.execute(
                sql: """
                    UPDATE \(qualifiedName) SET (destination_entity, destination_pk) = (
                        SELECT "a".destination_entity, "a".destination_pk \(associated)
                        ORDER BY "a".destination_entity = \(own) DESC, "a".destination_pk LIMIT 1)
                    WHERE source_entity = ? AND destination_pk IS NULL AND EXISTS (SELECT 1 \(associated))
                    """,
                arguments: [entity.number])
        }
    }

    /// New keys of the table whose root is `root`, for the rows `condition` selects, numbered
    /// in source order above its `Z_MAX`, which is raised past them; `assigning` is the
    /// `SET` list up to the new key (`…, destination_pk`). Returns how many there are.
    private static func handOutNewKeys(to condition: String, root: Int, assigning: String, db: Database) throws
        -> Int
    {
        let numbered = "temp.\("stepwise_private_new_keys".quotedSQLIdentifier)"
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS "stepwise_private_new_keys" (
                    source_entity INTEGER NOT NULL, source_pk INTEGER NOT NULL, position INTEGER NOT NULL,
                    PRIMARY KEY (source_entity, source_pk)) WITHOUT ROWID;
                DELETE FROM \(numbered);
                """)
        defer { try? db.execute(sql: "DROP TABLE IF EXISTS \(numbered)") }
        try db.execute(
            sql: """
                INSERT INTO \(numbered) (source_entity, source_pk, position)
                SELECT source_entity, source_pk, ROW_NUMBER() OVER (ORDER BY source_entity, source_pk)
                FROM \(qualifiedName) WHERE \(condition)
                """)
        let count = db.changesCount
        guard count > 0 else { return 0 }
        try db.execute(
            sql: """
                UPDATE \(qualifiedName) SET \(assigning) =
                    (SELECT "Z_MAX" FROM "main"."Z_PRIMARYKEY" WHERE "Z_ENT" = \(root))
                    + (SELECT "n".position FROM \(numbered) AS "n"
                       WHERE "n".source_entity = \(row).source_entity AND "n".source_pk = \(row).source_pk)
                WHERE (source_entity, source_pk) IN (SELECT source_entity, source_pk FROM \(numbered))
                """)
        try db.execute(
            sql: #"UPDATE "main"."Z_PRIMARYKEY" SET "Z_MAX" = "Z_MAX" + ? WHERE "Z_ENT" = ?"#,
            arguments: [count, root])
        return count
    }
}
