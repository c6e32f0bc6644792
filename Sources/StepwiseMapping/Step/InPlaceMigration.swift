import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Runs an ``InPlacePlan`` on the destination file, which starts as a copy of the source.
///
/// Everything happens in one transaction, in this order, so that each statement sees the
/// tables it needs:
/// 1. drop the indexes over columns that disappear (`DROP COLUMN` refuses indexed columns);
///    every other index stays, and SQLite's renames carry it along;
/// 2. drop the tables that disappear, and `Z_MODELCACHE` (Core Data's cached copy of the
///    *old* model, which would now be wrong);
/// 3. per kept table: delete the rows of removed entities, move the rows to their entities'
///    new numbers (``InPlaceRenumbering``), drop unused columns, rename kept columns (in an
///    order where no two collide), add new columns with their defaults, fill NULLs where a
///    column became required; rename kept join tables' columns the same way; then rename the
///    tables, all together;
/// 4. create the new tables, then make the indexes the destination layout's
///    (``InPlaceIndexes``): an index whose name or columns changed is rebuilt, the others
///    are kept as they are, without a sort of their table;
/// 5. rewrite `Z_PRIMARYKEY`'s names and parents (keeping each root's `Z_MAX`);
/// 6. update Core Data's private tables as its own migrator would (``PrivateTableInPlace``);
/// 7. check a renumbered store's rows against the destination (``InPlaceRenumbering``).
///
/// Core Data's private tables (persistent history, CloudKit mirroring) are otherwise kept as
/// they are: no step drops them, their indexes or their `Z_PRIMARYKEY` rows.
///
/// **Rows are rewritten only where SQLite must.** A new column that every row of its table
/// takes is added with its default in the column definition (`ADD COLUMN … DEFAULT 0`), which
/// SQLite records in the schema alone: existing rows read it without being written. Only a
/// default limited to some of a table's entities (the others must read NULL) is stored with
/// an `UPDATE`. `DROP COLUMN` rewrites its table (SQLite re-encodes every record without the
/// column), and filling NULLs rewrites the rows that held one.
///
/// Then the schema is compared with the destination layout's. If anything differs,
/// ``InPlaceMigration/Rejected`` is thrown. ``rehearse(_:schemaOf:destination:)`` runs the same
/// statements first on an empty copy of the source's schema, so the real file is only altered
/// once the result is known to be exactly the destination's: an in-place result is never
/// trusted without that check.
enum InPlaceMigration {
    /// The altered schema isn't exactly the destination's.
    struct Rejected: Error, CustomStringConvertible {
        var differences: [SchemaDifference]
        /// What is wrong when it isn't the schema (``InPlaceRenumbering``'s checks).
        var reason: String?

        var description: String {
            if let reason { return "the altered store is wrong: \(reason); please report this as a bug" }
            let listed = differences.prefix(3).map { "\($0)" }.joined(separator: "; ")
            return "the altered store's schema isn't the destination's (\(listed)); please report this as a bug"
        }
    }

    /// Throws ``Rejected`` unless the store rewritten in `db` has exactly the schema
    /// `destination` lays out: the last check of both rewrites in place, this one and
    /// ``PartialRebuild``.
    ///
    /// The derived-attribute triggers are left out: the step removed the source's before its
    /// first statement and creates the destination's, exactly as the layout states them, once
    /// the values are computed (`DerivedValues`).
    static func checkRewrittenSchema(in db: Database, matches destination: StoreLayout) throws {
        let differences = try SQLiteSchema.read(from: db).removingDerivedAttributeTriggers()
            .differences(
                from: SQLiteSchema(expectedFor: destination).removingDerivedAttributeTriggers(),
                ignoringTables: StoreLayout.optionalTableNames)
        if !differences.isEmpty {
            throw Rejected(differences: differences)
        }
    }

    /// Runs `plan` on an empty in-memory database holding `source`'s schema (tables, indexes,
    /// views, triggers; no rows). Returns false when SQLite refuses a statement or the result
    /// isn't exactly the destination's schema: the step must then rebuild instead.
    ///
    /// The statements are the ones ``apply(_:in:destination:)`` will run on the real file, and
    /// what they do to a schema doesn't depend on the rows (the layout has no CHECK or NOT
    /// NULL constraints an added column could violate), so a rehearsal that passes means the
    /// real run yields the destination's schema. That is what lets the real run alter its file
    /// without a rollback journal.
    static func rehearse(_ plan: InPlacePlan, schemaOf source: Database, destination: StoreLayout) throws -> Bool {
        try rehearse(onSchemaOf: source) { db in try apply(plan, in: db, destination: destination) }
    }

    /// Runs `statements` on an empty in-memory database holding `source`'s schema (tables,
    /// indexes, views, triggers; no rows): true when they all run, false when SQLite refuses
    /// one or they throw ``Rejected``. The in-place path and the partial rebuild
    /// (``PartialRebuild/rehearse(_:schemaOf:destination:)``) rehearse their schema changes here.
    static func rehearse(onSchemaOf source: Database, _ statements: (Database) throws -> Void) throws -> Bool {
        let schema = try String.fetchAll(
            source,
            sql: #"""
                SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\_%' ESCAPE '\'
                ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END, rowid
                """#)
        let rehearsal = try DatabaseQueue(configuration: .withCoreDataTriggerFunctions)
        do {
            try rehearsal.write { db in
                for statement in schema { try db.execute(sql: statement) }
                // As the real run: the source's derivations go before the tables change.
                _ = try DerivedValues.suspendTriggers(in: db)
                try statements(db)
            }
            return true
        } catch is Rejected {
            return false
        } catch is DatabaseError {
            return false
        }
    }

    /// Makes `Z_PRIMARYKEY`'s rows of model entities the destination's: rows of entities that
    /// are gone are deleted, names and parents rewritten, each kept row's `Z_MAX` kept, new
    /// entities start at 0. Core Data's private entities' rows are left alone.
    ///
    /// - parameter maximaFrom: When entity numbers change, destination `Z_ENT` → the source
    ///   `Z_ENT` whose `Z_MAX` it keeps (``InPlacePlan/primaryKeySources``); nil when each row
    ///   keeps its own number's.
    static func rewritePrimaryKeyRows(
        for destination: StoreLayout, in db: Database, maximaFrom sources: [Int: Int]? = nil
    ) throws {
        if let sources {
            // Read before any row changes: a number may pass from one entity to another.
            let maxima = try Dictionary(
                Row.fetchAll(
                    db,
                    sql:
                        "SELECT \"Z_ENT\", \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \(CoreDataPrivateTables.modelEntityCondition)"
                ).map { ($0[0] as Int, $0[1] as Int64? ?? 0) }, uniquingKeysWith: { first, _ in first })
            try db.execute(sql: "DELETE FROM \"Z_PRIMARYKEY\" WHERE \(CoreDataPrivateTables.modelEntityCondition)")
            for row in destination.primaryKeyRows {
                try db.execute(
                    sql:
                        "INSERT INTO \"Z_PRIMARYKEY\" (\"Z_ENT\", \"Z_NAME\", \"Z_SUPER\", \"Z_MAX\") VALUES (?, ?, ?, ?)",
                    arguments: [
                        row.entityNumber, row.name, row.superNumber,
                        sources[row.entityNumber].flatMap { maxima[$0] } ?? 0,
                    ])
            }
            return
        }
        let numbers = destination.primaryKeyRows.map { String($0.entityNumber) }.joined(separator: ", ")
        try db.execute(
            sql: """
                DELETE FROM "Z_PRIMARYKEY" WHERE "Z_ENT" NOT IN (\(numbers)) AND \(CoreDataPrivateTables.modelEntityCondition)
                """)
        for row in destination.primaryKeyRows {
            try db.execute(
                sql: """
                    INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (?, ?, ?, 0)
                    ON CONFLICT ("Z_ENT") DO UPDATE SET "Z_NAME" = excluded."Z_NAME", "Z_SUPER" = excluded."Z_SUPER"
                    """,
                arguments: [row.entityNumber, row.name, row.superNumber])
        }
    }

    /// Renames the columns of `table` (destination name → source name; equal names stay), in an
    /// order in which no new name is still held by another column (``renameWithoutCollisions(_:occupied:temporaryNames:rename:)``).
    private static func renameColumns(
        _ columns: [String: String], of table: String, in db: Database, temporaryNames: inout Int
    ) throws {
        let renames = columns.filter { $0.key != $0.value }.sorted { $0.key < $1.key }.map {
            (from: $0.value, to: $0.key)
        }
        guard !renames.isEmpty else { return }
        let occupied = try String.fetchAll(
            db, sql: "SELECT \"name\" FROM pragma_table_info(?)", arguments: [table])
        let quotedTable = table.quotedSQLIdentifier
        try renameWithoutCollisions(renames, occupied: occupied, temporaryNames: &temporaryNames) { from, to in
            try db.execute(
                sql: "ALTER TABLE \(quotedTable) RENAME COLUMN \(from.quotedSQLIdentifier) TO \(to.quotedSQLIdentifier)"
            )
        }
    }

    /// Runs `renames` (old name → new name) one `rename` call each where the new name is free,
    /// and through a temporary name only to break a cycle (`a→b, b→a`), or a clash of names
    /// that differ only in case: SQLite compares names without case.
    ///
    /// Each `ALTER TABLE … RENAME` re-parses and re-checks the whole schema, so on a store with
    /// many tables and indexes the renames are most of an in-place step's cost; renaming through
    /// a temporary name every time would double them. A new name that something outside
    /// `renames` holds is renamed to directly, for SQLite to refuse: the step then rebuilds.
    ///
    /// - parameter occupied: Every name in use where the renames happen (a table's columns, or
    ///   the schema's tables and indexes).
    static func renameWithoutCollisions(
        _ renames: [(from: String, to: String)], occupied: [String], temporaryNames: inout Int,
        rename: (_ from: String, _ to: String) throws -> Void
    ) throws {
        var pending = renames
        var taken = Set(occupied.map { $0.uppercased() })
        func run(_ index: Int, to name: String) throws {
            try rename(pending[index].from, name)
            taken.remove(pending[index].from.uppercased())
            taken.insert(name.uppercased())
        }
        while !pending.isEmpty {
            if let free = pending.firstIndex(where: { !taken.contains($0.to.uppercased()) }) {
                try run(free, to: pending[free].to)
                pending.remove(at: free)
            } else if let holder = pending.firstIndex(where: { holder in
                pending.contains { $0.to.uppercased() == holder.from.uppercased() }
            }) {
                // Every new name is held, one of them by a name still to be renamed: move that
                // one aside, which frees its name for the next round.
                temporaryNames += 1
                let temporary = "stepwise_renaming_\(temporaryNames)"
                try run(holder, to: temporary)
                pending[holder].from = temporary
            } else {
                try run(0, to: pending[0].to)
                pending.remove(at: 0)
            }
        }
    }

    static func apply(_ plan: InPlacePlan, in db: Database, destination: StoreLayout) throws {
        for table in plan.tables {
            guard let sourceName = table.source else { continue }
            try InPlaceIndexes.dropIndexes(on: table.droppedColumns, of: sourceName, in: db)
        }
        for table in plan.droppedTables + [StoreLayout.modelCacheTableName] {
            try db.execute(sql: "DROP TABLE IF EXISTS \(table.quotedSQLIdentifier)")
        }
        var temporaryNames = 0
        // Tables take their new names once every table's rows and columns are done, all
        // together: a destination name may still be a source table's (`Z_16USERS` →
        // `Z_15USERS` while `Z_15USERS` → `Z_14USERS`), which the table holding it must leave first.
        var tableRenames: [(from: String, to: String)] = []
        for table in plan.tables {
            guard let sourceName = table.source else { continue }
            let quotedTable = sourceName.quotedSQLIdentifier
            if !table.removedEntityNumbers.isEmpty {
                try db.execute(
                    sql:
                        "DELETE FROM \(quotedTable) WHERE \"Z_ENT\" IN (\(table.removedEntityNumbers.map(String.init).joined(separator: ", ")))"
                )
            }
            // Before anything reads a row's entity by its destination number (added columns,
            // defaults), and while the entity columns still have their source names.
            try InPlaceRenumbering.renumberRows(of: table, plan.renumbering, in: db)
            for column in table.droppedColumns {
                try db.execute(sql: "ALTER TABLE \(quotedTable) DROP COLUMN \(column.quotedSQLIdentifier)")
            }
            try renameColumns(table.keptColumns, of: sourceName, in: db, temporaryNames: &temporaryNames)
            for (column, value, numbers) in table.addedColumns {
                let definition = "\(column.name.quotedSQLIdentifier) \(column.type)"
                // Every row of the table takes the value: let the schema hold it, no row written.
                if !value.isNull, Set(numbers).isSuperset(of: table.destination.entityNumbers),
                    let literal = try SQLLiteral.exact(value, in: db)
                {
                    try db.execute(sql: "ALTER TABLE \(quotedTable) ADD COLUMN \(definition) DEFAULT \(literal)")
                    continue
                }
                try db.execute(sql: "ALTER TABLE \(quotedTable) ADD COLUMN \(definition)")
                if !value.isNull, !numbers.isEmpty {
                    try db.execute(
                        sql:
                            "UPDATE \(quotedTable) SET \(column.name.quotedSQLIdentifier) = ? WHERE \"Z_ENT\" IN (\(numbers.map(String.init).joined(separator: ", ")))",
                        arguments: [value])
                }
            }
            for (column, value, numbers) in table.defaultsForNull where !value.isNull {
                try db.execute(
                    sql:
                        "UPDATE \(quotedTable) SET \(column.quotedSQLIdentifier) = ? WHERE \(column.quotedSQLIdentifier) IS NULL AND \"Z_ENT\" IN (\(numbers.map(String.init).joined(separator: ", ")))",
                    arguments: [value])
            }
            tableRenames.append((sourceName, table.destination.name))
        }
        for join in plan.joinTables {
            try renameColumns(join.columns, of: join.source, in: db, temporaryNames: &temporaryNames)
            tableRenames.append((join.source, join.destination.name))
        }
        // Tables and indexes share one namespace.
        let schemaNames = try String.fetchAll(
            db, sql: "SELECT \"name\" FROM \"sqlite_master\" WHERE \"type\" IN ('table', 'index', 'view')")
        try renameWithoutCollisions(
            tableRenames.filter { $0.from != $0.to }, occupied: schemaNames, temporaryNames: &temporaryNames
        ) { from, to in
            try db.execute(sql: "ALTER TABLE \(from.quotedSQLIdentifier) RENAME TO \(to.quotedSQLIdentifier)")
        }
        for table in plan.tables where table.source == nil {
            try db.execute(sql: table.destination.createStatement)
        }
        try InPlaceIndexes.reconcile(with: destination, in: db)
        try rewritePrimaryKeyRows(
            for: destination, in: db, maximaFrom: plan.renumbering.isEmpty ? nil : plan.primaryKeySources)
        try PrivateTableInPlace.apply(plan.privateTables, in: db)
        try InPlaceRenumbering.checkRenumbered(plan, in: db, destination: destination)
        try checkRewrittenSchema(in: db, matches: destination)
    }
}
