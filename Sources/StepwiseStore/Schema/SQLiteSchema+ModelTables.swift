import StepwiseModel

extension SQLiteSchema {
    /// How this store's tables and columns differ from those a model version lays out, for the
    /// release that wrote the store and with Core Data's unpredictable choices taken from the
    /// store itself (``StoreLayout/init(model:release:matching:)``). Indexes and constraints are
    /// left out (``SchemaDifference/concernsTablesOrColumns``), and so are the tables a store may
    /// or may not have (``StoreLayout/optionalTableNames``).
    ///
    /// It is the question both "which version wrote this store?" and "is the upgraded store the
    /// target's?" ask.
    package func tableDifferences(from model: ObjectModel, release: CoreDataRelease = .newest) throws
        -> [SchemaDifference]
    {
        tableDifferences(
            fromExpected: try SQLiteSchema(expectedFor: StoreLayout(model: model, release: release, matching: self)))
    }

    /// ``tableDifferences(from:release:)`` against a layout's schema already worked out
    /// (``init(expectedFor:)``), as the version registry keeps them.
    package func tableDifferences(fromExpected expected: SQLiteSchema) -> [SchemaDifference] {
        differences(from: expected, ignoringTables: StoreLayout.optionalTableNames).filter(\.concernsTablesOrColumns)
    }
}

extension SchemaDifference {
    /// Whether the difference is about tables, columns or their types: what decides which
    /// version wrote a store. Indexes and unique constraints are left out, because adding an
    /// index changes neither Core Data's hashes nor whether a store can be opened.
    package var concernsTablesOrColumns: Bool {
        switch self {
        case .missingTable, .extraTable, .missingColumn, .extraColumn, .columnTypeMismatch: true
        default: false
        }
    }
}
