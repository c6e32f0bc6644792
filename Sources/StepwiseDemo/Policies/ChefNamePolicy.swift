import StepwiseMapping

/// Recipes 1 → 2: splits `Chef.name` ("Miguel Sanchez") into first and last names.
///
/// The mapping calls `FUNCTION($entityPolicy, "firstNameOf:", $source.name)` and
/// `FUNCTION($entityPolicy, "lastNameOf:", $source.name)`. The first name is the text before
/// the first space; the last name is the rest ("" for a single word).
package final class ChefNamePolicy: EntityMigrationPolicy {
    package override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
        -> MappingValue
    {
        guard selector == "firstNameOf:" || selector == "lastNameOf:" else {
            return try super.function(named: selector, arguments: arguments, manager: manager)
        }
        guard let name = arguments.first?.stringValue else { return .null }
        let parts = name.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        if selector == "firstNameOf:" {
            return .string(parts.first.map(String.init) ?? "")
        }
        return .string(parts.count > 1 ? String(parts[1]) : "")
    }

    /// Pass 2 keeps the default hook: its links may be written as set-based SQL.
    package override var createsRelationshipsByDefault: Bool { true }
}
