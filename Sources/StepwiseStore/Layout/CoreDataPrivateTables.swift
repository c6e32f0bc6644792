import GRDB

/// Core Data's own tables in a store, beside the model's: persistent history, CloudKit
/// mirroring and the cached model. They belong to no model version, so schema comparisons
/// leave them out and they never make a store inconsistent.
///
/// ### What is recognized, and the evidence
/// - **Persistent history** (`NSPersistentHistoryTrackingKey`, on in every SwiftData store):
///   `ATRANSACTION`, `ACHANGE` and, from macOS 10.14, `ATRANSACTIONSTRING`, with their
///   indexes, and `Z_PRIMARYKEY` rows 16001 `CHANGE`, 16002 `TRANSACTION`, 16003
///   `TRANSACTIONSTRING`. Seen in every store of the corpus's `real-stores` (Photos 10.15 to
///   15.7, `knowledgeC` of 10.13 without `ATRANSACTIONSTRING`, `NoteStore`, `RMAdminStore`, a
///   SwiftData store). Their columns differ by release (`ZTOMBSTONE0…n`, the `*TS` columns),
///   so they are recognized by name, never compared with a layout.
/// - **CloudKit mirroring** (`NSPersistentCloudKitContainer`): every table whose name starts
///   with `ANSCK` (`ANSCKRECORDMETADATA`, `ANSCKMETADATAENTRY`, `ANSCKRECORDZONEMETADATA`…),
///   with `Z_PRIMARYKEY` rows from 17001 (`17009 NSCKMetadataEntry`, `17012
///   NSCKRecordMetadata`). No corpus store has them; the names, the DDL and the numbers are
///   those public test fixtures copy from real stores, and Core Data's migrator names these
///   tables in the statements it runs (`UPDATE ANSCKRECORDMETADATA SET ZENTITYID = …`).
/// - **The model cache**: `Z_MODELCACHE` (``StoreLayout/modelCacheTableName``), Core Data's
///   compressed copy of the model that wrote the store. Unlike the others it is not carried:
///   a step makes it stale, so every step leaves it out.
///
/// `Z_PRIMARYKEY` rows of Core Data's private entities are recognized by number: Core Data
/// numbers its private models' entities from 16001 (history) and 17001 (CloudKit), far above
/// any model's own entities (numbered from 1).
///
/// ```swift
/// CoreDataPrivateTables.kind(ofTable: "ACHANGE")                 // .persistentHistory
/// CoreDataPrivateTables.kind(ofTable: "ANSCKRECORDMETADATA")     // .cloudKitMirroring
/// CoreDataPrivateTables.isPrivateEntityNumber(16001)             // true
/// let tables = try CoreDataPrivateTables.tables(in: db)          // what a store has
/// ```
///
/// ## Topics
/// - ``Kind``
/// - ``Table``
/// - ``EntityReference``
package enum CoreDataPrivateTables {
    /// Which of Core Data's features a private table serves.
    package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// `ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`.
        case persistentHistory
        /// `ANSCK…`.
        case cloudKitMirroring
        /// `Z_MODELCACHE`.
        case modelCache

        /// Whether every step carries the table to its destination (history and CloudKit
        /// tables), rather than leaving it out (the model cache, stale after any step).
        package var isCarried: Bool {
            self != .modelCache
        }

        /// "persistent history", "CloudKit mirroring", "cached model".
        package var explanation: String {
            switch self {
            case .persistentHistory: "persistent history"
            case .cloudKitMirroring: "CloudKit mirroring"
            case .modelCache: "cached model"
            }
        }
    }

    /// `ACHANGE`: one row per object inserted, updated or deleted by a transaction.
    package static let changeTableName = "ACHANGE"
    /// `ATRANSACTION`: one row per saved transaction, keyed by its transaction number.
    package static let transactionTableName = "ATRANSACTION"
    /// `ATRANSACTIONSTRING`: the authors, bundle ids and context names transactions share.
    package static let transactionStringTableName = "ATRANSACTIONSTRING"
    /// The history tables, by name.
    package static let historyTableNames: Set<String> = [
        changeTableName, transactionTableName, transactionStringTableName,
    ]
    /// The prefix of every CloudKit mirroring table.
    package static let cloudKitTablePrefix = "ANSCK"
    /// The metadata key that makes `NSPersistentCloudKitContainer` fetch its record zones again
    /// after a migration changed its records' metadata: Core Data's migrator sets it whenever it
    /// renumbers or deletes `ANSCKRECORDMETADATA` rows (`_NSSQLiteStoreMigrator`, with an empty
    /// dictionary), and the mirroring delegate only tests whether it is present. A step that
    /// re-keys or deletes CloudKit records sets it too.
    package static let cloudKitZoneFetchMetadataKey = "PFCloudKitMetadataNeedsZoneFetchAfterClientMigrationKey"
    /// The lowest `Z_ENT` Core Data gives its private entities (history: 16001…).
    package static let firstPrivateEntityNumber = 16001

    /// The kind of a table, or nil for the model's and Stepwise's own tables.
    /// Names compare case-insensitively, as SQLite does.
    package static func kind(ofTable name: String) -> Kind? {
        let key = name.uppercased()
        if historyTableNames.contains(key) { return .persistentHistory }
        if key.hasPrefix(cloudKitTablePrefix) { return .cloudKitMirroring }
        if key == StoreLayout.modelCacheTableName { return .modelCache }
        return nil
    }

    /// Whether a table is one of Core Data's private tables.
    package static func isPrivateTable(_ name: String) -> Bool {
        kind(ofTable: name) != nil
    }

    /// Whether a `Z_PRIMARYKEY` row with this `Z_ENT` is one of Core Data's private entities'.
    package static func isPrivateEntityNumber(_ number: Int) -> Bool {
        number >= firstPrivateEntityNumber
    }

    /// `"Z_ENT" < 16001`: the SQL condition that keeps a `Z_PRIMARYKEY` query to the model's
    /// own entities.
    package static var modelEntityCondition: String {
        "\"Z_ENT\" < \(firstPrivateEntityNumber)"
    }

    /// A private table as a store has it, with the statements that make it again.
    package struct Table: Sendable, Hashable {
        /// The table's name as the store spells it.
        package var name: String
        package var kind: Kind
        /// The columns, in the table's order.
        package var columns: [String]
        /// `sqlite_master.sql` of the table: exactly the store's `CREATE TABLE`.
        package var createStatement: String
        /// `sqlite_master.sql` of its indexes (not the automatic ones of UNIQUE constraints).
        package var indexStatements: [String]
        /// `sqlite_master.sql` of the triggers on it.
        package var triggerStatements: [String]

        /// The pair of columns that names a model object in this table, if any
        /// (``EntityReference``).
        package var entityReference: EntityReference? {
            EntityReference(table: self)
        }
    }

    /// Columns of a private table that name one of the model's objects: its entity number
    /// (`Z_ENT`) and primary key (`Z_PK`). A step that renumbers entities or primary keys
    /// rewrites them.
    ///
    /// - `ACHANGE.ZENTITY`, `ACHANGE.ZENTITYPK`: the object a history change is about.
    /// - `ZENTITYID`, `ZENTITYPK` in a CloudKit table: the object a record is mirrored from
    ///   (`ANSCKRECORDMETADATA`) or whose history is being exported (`ANSCKHISTORYANALYZERSTATE`).
    package struct EntityReference: Sendable, Hashable {
        /// The table.
        package var table: String
        /// The column holding the object's `Z_ENT`.
        package var entityColumn: String
        /// The column holding the object's `Z_PK`.
        package var primaryKeyColumn: String

        /// The reference of a table that has one, by its columns.
        init?(table: Table) {
            let columns = Set(table.columns.map { $0.uppercased() })
            switch table.kind {
            case .persistentHistory where table.name.uppercased() == CoreDataPrivateTables.changeTableName:
                guard columns.isSuperset(of: ["ZENTITY", "ZENTITYPK"]) else { return nil }
                (entityColumn, primaryKeyColumn) = ("ZENTITY", "ZENTITYPK")
            case .cloudKitMirroring:
                guard columns.isSuperset(of: ["ZENTITYID", "ZENTITYPK"]) else { return nil }
                (entityColumn, primaryKeyColumn) = ("ZENTITYID", "ZENTITYPK")
            default:
                return nil
            }
            self.table = table.name
        }
    }

    /// The private tables of the database `schema` of `db` (`main`, or an attached one such as a
    /// step's source, `src`), sorted by name.
    package static func tables(in db: Database, schema: String = "main") throws -> [Table] {
        let master = "\(schema.quotedSQLIdentifier).sqlite_master"
        let rows = try Row.fetchAll(
            db, sql: "SELECT name, sql FROM \(master) WHERE type = 'table' AND sql IS NOT NULL ORDER BY name")
        var tables: [Table] = []
        for row in rows {
            let name: String = row["name"]
            guard let kind = kind(ofTable: name) else { continue }
            let columns = try String.fetchAll(
                db, sql: "SELECT name FROM pragma_table_info(?, ?) ORDER BY cid", arguments: [name, schema])
            let dependents = try Row.fetchAll(
                db,
                sql: """
                    SELECT type, sql FROM \(master)
                    WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid
                    """,
                arguments: [name])
            tables.append(
                Table(
                    name: name, kind: kind, columns: columns, createStatement: row["sql"],
                    indexStatements: dependents.filter { $0["type"] == "index" }.map { $0["sql"] },
                    triggerStatements: dependents.filter { $0["type"] == "trigger" }.map { $0["sql"] }))
        }
        return tables
    }
}
