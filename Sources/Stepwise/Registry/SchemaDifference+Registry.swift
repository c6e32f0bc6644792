import StepwiseStore

extension SchemaDifference {
    /// Whether the store has something the version lacks (a sign of a newer writer).
    var isAddition: Bool {
        switch self {
        case .extraTable, .extraColumn, .extraIndex, .extraUniqueConstraint: true
        default: false
        }
    }
}
