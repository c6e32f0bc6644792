extension StoreLayout {
    /// The same layout with some tables under other names: entities, tables, relationship
    /// storage and indexes all follow.
    ///
    /// A step that rebuilds only some tables inside a copy of the source moves the source's
    /// versions of those tables aside under scratch names, so the destination's can be created
    /// under the real ones; the passes then read the source through this layout.
    ///
    /// - parameter names: New names by old table name (compared without case, as in SQLite).
    package func renamingTables(_ names: [String: String]) -> StoreLayout {
        let byUppercased = Dictionary(names.map { ($0.key.uppercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        func renamed(_ table: String) -> String { byUppercased[table.uppercased()] ?? table }
        var copy = self
        copy.entities = entities.map { entity in
            EntityLayout(
                name: entity.name, number: entity.number, superNumber: entity.superNumber,
                parentName: entity.parentName, rootName: entity.rootName, tableName: renamed(entity.tableName),
                isAbstract: entity.isAbstract, subentityNumbers: entity.subentityNumbers,
                attributes: entity.attributes,
                relationships: entity.relationships.map { relationship in
                    var relationship = relationship
                    switch relationship.storage {
                    case .foreignKey:
                        break
                    case .inverseForeignKey(let table, let column, let order):
                        relationship.storage = .inverseForeignKey(
                            table: renamed(table), column: column, orderColumn: order)
                    case .joinTable(let table, let source, let destination, let order):
                        relationship.storage = .joinTable(
                            table: renamed(table), sourceColumn: source, destinationColumn: destination,
                            orderColumn: order)
                    }
                    return relationship
                })
        }
        copy.tables = tables.map { table in
            var table = table
            table.name = renamed(table.name)
            return table
        }
        copy.indexes = indexes.map { index in
            var index = index
            index.table = renamed(index.table)
            return index
        }
        copy.tablePositions = Dictionary(
            copy.tables.enumerated().map { ($1.name.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        return copy
    }
}
