import Foundation
import GRDB

/// A normalized description of a database's schema: tables with their columns, primary
/// keys and unique constraints, and indexes.
///
/// Two schemas are equal when they have the same tables, columns (with declared types),
/// primary keys, unique constraints and indexes, whatever the column order or the DDL's
/// spelling. Names compare case-insensitively, as SQLite does.
///
/// ```swift
/// let actual = try dbQueue.read { db in try SQLiteSchema.read(from: db) }
/// let expected = try SQLiteSchema(expectedFor: StoreLayout(model: model))
/// for difference in actual.differences(from: expected, ignoringTables: StoreLayout.optionalTableNames) {
///     print(difference)   // "table ZATRECORD lacks column ZCUSTOMDATA"
/// }
/// ```
///
/// Views and triggers are not described.
public struct SQLiteSchema: Sendable, Hashable, CustomStringConvertible {
    /// A column and its declared type.
    package struct Column: Sendable, Hashable {
        /// The column's name as declared.
        package var name: String
        /// The type exactly as declared (`VARCHAR(255)`), empty when none was declared.
        package var type: String

        /// Creates a column description.
        package init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

    /// A table.
    package struct Table: Sendable, Hashable {
        package var name: String
        /// The columns in declaration order (order takes no part in comparisons).
        package var columns: [Column]
        /// The primary key's columns, in key order; empty for tables keyed by rowid only.
        package var primaryKey: [String]
        /// Each UNIQUE constraint's columns, in constraint order. SQLite keeps them as
        /// `sqlite_autoindex_<table>_<n>` indexes; only their columns are recorded.
        package var uniqueConstraints: [[String]]

        /// Creates a table description.
        package init(name: String, columns: [Column], primaryKey: [String] = [], uniqueConstraints: [[String]] = []) {
            self.name = name
            self.columns = columns
            self.primaryKey = primaryKey
            self.uniqueConstraints = uniqueConstraints
        }

        /// The column with this name (case-insensitive).
        package func column(named name: String) -> Column? {
            let key = name.uppercased()
            return columns.first { $0.name.uppercased() == key }
        }
    }

    /// An index created with `CREATE INDEX` (not the automatic ones of UNIQUE and PRIMARY KEY).
    public struct Index: Sendable, Hashable {
        public var name: String
        public var table: String
        /// The indexed columns, in order.
        public var columns: [String]
        public var isUnique: Bool

        /// Creates an index description.
        package init(name: String, table: String, columns: [String], isUnique: Bool = false) {
            self.name = name
            self.table = table
            self.columns = columns
            self.isUnique = isUnique
        }
    }

    /// The tables, sorted by name.
    package private(set) var tables: [Table]
    /// The indexes, sorted by name.
    package private(set) var indexes: [Index]
    /// A trigger: the table it is on and its `sqlite_master` text.
    package struct Trigger: Sendable, Hashable {
        /// The table the trigger is on.
        package var table: String
        /// The `CREATE TRIGGER …` text as `sqlite_master` keeps it.
        package var sql: String

        /// A trigger from its parts.
        package init(table: String, sql: String) {
            self.table = table
            self.sql = sql
        }
    }

    /// The `Z_DA_…` triggers of derived attributes, by name. Other triggers (Core Data's
    /// `ZT_…` counts, history) are not described.
    package private(set) var derivedAttributeTriggers: [String: Trigger]

    /// Creates a schema from its parts, in any order.
    package init(tables: [Table], indexes: [Index], derivedAttributeTriggers: [String: Trigger] = [:]) {
        self.tables = tables.sorted { $0.name.uppercased() < $1.name.uppercased() }
        self.indexes = indexes.sorted { $0.name.uppercased() < $1.name.uppercased() }
        self.derivedAttributeTriggers = derivedAttributeTriggers
    }

    /// The table with this name (case-insensitive).
    package func table(named name: String) -> Table? {
        let key = name.uppercased()
        return tables.first { $0.name.uppercased() == key }
    }

    /// The index with this name (case-insensitive).
    package func index(named name: String) -> Index? {
        let key = name.uppercased()
        return indexes.first { $0.name.uppercased() == key }
    }

    /// The indexes on one table.
    package func indexes(on table: String) -> [Index] {
        let key = table.uppercased()
        return indexes.filter { $0.table.uppercased() == key }
    }

    /// A copy without these tables and their indexes (names case-insensitive).
    package func removingTables(_ names: Set<String>) -> SQLiteSchema {
        let keys = Set(names.map { $0.uppercased() })
        return SQLiteSchema(
            tables: tables.filter { !keys.contains($0.name.uppercased()) },
            indexes: indexes.filter { !keys.contains($0.table.uppercased()) },
            derivedAttributeTriggers: derivedAttributeTriggers.filter { !keys.contains($0.value.table.uppercased()) })
    }

    /// The indexes that duplicate another index of `reference`, under a name `reference` doesn't
    /// have: on the same table, with the same uniqueness and the same columns, in any order.
    ///
    /// Core Data leaves such indexes behind when it migrates a store in place: the indexes of the
    /// store's earlier releases, indexes named after an earlier numbering of the entities, and the
    /// index of a self-referential join table from before the other side came to name it, whose
    /// two columns come the other way round (``CoreDataRelease``; Wire 2.96's
    /// `Z_25TRUSTEDCLIENTS_Z_25TRUSTEDCLIENTS_INDEX` on `Z_25TRUSTEDBYCLIENTS`). They make no
    /// difference to what a store holds.
    package func redundantIndexes(comparedWith reference: SQLiteSchema) -> [Index] {
        func columns(_ index: Index) -> Set<String> { Set(index.columns.map { $0.uppercased() }) }
        return indexes.filter { index in
            reference.index(named: index.name) == nil
                && reference.indexes.contains { other in
                    other.table.uppercased() == index.table.uppercased() && other.isUnique == index.isUnique
                        && other.columns.count == index.columns.count && columns(other) == columns(index)
                }
        }
    }

    /// A copy without the derived-attribute triggers: for a step that removes the source's and
    /// creates the destination's from the layout only once its tables are final, and so compares
    /// the tables and indexes in between.
    package func removingDerivedAttributeTriggers() -> SQLiteSchema {
        SQLiteSchema(tables: tables, indexes: indexes)
    }

    /// A copy without these indexes (names case-insensitive).
    package func removingIndexes(_ names: Set<String>) -> SQLiteSchema {
        let keys = Set(names.map { $0.uppercased() })
        return SQLiteSchema(
            tables: tables, indexes: indexes.filter { !keys.contains($0.name.uppercased()) },
            derivedAttributeTriggers: derivedAttributeTriggers)
    }

    /// A copy without Core Data's private tables (``CoreDataPrivateTables``) and their indexes.
    package func removingCoreDataPrivateTables() -> SQLiteSchema {
        removingTables(Set(tables.map(\.name).filter(CoreDataPrivateTables.isPrivateTable)))
    }

    public var description: String {
        var lines: [String] = []
        for table in tables {
            let columns = table.columns.map { "\($0.name) \($0.type)" }.joined(separator: ", ")
            var line = "\(table.name) (\(columns))"
            if !table.primaryKey.isEmpty { line += " PRIMARY KEY (\(table.primaryKey.joined(separator: ", ")))" }
            for unique in table.uniqueConstraints { line += " UNIQUE (\(unique.joined(separator: ", ")))" }
            lines.append(line)
        }
        for index in indexes {
            lines.append(
                "\(index.isUnique ? "UNIQUE " : "")INDEX \(index.name) ON \(index.table) (\(index.columns.joined(separator: ", ")))"
            )
        }
        return lines.joined(separator: "\n")
    }

    // MARK: - Equality

    /// Equal when `differences(from:ignoringTables:)` finds none (Core Data's private tables
    /// take no part).
    public static func == (lhs: SQLiteSchema, rhs: SQLiteSchema) -> Bool {
        lhs.differences(from: rhs).isEmpty
    }

    public func hash(into hasher: inout Hasher) {
        // Only what equal schemas are sure to share: their table and index names, Core Data's
        // private tables left out as the comparison leaves them out.
        let compared = removingCoreDataPrivateTables()
        hasher.combine(compared.tables.map { $0.name.uppercased() })
        hasher.combine(compared.indexes.map { $0.name.uppercased() })
    }
}

// MARK: - Reading

extension SQLiteSchema {
    /// Reads the schema of the main database of a connection.
    ///
    /// SQLite's own tables (`sqlite_sequence`, `sqlite_stat1`…) are skipped. Automatic
    /// indexes are not listed as indexes: those of UNIQUE constraints become the table's
    /// ``Table/uniqueConstraints`` and those of composite primary keys its ``Table/primaryKey``.
    package static func read(from db: Database) throws -> SQLiteSchema {
        // Four statements whatever the number of tables: an upgrade reads schemas several
        // times (identification, each step's checks, verification), and with a statement per
        // table and per index, preparing them was most of the reading.
        // `_` is a LIKE wildcard: escape it so only names starting with "sqlite_" are skipped.
        let userTables = #"m."type" = 'table' AND m."name" NOT LIKE 'sqlite\_%' ESCAPE '\'"#
        let tableNames = try String.fetchAll(
            db, sql: #"SELECT m."name" FROM "main"."sqlite_master" AS m WHERE "# + userTables + #" ORDER BY m."name""#)
        var columnsByTable: [String: [Row]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: #"""
                SELECT m."name", p."name", p."type", p."pk"
                FROM "main"."sqlite_master" AS m JOIN pragma_table_info(m."name", 'main') AS p
                WHERE \#(userTables) ORDER BY m."name", p."cid"
                """#)
        {
            columnsByTable[row[0], default: []].append(row)
        }
        // One row per column of each index, in index order, then by table and index name as a
        // statement per table listed them.
        var indexRowsByTable: [String: [Row]] = [:]
        for row in try Row.fetchAll(
            db,
            sql: #"""
                SELECT m."name", l."name", l."unique", l."origin", i."name", x."sql"
                FROM "main"."sqlite_master" AS m JOIN pragma_index_list(m."name", 'main') AS l
                JOIN pragma_index_info(l."name", 'main') AS i
                LEFT JOIN "main"."sqlite_master" AS x ON x."type" = 'index' AND x."name" = l."name"
                WHERE \#(userTables) ORDER BY m."name", l."name", i."seqno"
                """#)
        {
            indexRowsByTable[row[0], default: []].append(row)
        }
        var tables: [Table] = []
        var indexes: [Index] = []
        for tableName in tableNames {
            let columnRows = columnsByTable[tableName] ?? []
            let columns = columnRows.map { Column(name: $0[1] ?? "", type: $0[2] ?? "") }
            let primaryKey =
                columnRows
                .filter { ($0[3] as Int? ?? 0) > 0 }
                .sorted { ($0[3] as Int? ?? 0) < ($1[3] as Int? ?? 0) }
                .map { $0[1] as String? ?? "" }
            var uniqueConstraints: [[String]] = []
            var indexRows = (indexRowsByTable[tableName] ?? [])[...]
            while let first = indexRows.first {
                let name: String = first[1] ?? ""
                let ofIndex = indexRows.prefix { ($0[1] as String?) == name }
                indexRows = indexRows.dropFirst(ofIndex.count)
                // An expression has no column name: it stands as the index's whole statement, so
                // that two indexes compare equal only when they index the same expressions.
                let indexColumns = ofIndex.map { $0[4] as String? ?? "expression of \($0[5] as String? ?? name)" }
                switch first[3] as String? ?? "c" {
                case "pk":
                    continue
                case "u":
                    uniqueConstraints.append(indexColumns)
                default:
                    indexes.append(
                        Index(
                            name: name, table: tableName, columns: indexColumns,
                            isUnique: (first[2] as Int? ?? 0) != 0))
                }
            }
            tables.append(
                Table(name: tableName, columns: columns, primaryKey: primaryKey, uniqueConstraints: uniqueConstraints))
        }
        let triggers = try Row.fetchAll(
            db,
            sql: #"SELECT name, tbl_name, sql FROM sqlite_master "#
                + #"WHERE type = 'trigger' AND name LIKE 'Z\_DA\_%' ESCAPE '\'"#)
        return SQLiteSchema(
            tables: tables, indexes: indexes,
            derivedAttributeTriggers: Dictionary(
                triggers.map {
                    ($0["name"] as String? ?? "", Trigger(table: $0["tbl_name"] ?? "", sql: $0["sql"] ?? ""))
                },
                uniquingKeysWith: { first, _ in first }))
    }

    /// The schema a store of this layout must have.
    ///
    /// Rather than predicting how SQLite reports each declaration, this runs the layout's
    /// ``StoreLayout/createStatements`` in an in-memory database and reads the result back,
    /// so the expected and the actual schema go through the same reader.
    ///
    /// The schema depends on the statements alone, so each one worked out is kept
    /// (``ExpectedSchemas``): an upgrade asks for the same layout's several times (each
    /// in-place step checks its rehearsal and its result against it).
    package init(expectedFor layout: StoreLayout) throws {
        let statements = layout.createStatements
        if let known = ExpectedSchemas.shared.schema(for: statements) {
            self = known
            return
        }
        let dbQueue = try DatabaseQueue()
        self = try dbQueue.write { db in
            for statement in statements {
                try db.execute(sql: statement)
            }
            return try SQLiteSchema.read(from: db)
        }
        ExpectedSchemas.shared.keep(self, for: statements)
    }
}

/// The schemas ``SQLiteSchema/init(expectedFor:)`` worked out, by their `CREATE` statements.
///
/// Bounded: a process upgrading stores of a few layouts keeps them all; one that sees many
/// (the matrix over a long history) starts afresh past ``limit`` rather than growing.
///
/// `@unchecked Sendable`: `schemas` is only read and written with `lock` held. `NSLock` rather
/// than `Mutex` (macOS 15) because the package supports macOS 13.
final class ExpectedSchemas: @unchecked Sendable {
    static let shared = ExpectedSchemas()
    /// The most schemas kept at once.
    static let limit = 64

    private let lock = NSLock()
    private var schemas: [[String]: SQLiteSchema] = [:]

    func schema(for statements: [String]) -> SQLiteSchema? {
        lock.withLock { schemas[statements] }
    }

    func keep(_ schema: SQLiteSchema, for statements: [String]) {
        lock.withLock {
            if schemas.count >= Self.limit { schemas.removeAll() }
            schemas[statements] = schema
        }
    }
}
