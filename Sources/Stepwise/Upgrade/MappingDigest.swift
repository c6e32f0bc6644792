import Crypto
import Foundation
import StepwiseMapping

/// A SHA-256 of a step's mapping models, written in a canonical text form (sorted user
/// info, expressions in their parseable syntax), and of the registered version of each policy
/// they name. The journal records it per step, so a checkpoint made with different mappings or
/// policy versions (a new app build) is never resumed.
///
/// Policies are code, not data: a changed policy is seen only through the version it is
/// registered with (``PolicyRegistry/register(_:version:_:)``).
enum MappingDigest {
    static func digest(_ models: [MappingModel], policies: PolicyRegistry) -> String {
        var text = ""
        for model in models {
            text += "model \(model.name)|\(model.sourceVersion)|\(model.destinationVersion)|\(model.isInferred)\n"
            for mapping in model.entityMappings {
                text += "  entity \(mapping.name)|\(mapping.kind.rawValue)|\(mapping.sourceEntity ?? "")"
                text += "|\(mapping.destinationEntity ?? "")|\(mapping.filter.map { "\($0)" } ?? "")"
                text += "|\(mapping.policyName ?? "")"
                if let name = mapping.policyName, let version = policies.version(of: name), !version.isEmpty {
                    // Only a set version counts, so digests from before versions existed still match.
                    text += "@\(version)"
                }
                text += "|\(canonical(mapping.userInfo))\n"
                for property in mapping.attributeMappings + mapping.relationshipMappings {
                    text += "    \(property.name)=\(property.valueExpression.map { "\($0)" } ?? "")"
                    text += "|\(canonical(property.userInfo))\n"
                }
            }
        }
        return SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    fileprivate static func canonical(_ userInfo: [String: String]) -> String {
        userInfo.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
    }
}

extension PlannedStep {
    /// What the journal records of a planned step: its versions, kind and ``MappingDigest``.
    /// A resumed upgrade follows the journaled plan only when every fingerprint is the same.
    func fingerprint(policies: PolicyRegistry) -> String {
        "\(from) → \(to) (\(kind)) \(MappingDigest.digest(mappingModels, policies: policies))"
    }
}
