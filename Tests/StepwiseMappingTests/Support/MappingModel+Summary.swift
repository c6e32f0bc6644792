import StepwiseMapping

/// One-line renderings of inferred mappings, so test tables can assert every entity mapping's
/// kind and name and every property mapping's expression and user info at a glance.
///
/// `transform PostToPost: title=$source.title, author=→AuthorToAuthor($source.author)`:
/// `→Name($source.x)` abbreviates Core Data's
/// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "Name", $source.x)`
/// (``MappingInferenceTests`` checks the full form once), and user info follows in braces.
extension MappingModel {
    var summary: [String] { entityMappings.map(\.summary) }
}

extension EntityMapping {
    var summary: String {
        let properties = (attributeMappings + relationshipMappings).map(\.summary)
        return "\(kind.rawValue) \(name)" + (properties.isEmpty ? "" : ": " + properties.joined(separator: ", "))
    }
}

extension PropertyMapping {
    var summary: String {
        let value: String
        if let expression = valueExpression {
            if let call = MappingInference.destinationInstancesCall(in: expression) {
                value = "→\(call.mappingName)($source.\(call.sourceKeyPath.joined(separator: ".")))"
            } else {
                value = expression.description
            }
        } else {
            value = "nil"
        }
        let info = userInfo.keys.sorted().map { "\($0)=\(userInfo[$0] ?? "")" }
        return "\(name)=\(value)" + (info.isEmpty ? "" : " {\(info.joined(separator: ", "))}")
    }
}
