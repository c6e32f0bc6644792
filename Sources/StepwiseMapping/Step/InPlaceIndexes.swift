import GRDB
import StepwiseStore

/// The indexes of an in-place step (``InPlaceMigration``): only those that must change are
/// dropped or built.
///
/// Building an index sorts its whole table, so an in-place step that rebuilt every index would
/// cost as much as copying the rows. SQLite's `RENAME COLUMN` and `RENAME TO` rewrite the
/// definitions of the indexes they touch, so an index stays valid through them; it is rebuilt
/// only when its columns differ from the destination layout's. Core Data's index names contain
/// table and column names, so a renamed column or table renames its indexes: those are renamed
/// in the schema, their entries kept.
enum InPlaceIndexes {
    /// Drops the indexes of `table` that cover one of `columns`: `DROP COLUMN` refuses an
    /// indexed column ("error in index … after drop column").
    static func dropIndexes(on columns: [String], of table: String, in db: Database) throws {
        guard !columns.isEmpty else { return }
        let dropped = Set(columns.map { $0.uppercased() })
        for index in try existingIndexes(of: table, in: db)
        where index.elements.contains(where: { dropped.contains($0.column.uppercased()) }) {
            try db.execute(sql: "DROP INDEX \(index.name.quotedSQLIdentifier)")
        }
    }

    /// Makes the database's indexes exactly `destination`'s: keeps those already right, renames
    /// those right but for their name (``renameInSchema(_:in:)``), drops the others, then
    /// creates the missing ones.
    static func reconcile(with destination: StoreLayout, in db: Database) throws {
        let wanted = Dictionary(
            destination.indexes.map { ($0.name.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var kept: Set<String> = []
        var others: [ExistingIndex] = []
        let tables = try String.fetchAll(
            db,
            sql: #"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'"#)
        // Core Data's private tables keep their indexes: no layout describes them.
        for table in tables where !CoreDataPrivateTables.isPrivateTable(table) {
            for index in try existingIndexes(of: table, in: db) {
                if let layout = wanted[index.name.uppercased()], index.matches(layout) {
                    kept.insert(index.name.uppercased())
                } else {
                    others.append(index)
                }
            }
        }
        // An index whose table or column was renamed has the right entries under the old
        // name (Core Data's index names contain both): rename it rather than sort its table.
        var renames: [(from: String, to: IndexLayout)] = []
        for index in others {
            if let layout = destination.indexes.first(where: {
                !kept.contains($0.name.uppercased()) && index.matches($0)
            }) {
                renames.append((index.name, layout))
                kept.insert(layout.name.uppercased())
            } else {
                try db.execute(sql: "DROP INDEX \(index.name.quotedSQLIdentifier)")
            }
        }
        try renameInSchema(renames, in: db)
        for index in destination.indexes where !kept.contains(index.name.uppercased()) {
            try db.execute(sql: index.createStatement)
        }
    }

    /// Renames indexes by editing their rows of `sqlite_master`, the procedure SQLite's
    /// documentation gives for schema changes that leave the file's content as it is
    /// (lang_altertable.html, "Making Other Kinds Of Table Schema Changes"): writable schema on,
    /// update the rows, bump `schema_version` so every connection reloads the schema, writable
    /// schema off. An index's b-tree holds its columns' values and row ids, never its name, so
    /// only the row's `name` and `sql` change: `sql` becomes exactly the statement that would
    /// have created the index under the new name. The in-place step's rehearsal runs this too
    /// and compares the resulting schema with the destination's before the real file is
    /// touched, and SQLite parses the new schema before the next statement.
    ///
    /// This is the one place Stepwise edits the schema by hand rather than through SQLite's
    /// statements, so it checks its own work: `integrity_check` of each table whose index was
    /// renamed compares every entry with the renamed definition, and a mismatch rejects the
    /// step (``InPlaceMigration/Rejected``), which then rebuilds. Only those tables: every other
    /// index was written by SQLite, which keeps it matching its table.
    ///
    /// One index may take the name another is leaving (`Z_Customer_first` becomes
    /// `Z_Customer_second` while `Z_Customer_second` becomes `Z_Customer_third`): the renames run
    /// in an order where no two rows ever share a name, through a temporary name for a cycle
    /// (``InPlaceMigration/renameWithoutCollisions(_:occupied:temporaryNames:rename:)``).
    private static func renameInSchema(_ renames: [(from: String, to: IndexLayout)], in db: Database) throws {
        guard !renames.isEmpty else { return }
        let layouts = Dictionary(renames.map { ($0.to.name, $0.to) }, uniquingKeysWith: { first, _ in first })
        let names = try String.fetchAll(db, sql: "SELECT \"name\" FROM \"sqlite_master\"")
        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        try db.execute(sql: "PRAGMA writable_schema = ON")
        do {
            var temporaryNames = 0
            try InPlaceMigration.renameWithoutCollisions(
                renames.map { (from: $0.from, to: $0.to.name) }, occupied: names, temporaryNames: &temporaryNames
            ) { old, new in
                // A temporary name keeps the row's statement; the final name brings its own.
                try db.execute(
                    sql: "UPDATE sqlite_master SET name = ?, sql = coalesce(?, sql) WHERE type = 'index' AND name = ?",
                    arguments: [new, layouts[new]?.createStatement, old])
                guard db.changesCount == 1 else {
                    throw DatabaseError(
                        resultCode: .SQLITE_ERROR, message: "index \(old) not found once in the schema")
                }
            }
            try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
        } catch {
            try? db.execute(sql: "PRAGMA writable_schema = OFF")
            throw error
        }
        try db.execute(sql: "PRAGMA writable_schema = OFF")
        for table in Set(renames.map(\.to.table)).sorted() {
            let problems = try PageCheck.problems(in: db, full: true, table: table)
            guard problems.isEmpty else {
                throw InPlaceMigration.Rejected(
                    differences: [],
                    reason: "a renamed index of \(table) doesn't match its rows (\(problems.joined(separator: "; ")))")
            }
        }
    }

    /// An index created by `CREATE INDEX` (not a UNIQUE or PRIMARY KEY constraint's).
    private struct ExistingIndex {
        var name: String
        var table: String
        var isUnique: Bool
        var isPartial: Bool
        var elements: [IndexLayout.Element]

        /// Same table, columns, directions; neither unique nor partial, as Core Data's are.
        func matches(_ layout: IndexLayout) -> Bool {
            !isUnique && !isPartial && table.uppercased() == layout.table.uppercased()
                && elements.count == layout.elements.count
                && zip(elements, layout.elements).allSatisfy {
                    $0.column.uppercased() == $1.column.uppercased() && $0.isAscending == $1.isAscending
                }
        }
    }

    private static func existingIndexes(of table: String, in db: Database) throws -> [ExistingIndex] {
        let rows = try Row.fetchAll(
            db, sql: #"SELECT name, "unique", partial FROM pragma_index_list(?) WHERE origin = 'c'"#,
            arguments: [table])
        return try rows.map { row in
            let name: String = row["name"] ?? ""
            let elements = try Row.fetchAll(
                db, sql: #"SELECT name, "desc" FROM pragma_index_xinfo(?) WHERE "key" = 1 ORDER BY seqno"#,
                arguments: [name]
            ).map { IndexLayout.Element(column: $0["name"] ?? "", isAscending: ($0["desc"] as Int? ?? 0) == 0) }
            return ExistingIndex(
                name: name, table: table, isUnique: (row["unique"] as Int? ?? 0) != 0,
                isPartial: (row["partial"] as Int? ?? 0) != 0, elements: elements)
        }
    }
}
