import Foundation

extension SQLiteSchema {
    /// How this schema differs from `reference`, in a stable order (tables by name, then
    /// indexes by name).
    ///
    /// Column order and the spelling of the DDL are ignored; names and declared types
    /// compare case-insensitively. Core Data's private tables (persistent history, CloudKit
    /// mirroring, the cached model: ``CoreDataPrivateTables``) and their indexes are always left
    /// out on both sides: they belong to no model version, and a store that has them is no
    /// less the version its model tables say.
    ///
    /// - parameters:
    ///   - reference: The schema this one should have, e.g. `SQLiteSchema(expectedFor:)`.
    ///   - ignoringTables: More tables (and their indexes) left out on both sides.
    package func differences(from reference: SQLiteSchema, ignoringTables: Set<String> = []) -> [SchemaDifference] {
        let actual = removingTables(ignoringTables).removingCoreDataPrivateTables()
        let expected = reference.removingTables(ignoringTables).removingCoreDataPrivateTables()
        var differences: [SchemaDifference] = []
        // Looked up by upper-cased name through dictionaries, the first of a name winning as
        // `table(named:)` and `index(named:)` pick it: Core Data keeps a hierarchy in one
        // table of a hundred columns and more, and every upgrade compares schemas several times.
        let (actualTables, expectedTables) = (Self.byName(actual.tables, \.name), Self.byName(expected.tables, \.name))
        for key in Set(actualTables.keys).union(expectedTables.keys).sorted() {
            switch (actualTables[key], expectedTables[key]) {
            case (nil, let expectedTable?):
                differences.append(.missingTable(expectedTable.name))
            case (let actualTable?, nil):
                differences.append(.extraTable(actualTable.name))
            case (let actualTable?, let expectedTable?):
                differences += Self.differences(of: actualTable, from: expectedTable)
            case (nil, nil):
                break
            }
        }
        let (actualIndexes, expectedIndexes) = (
            Self.byName(actual.indexes, \.name), Self.byName(expected.indexes, \.name)
        )
        for key in Set(actualIndexes.keys).union(expectedIndexes.keys).sorted() {
            switch (actualIndexes[key], expectedIndexes[key]) {
            case (nil, let expectedIndex?):
                differences.append(.missingIndex(table: expectedIndex.table, index: expectedIndex.name))
            case (let actualIndex?, nil):
                differences.append(.extraIndex(table: actualIndex.table, index: actualIndex.name))
            case (let actualIndex?, let expectedIndex?):
                if !Self.sameIndex(actualIndex, expectedIndex) {
                    differences.append(
                        .indexMismatch(index: expectedIndex.name, expected: expectedIndex, actual: actualIndex))
                }
            case (nil, nil):
                break
            }
        }
        differences += derivedAttributeTriggerDifferences(from: expected)
        return differences
    }

    /// Missing, extra and rewritten `Z_DA_…` triggers: a store whose derived values would go
    /// stale, or be computed from another expression, is not the version its model says.
    private func derivedAttributeTriggerDifferences(from expected: SQLiteSchema) -> [SchemaDifference] {
        var differences: [SchemaDifference] = []
        let names = Set(derivedAttributeTriggers.keys).union(expected.derivedAttributeTriggers.keys)
        for name in names.sorted() {
            switch (derivedAttributeTriggers[name], expected.derivedAttributeTriggers[name]) {
            case (nil, let expectedTrigger?):
                differences.append(.missingTrigger(table: expectedTrigger.table, trigger: name))
            case (let actualTrigger?, nil):
                differences.append(.extraTrigger(table: actualTrigger.table, trigger: name))
            case (let actualTrigger?, let expectedTrigger?) where actualTrigger != expectedTrigger:
                differences.append(
                    .triggerMismatch(
                        table: expectedTrigger.table, trigger: name, expected: expectedTrigger.sql,
                        actual: actualTrigger.sql))
            default:
                break
            }
        }
        return differences
    }

    /// `elements` by upper-cased name; the first of a name wins.
    private static func byName<Element>(_ elements: [Element], _ name: KeyPath<Element, String>) -> [String: Element] {
        Dictionary(elements.map { ($0[keyPath: name].uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
    }

    private static func differences(of actual: Table, from expected: Table) -> [SchemaDifference] {
        var differences: [SchemaDifference] = []
        let actualColumns = byName(actual.columns, \.name)
        let expectedColumns = byName(expected.columns, \.name)
        for column in expected.columns {
            guard let actualColumn = actualColumns[column.name.uppercased()] else {
                differences.append(.missingColumn(table: expected.name, column: column.name))
                continue
            }
            // Most declared types are spelled alike on both sides: only others are normalized.
            if actualColumn.type != column.type, normalized(actualColumn.type) != normalized(column.type) {
                differences.append(
                    .columnTypeMismatch(
                        table: expected.name, column: column.name, expected: column.type, actual: actualColumn.type))
            }
        }
        for column in actual.columns where expectedColumns[column.name.uppercased()] == nil {
            differences.append(.extraColumn(table: expected.name, column: column.name))
        }
        if actual.primaryKey.map(normalized) != expected.primaryKey.map(normalized) {
            differences.append(
                .primaryKeyMismatch(table: expected.name, expected: expected.primaryKey, actual: actual.primaryKey))
        }
        let actualUniques = Set(actual.uniqueConstraints.map { $0.map(normalized) })
        let expectedUniques = Set(expected.uniqueConstraints.map { $0.map(normalized) })
        for columns in expected.uniqueConstraints where !actualUniques.contains(columns.map(normalized)) {
            differences.append(.missingUniqueConstraint(table: expected.name, columns: columns))
        }
        for columns in actual.uniqueConstraints where !expectedUniques.contains(columns.map(normalized)) {
            differences.append(.extraUniqueConstraint(table: expected.name, columns: columns))
        }
        return differences
    }

    private static func sameIndex(_ lhs: Index, _ rhs: Index) -> Bool {
        normalized(lhs.table) == normalized(rhs.table) && lhs.columns.map(normalized) == rhs.columns.map(normalized)
            && lhs.isUnique == rhs.isUnique
    }

    /// Upper case without surrounding or doubled spaces: SQLite keeps a declared type's
    /// spelling, and `varchar( 255 )` means the same as `VARCHAR(255)`.
    private static func normalized(_ text: String) -> String {
        text.uppercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
            .replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
    }
}
