import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// The schema work around a ``PartialRebuildPlan``'s passes, in the destination file (a copy
/// of the source), inside the step's one transaction:
///
/// Before the passes (``prepare(_:in:destination:)``):
/// 1. drop the plain indexes of the source tables that are moved aside: SQLite moves an index
///    with its table but keeps its name, which the destination's index of the same name needs
///    (a UNIQUE constraint's automatic index is renamed with its table);
/// 2. move those tables aside (`ALTER TABLE … RENAME TO stepwise_source_…`), and drop
///    `Z_MODELCACHE`, Core Data's copy of the old model;
/// 3. create the rebuilt tables empty, with their unique indexes but not the plain ones:
///    pass 1 fills them faster, and step 2 of ``finish(_:in:destination:)`` sorts each index once;
/// 4. make `Z_PRIMARYKEY` the destination's, with the rebuilt entities' `Z_MAX` back at 0
///    (their rows are made anew) and the kept ones' as they were.
///
/// After the passes (``finish(_:in:destination:)``):
/// 1. drop the moved source tables;
/// 2. make the indexes the destination layout's (``InPlaceIndexes``);
/// 3. update Core Data's private tables as the in-place path does (``PrivateTableInPlace``);
/// 4. compare the schema with the destination layout's: any difference is
///    ``InPlaceMigration/Rejected``.
///
/// ``rehearse(_:schemaOf:destination:)`` runs both on an empty copy of the source's schema
/// first, so the real file is only touched once the result is known to be the destination's.
enum PartialRebuild {
    static func prepare(_ plan: PartialRebuildPlan, in db: Database, destination: StoreLayout) throws {
        for (table, scratch) in plan.movedSourceTables.sorted(by: { $0.key < $1.key }) {
            let indexes = try String.fetchAll(
                db,
                sql: """
                    SELECT "name" FROM "main"."sqlite_master"
                    WHERE "type" = 'index' AND "tbl_name" = ? COLLATE NOCASE AND "sql" IS NOT NULL
                    """,
                arguments: [table])
            for index in indexes {
                try db.execute(sql: "DROP INDEX \"main\".\(index.quotedSQLIdentifier)")
            }
            try db.execute(
                sql: "ALTER TABLE \"main\".\(table.quotedSQLIdentifier) RENAME TO \(scratch.quotedSQLIdentifier)")
        }
        try db.execute(sql: "DROP TABLE IF EXISTS \"main\".\(StoreLayout.modelCacheTableName.quotedSQLIdentifier)")
        for table in plan.rebuiltTables {
            try db.execute(sql: table.createStatement)
            // Unique indexes now, as a new store has them (the passes swap them for plain
            // stand-ins until the step ends, ``UniquenessCheckedAtEnd``); the plain ones in
            // `finish`, sorted once over the filled table.
            for index in destination.indexes(on: table.name) where index.isUnique {
                try db.execute(sql: index.createStatement)
            }
        }
        try InPlaceMigration.rewritePrimaryKeyRows(for: destination, in: db)
        let restarted = plan.rebuiltEntityNumbers(in: destination)
        if !restarted.isEmpty {
            try db.execute(
                sql: """
                    UPDATE "main"."Z_PRIMARYKEY" SET "Z_MAX" = 0
                    WHERE "Z_ENT" IN (\(restarted.map(String.init).joined(separator: ", ")))
                    """)
        }
    }

    static func finish(_ plan: PartialRebuildPlan, in db: Database, destination: StoreLayout) throws {
        for scratch in plan.movedSourceTables.values.sorted() {
            try db.execute(sql: "DROP TABLE \"main\".\(scratch.quotedSQLIdentifier)")
        }
        try InPlaceIndexes.reconcile(with: destination, in: db)
        try PrivateTableInPlace.apply(plan.privateTables, in: db)
        try InPlaceMigration.checkRewrittenSchema(in: db, matches: destination)
    }

    /// Runs ``prepare(_:in:destination:)`` and ``finish(_:in:destination:)`` on an empty
    /// in-memory database holding `source`'s schema. Returns false when SQLite refuses a
    /// statement or the result isn't exactly the destination's schema: the step must then
    /// rebuild the whole store. What these statements do to a schema doesn't depend on the
    /// rows, so a rehearsal that passes means the real run's schema is the destination's.
    static func rehearse(_ plan: PartialRebuildPlan, schemaOf source: Database, destination: StoreLayout) throws
        -> Bool
    {
        try InPlaceMigration.rehearse(onSchemaOf: source) { db in
            try prepare(plan, in: db, destination: destination)
            try finish(plan, in: db, destination: destination)
        }
    }

    /// Whether the source holds anything a partial rebuild can't carry: triggers or views
    /// (a moved table would take them along), but for the derived-attribute triggers the step
    /// replaces with the destination's (``DerivedValues``), or rows of Core Data's persistent history or
    /// CloudKit tables, which name rows by `Z_PK` and would need the rebuilt rows' new keys
    /// (the whole-store rebuild renumbers them, ``PrivateTableCopy``).
    static func sourceHasUncarriedContent(_ db: Database) throws -> Bool {
        let dependents =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM "main"."sqlite_master"
                    WHERE "type" = 'view' OR ("type" = 'trigger' AND substr("name", 1, ?) != ?)
                    """,
                arguments: [DerivedValues.triggerPrefix.utf8.count, DerivedValues.triggerPrefix]) ?? 0
        if dependents > 0 { return true }
        for table in try CoreDataPrivateTables.tables(in: db) where table.kind.isCarried {
            let hasRows =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM \"main\".\(table.name.quotedSQLIdentifier))") ?? false
            if hasRows { return true }
        }
        return false
    }
}
