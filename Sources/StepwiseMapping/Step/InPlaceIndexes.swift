import GRDB
import StepwiseStore

/// The indexes of an in-place step (``InPlaceMigration``): only those that must change are
/// dropped or built.
///
/// Building an index sorts its whole table, so an in-place step that rebuilt every index would
/// cost as much as copying the rows. SQLite's `RENAME COLUMN` and `RENAME TO` rewrite the
/// definitions of the indexes they touch, so an index stays valid through them; it is rebuilt
/// only when its name or its columns differ from the destination layout's (Core Data's index
/// names contain table and column names, so a renamed column or table renames its indexes).
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

    /// Makes the database's indexes exactly `destination`'s: drops every index the layout
    /// doesn't have as it is, then creates the missing ones.
    static func reconcile(with destination: StoreLayout, in db: Database) throws {
        let wanted = Dictionary(
            destination.indexes.map { ($0.name.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var kept: Set<String> = []
        let tables = try String.fetchAll(
            db,
            sql: #"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\'"#)
        for table in tables {
            for index in try existingIndexes(of: table, in: db) {
                if let layout = wanted[index.name.uppercased()], index.matches(layout) {
                    kept.insert(index.name.uppercased())
                } else {
                    try db.execute(sql: "DROP INDEX \(index.name.quotedSQLIdentifier)")
                }
            }
        }
        for index in destination.indexes where !kept.contains(index.name.uppercased()) {
            try db.execute(sql: index.createStatement)
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
