import Crypto
import Foundation
import StepwiseMapping

/// A SHA-256 of a step's mapping models, written in a canonical text form (sorted user
/// info, expressions in their parseable syntax). The journal records it per step, so a
/// checkpoint made with different mappings (a new app build) is never resumed.
///
/// Policies are code, not data: a changed policy with an unchanged mapping isn't detected.
enum MappingDigest {
    static func digest(_ models: [MappingModel]) -> String {
        var text = ""
        for model in models {
            text += "model \(model.name)|\(model.sourceVersion)|\(model.destinationVersion)|\(model.isInferred)\n"
            for mapping in model.entityMappings {
                text += "  entity \(mapping.name)|\(mapping.kind.rawValue)|\(mapping.sourceEntity ?? "")"
                text += "|\(mapping.destinationEntity ?? "")|\(mapping.filter.map { "\($0)" } ?? "")"
                text += "|\(mapping.policyName ?? "")|\(canonical(mapping.userInfo))\n"
                for property in mapping.attributeMappings + mapping.relationshipMappings {
                    text += "    \(property.name)=\(property.valueExpression.map { "\($0)" } ?? "")"
                    text += "|\(canonical(property.userInfo))\n"
                }
            }
        }
        return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private static func canonical(_ userInfo: [String: String]) -> String {
        userInfo.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
    }
}
