// snippet.hide
// EntityMigrationPolicies.md, "Write a policy": the smallest policy, one `FUNCTION`. Built by
// `swift build`, never run.
// snippet.show
import Stepwise

final class ChefPolicy: EntityMigrationPolicy {
    override func function(
        named selector: String, arguments: [MappingValue], manager: MigrationManager
    ) throws -> MappingValue {
        switch selector {
        case "firstName:":
            let name = arguments.first?.stringValue ?? ""
            return .string(name.split(separator: " ").first.map(String.init) ?? "")
        default:
            return try super.function(named: selector, arguments: arguments, manager: manager)
        }
    }

    // This policy leaves pass 2 alone: its relationships may be linked set-based.
    override var createsRelationshipsByDefault: Bool { true }
}
