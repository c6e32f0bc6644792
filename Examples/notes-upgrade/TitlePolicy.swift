import Foundation
import Stepwise

/// Notes 1 → Notes 2: every note gets a title. The mapping calls
/// `FUNCTION($entityPolicy, "titleOf:body:", $source.title, $source.body)`: the title, trimmed,
/// or else the body's first line, or else "Untitled".
final class TitlePolicy: EntityMigrationPolicy {
    override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
        -> MappingValue
    {
        guard selector == "titleOf:body:" else {
            return try super.function(named: selector, arguments: arguments, manager: manager)
        }
        let title = arguments.first?.stringValue?.trimmingCharacters(in: .whitespaces) ?? ""
        if !title.isEmpty { return .string(title) }
        let firstLine = arguments.dropFirst().first?.stringValue?.split(separator: "\n").first.map(String.init)
        return .string(firstLine ?? "Untitled")
    }
}
