import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Runs an ``InPlacePlan`` on the destination file, which starts as a copy of the source.
///
/// Everything happens in one transaction, in this order, so that each statement sees the
/// tables it needs:
/// 1. drop every index of the entity tables (`DROP COLUMN` refuses indexed columns, and index
///    names contain column names, so they are all recreated at the end);
/// 2. drop the tables that disappear, and `Z_MODELCACHE` (Core Data's cached copy of the
///    *old* model, which would now be wrong);
/// 3. per kept table: delete the rows of removed entities, drop unused columns, rename kept
///    columns (through temporary names, so `a→b, b→a` can't collide), add new columns and
///    store their defaults, fill NULLs where a column became required, rename the table;
/// 4. create the new tables and every index of the destination layout;
/// 5. rewrite `Z_PRIMARYKEY`'s names and parents (keeping each root's `Z_MAX`).
///
/// Then the schema is compared with the destination layout's. If anything differs, the
/// transaction is rolled back and ``InPlaceMigration/Rejected`` is thrown: the caller deletes
/// the file and rebuilds the destination row by row instead. An in-place result is never
/// trusted without that check.
enum InPlaceMigration {
    /// The altered schema isn't exactly the destination's.
    struct Rejected: Error {
        var differences: [SchemaDifference]
    }

    static func apply(_ plan: InPlacePlan, in db: Database, destination: StoreLayout) throws {
        let entityTables = plan.tables.compactMap(\.source) + plan.droppedTables
        for index in try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        where try entityTables.contains(
            String.fetchOne(db, sql: "SELECT tbl_name FROM sqlite_master WHERE name = ?", arguments: [index]) ?? "")
        {
            try db.execute(sql: "DROP INDEX \(index.quotedSQLIdentifier)")
        }
        for table in plan.droppedTables + [StoreLayout.modelCacheTableName] {
            try db.execute(sql: "DROP TABLE IF EXISTS \(table.quotedSQLIdentifier)")
        }
        var temporaryNames = 0
        var pendingTableRenames: [(from: String, to: String)] = []
        for table in plan.tables {
            guard let sourceName = table.source else { continue }
            let quotedTable = sourceName.quotedSQLIdentifier
            if !table.removedEntityNumbers.isEmpty {
                try db.execute(
                    sql:
                        "DELETE FROM \(quotedTable) WHERE \"Z_ENT\" IN (\(table.removedEntityNumbers.map(String.init).joined(separator: ", ")))"
                )
            }
            for column in table.droppedColumns {
                try db.execute(sql: "ALTER TABLE \(quotedTable) DROP COLUMN \(column.quotedSQLIdentifier)")
            }
            let renames = table.keptColumns.filter { $0.key != $0.value }
            var staged: [(String, String)] = []
            for (destinationColumn, sourceColumn) in renames.sorted(by: { $0.key < $1.key }) {
                temporaryNames += 1
                let temporary = "stepwise_renaming_\(temporaryNames)"
                try db.execute(
                    sql:
                        "ALTER TABLE \(quotedTable) RENAME COLUMN \(sourceColumn.quotedSQLIdentifier) TO \(temporary.quotedSQLIdentifier)"
                )
                staged.append((temporary, destinationColumn))
            }
            for (temporary, destinationColumn) in staged {
                try db.execute(
                    sql:
                        "ALTER TABLE \(quotedTable) RENAME COLUMN \(temporary.quotedSQLIdentifier) TO \(destinationColumn.quotedSQLIdentifier)"
                )
            }
            for (column, value, numbers) in table.addedColumns {
                try db.execute(
                    sql: "ALTER TABLE \(quotedTable) ADD COLUMN \(column.name.quotedSQLIdentifier) \(column.type)")
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
            if sourceName != table.destination.name {
                temporaryNames += 1
                let temporary = "stepwise_renaming_\(temporaryNames)"
                try db.execute(sql: "ALTER TABLE \(quotedTable) RENAME TO \(temporary.quotedSQLIdentifier)")
                pendingTableRenames.append((temporary, table.destination.name))
            }
        }
        for (temporary, name) in pendingTableRenames {
            try db.execute(
                sql: "ALTER TABLE \(temporary.quotedSQLIdentifier) RENAME TO \(name.quotedSQLIdentifier)")
        }
        for table in plan.tables where table.source == nil {
            try db.execute(sql: table.destination.createStatement)
        }
        for index in destination.indexes {
            try db.execute(sql: index.createStatement)
        }
        try db.execute(
            sql:
                "DELETE FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" NOT IN (\(destination.primaryKeyRows.map { String($0.entityNumber) }.joined(separator: ", ")))"
        )
        for row in destination.primaryKeyRows {
            try db.execute(
                sql: """
                    INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (?, ?, ?, 0)
                    ON CONFLICT ("Z_ENT") DO UPDATE SET "Z_NAME" = excluded."Z_NAME", "Z_SUPER" = excluded."Z_SUPER"
                    """,
                arguments: [row.entityNumber, row.name, row.superNumber])
        }
        let differences = try SQLiteSchema.read(from: db)
            .differences(from: SQLiteSchema(expectedFor: destination), ignoringTables: StoreLayout.optionalTableNames)
        if !differences.isEmpty {
            throw Rejected(differences: differences)
        }
    }
}
