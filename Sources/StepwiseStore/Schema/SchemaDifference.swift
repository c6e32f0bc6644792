import Foundation

/// One way a database's schema differs from a reference schema (usually: a store's real
/// schema compared with what its model version needs).
///
/// "Missing" things are in the reference but not in the database; "extra" things are in the
/// database but not in the reference.
public enum SchemaDifference: Sendable, Hashable, CustomStringConvertible {
    case missingTable(String)
    case extraTable(String)
    case missingColumn(table: String, column: String)
    case extraColumn(table: String, column: String)
    case columnTypeMismatch(table: String, column: String, expected: String, actual: String)
    case primaryKeyMismatch(table: String, expected: [String], actual: [String])
    case missingUniqueConstraint(table: String, columns: [String])
    case extraUniqueConstraint(table: String, columns: [String])
    case missingIndex(table: String, index: String)
    case extraIndex(table: String, index: String)
    /// Same name, but another table, other columns or another uniqueness.
    case indexMismatch(index: String, expected: SQLiteSchema.Index, actual: SQLiteSchema.Index)

    /// The table concerned (for an index: the reference's table).
    public var table: String {
        switch self {
        case .missingTable(let table), .extraTable(let table): table
        case .missingColumn(let table, _), .extraColumn(let table, _): table
        case .columnTypeMismatch(let table, _, _, _), .primaryKeyMismatch(let table, _, _): table
        case .missingUniqueConstraint(let table, _), .extraUniqueConstraint(let table, _): table
        case .missingIndex(let table, _), .extraIndex(let table, _): table
        case .indexMismatch(_, let expected, _): expected.table
        }
    }

    public var description: String {
        switch self {
        case .missingTable(let table):
            return "table \(table) is missing"
        case .extraTable(let table):
            return "table \(table) is not expected"
        case .missingColumn(let table, let column):
            return "table \(table) lacks column \(column)"
        case .extraColumn(let table, let column):
            return "table \(table) has an unexpected column \(column)"
        case .columnTypeMismatch(let table, let column, let expected, let actual):
            return "column \(table).\(column) is declared \(Self.show(actual)), expected \(Self.show(expected))"
        case .primaryKeyMismatch(let table, let expected, let actual):
            return "table \(table) has primary key \(Self.list(actual)), expected \(Self.list(expected))"
        case .missingUniqueConstraint(let table, let columns):
            return "table \(table) lacks the unique constraint on \(Self.list(columns))"
        case .extraUniqueConstraint(let table, let columns):
            return "table \(table) has an unexpected unique constraint on \(Self.list(columns))"
        case .missingIndex(let table, let index):
            return "table \(table) lacks index \(index)"
        case .extraIndex(let table, let index):
            return "table \(table) has an unexpected index \(index)"
        case .indexMismatch(let index, let expected, let actual):
            return "index \(index) is \(Self.show(actual)), expected \(Self.show(expected))"
        }
    }

    private static func list(_ columns: [String]) -> String {
        columns.isEmpty ? "(none)" : "(\(columns.joined(separator: ", ")))"
    }

    private static func show(_ type: String) -> String {
        type.isEmpty ? "without type" : type
    }

    private static func show(_ index: SQLiteSchema.Index) -> String {
        "\(index.isUnique ? "a unique index" : "an index") on \(index.table) \(list(index.columns))"
    }
}

extension SQLiteSchema {
    /// How this schema differs from `reference`, in a stable order (tables by name, then
    /// indexes by name).
    ///
    /// Column order and the spelling of the DDL are ignored; names and declared types
    /// compare case-insensitively.
    ///
    /// - parameters:
    ///   - reference: The schema this one should have, e.g. `SQLiteSchema(expectedFor:)`.
    ///   - ignoringTables: Tables (and their indexes) left out on both sides, such as
    ///     ``StoreLayout/optionalTableNames``.
    public func differences(from reference: SQLiteSchema, ignoringTables: Set<String> = []) -> [SchemaDifference] {
        let actual = removingTables(ignoringTables)
        let expected = reference.removingTables(ignoringTables)
        var differences: [SchemaDifference] = []
        let tableNames = Set(actual.tables.map { $0.name.uppercased() } + expected.tables.map { $0.name.uppercased() })
        for key in tableNames.sorted() {
            switch (actual.table(named: key), expected.table(named: key)) {
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
        let indexNames = Set(
            actual.indexes.map { $0.name.uppercased() } + expected.indexes.map { $0.name.uppercased() })
        for key in indexNames.sorted() {
            switch (actual.index(named: key), expected.index(named: key)) {
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
        return differences
    }

    private static func differences(of actual: Table, from expected: Table) -> [SchemaDifference] {
        var differences: [SchemaDifference] = []
        for column in expected.columns {
            guard let actualColumn = actual.column(named: column.name) else {
                differences.append(.missingColumn(table: expected.name, column: column.name))
                continue
            }
            if normalized(actualColumn.type) != normalized(column.type) {
                differences.append(
                    .columnTypeMismatch(
                        table: expected.name, column: column.name, expected: column.type, actual: actualColumn.type))
            }
        }
        for column in actual.columns where expected.column(named: column.name) == nil {
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
