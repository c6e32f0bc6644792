import Foundation
import StepwiseMapping
import StepwiseModel

/// The explicit mapping both partial-rebuild suites use: their models have two entities,
/// `Account` and `Entry`; one is mapped with the given attribute expressions, the other is
/// copied as it is. A step with such a mapping rebuilds only the transformed entity's table.
enum PartialRebuildMapping {
    static func transforming(
        _ entity: String, _ attributes: KeyValuePairs<String, String>, from: ObjectModel, to: ObjectModel
    ) throws -> MappingModel {
        let other = entity == "Account" ? "Entry" : "Account"
        let pairs = attributes.map { #""\#($0.key)": "\#($0.value)""# }.joined(separator: ", ")
        let text = """
            { "source": "\(from.name)", "destination": "\(to.name)",
              "entityMappings": [
                { "name": "\(entity)To\(entity)", "source": "\(entity)", "destination": "\(entity)",
                  "attributes": { \(pairs) } },
                { "name": "\(other)To\(other)", "source": "\(other)", "destination": "\(other)" }
              ] }
            """
        return try MappingFile.decode(Data(text.utf8), source: from, destination: to)
    }
}
