import StepwiseMapping

/// The benchmark's per-row policy: splits `"First Last"` and upper-cases a note.
///
/// Having a policy at all is what matters: it sends `ItemToItem` down the row-by-row path,
/// so every item is read into a ``StoredObject``, evaluated in Swift and inserted on its own.
final class BenchItemPolicy: EntityMigrationPolicy {
    override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
        -> MappingValue
    {
        switch selector {
        case "firstNameOf:", "lastNameOf:":
            guard let name = arguments.first?.stringValue else { return .null }
            let parts = name.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            if selector == "firstNameOf:" { return .string(parts.first.map(String.init) ?? "") }
            return .string(parts.count > 1 ? String(parts[1]) : "")
        case "upper:":
            guard let text = arguments.first?.stringValue else { return .null }
            return .string(text.uppercased())
        default:
            return try super.function(named: selector, arguments: arguments, manager: manager)
        }
    }
}
