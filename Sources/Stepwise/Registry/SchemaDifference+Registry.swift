import StepwiseStore

extension SchemaDifference {
    /// Whether the difference is about tables, columns or their types: what decides which
    /// version wrote a store. Indexes and unique constraints are left out, because adding an
    /// index changes neither Core Data's hashes nor whether a store can be opened.
    var concernsTablesOrColumns: Bool {
        switch self {
        case .missingTable, .extraTable, .missingColumn, .extraColumn, .columnTypeMismatch: true
        default: false
        }
    }

    /// Whether the store has something the version lacks (a sign of a newer writer).
    var isAddition: Bool {
        switch self {
        case .extraTable, .extraColumn, .extraIndex, .extraUniqueConstraint: true
        default: false
        }
    }
}
