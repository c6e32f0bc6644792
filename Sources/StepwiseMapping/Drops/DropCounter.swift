import GRDB
import StepwiseStore

/// Counts in a store what ``DroppedData`` entries drop: rows, non-null values or links.
///
/// The store must be at the version `layout` was made from: the drops' source version.
/// Each entity costs one scan of its table for its rows, attributes and to-one
/// relationships together, plus one query per to-many relationship.
package struct DropCounter {
    let layout: StoreLayout

    package init(layout: StoreLayout) {
        self.layout = layout
    }

    /// The drops with ``DroppedData/count`` set; a drop whose entity or property the layout
    /// doesn't hold keeps a nil count.
    package func counting(_ drops: [DroppedData], in db: Database) throws -> [DroppedData] {
        var counted = drops
        let byEntity = Dictionary(grouping: drops.indices, by: { drops[$0].entity })
        for (entityName, indices) in byEntity.sorted(by: { $0.key < $1.key }) {
            guard let entity = layout.entity(named: entityName) else { continue }
            let ownRows = "FROM \(entity.tableName.quotedSQLIdentifier) WHERE \(entity.ownRowsCondition() ?? "1")"
            // Counts that one scan of the entity's table answers: COUNT(*) and COUNT(column).
            var scanned: [(index: Int, expression: String)] = []
            for index in indices {
                let drop = drops[index]
                switch (drop.kind, drop.property) {
                case (.entity, _):
                    scanned.append((index, "COUNT(*)"))
                case (.attribute, let name?):
                    guard let column = entity.attribute(named: name)?.column else { continue }
                    scanned.append((index, "COUNT(\(column.quotedSQLIdentifier))"))
                case (.relationship, let name?) where drop.linksTo != nil:
                    guard let relationship = entity.relationship(named: name) else { continue }
                    counted[index].count = try countLinks(
                        db, of: relationship, from: ownRows, to: drop.linksTo ?? [])
                case (.relationship, let name?):
                    guard let relationship = entity.relationship(named: name) else { continue }
                    switch relationship.storage {
                    case .foreignKey(let column, _, _):
                        scanned.append((index, "COUNT(\(column.quotedSQLIdentifier))"))
                    case .inverseForeignKey(let table, let column, _):
                        counted[index].count = try Self.count(
                            db, table: table, column: column, pointingInto: ownRows)
                    case .joinTable(let table, let sourceColumn, _, _):
                        counted[index].count = try Self.count(
                            db, table: table, column: sourceColumn, pointingInto: ownRows)
                    }
                default:
                    continue
                }
            }
            guard !scanned.isEmpty else { continue }
            let row = try Row.fetchOne(
                db, sql: "SELECT \(scanned.map(\.expression).joined(separator: ", ")) \(ownRows)")
            for (position, item) in scanned.enumerated() {
                counted[item.index].count = row?[position] ?? 0
            }
        }
        return counted
    }

    /// The links of `relationship` from the entity's own rows (`ownRows`, a `FROM … WHERE`
    /// clause over its table) to objects of the source entities `targets`, by their `Z_ENT`.
    private func countLinks(
        _ db: Database, of relationship: RelationshipLayout, from ownRows: String, to targets: [String]
    ) throws -> Int {
        let numbers = targets.compactMap { layout.entity(named: $0)?.number }
        guard let targetTable = layout.entity(named: relationship.destination)?.tableName, !numbers.isEmpty else {
            return 0
        }
        let targetRows = """
            SELECT "Z_PK" FROM \(targetTable.quotedSQLIdentifier) \
            WHERE "Z_ENT" IN (\(numbers.map(String.init).joined(separator: ", ")))
            """
        let sql: String
        switch relationship.storage {
        case .foreignKey(let column, _, _):
            sql = "SELECT COUNT(*) \(ownRows) AND \(column.quotedSQLIdentifier) IN (\(targetRows))"
        case .inverseForeignKey(let table, let column, _):
            sql = """
                SELECT COUNT(*) FROM \(table.quotedSQLIdentifier) \
                WHERE \(column.quotedSQLIdentifier) IN (SELECT "Z_PK" \(ownRows)) AND "Z_PK" IN (\(targetRows))
                """
        case .joinTable(let table, let sourceColumn, let destinationColumn, _):
            sql = """
                SELECT COUNT(*) FROM \(table.quotedSQLIdentifier) \
                WHERE \(sourceColumn.quotedSQLIdentifier) IN (SELECT "Z_PK" \(ownRows)) \
                AND \(destinationColumn.quotedSQLIdentifier) IN (\(targetRows))
                """
        }
        return try Int.fetchOne(db, sql: sql) ?? 0
    }

    /// Rows of `table` whose `column` holds the `Z_PK` of one of the entity's own rows.
    private static func count(_ db: Database, table: String, column: String, pointingInto ownRows: String) throws
        -> Int
    {
        try Int.fetchOne(
            db,
            sql:
                "SELECT COUNT(*) FROM \(table.quotedSQLIdentifier) WHERE \(column.quotedSQLIdentifier) IN (SELECT \"Z_PK\" \(ownRows))"
        ) ?? 0
    }
}
