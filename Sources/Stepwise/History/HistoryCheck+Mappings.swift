import Foundation
import StepwiseMapping
import StepwiseModel

extension HistoryCheck {
    /// ``HistoryFinding/Kind/unregisteredPolicy``: every entity mapping of every explicit
    /// mapping model that names a policy ``policies`` doesn't have, whether or not a plan
    /// passes through its step today.
    func policyFindings() -> [HistoryFinding] {
        guard let policies else { return [] }
        let models = mappings.sorted { ($0.key.source, $0.key.destination) < ($1.key.source, $1.key.destination) }
            .flatMap(\.value)
        return policies.unregisteredPolicies(in: models).map { policy, model, mapping in
            HistoryFinding(
                .unregisteredPolicy, version: model.destinationVersion,
                entity: mapping.sourceEntity ?? mapping.destinationEntity,
                message:
                    "\(Self.describe(model)) names the policy '\(policy)' for its entity mapping '\(mapping.name)', and the policy registry has no policy of that name.",
                fix:
                    "Register it with PolicyRegistry.register(\"\(policy)\") { … } in the registry your Upgrader and your StepwiseTool's policies use, or correct the name in the mapping."
            )
        }
    }

    /// The finding for a mapping file that couldn't be read or bound:
    /// ``HistoryFinding/Kind/staleMapping`` when it fits no pair of versions or names what its
    /// versions lack, else ``HistoryFinding/Kind/invalidMapping``.
    func mappingFinding(for error: MappingError) -> HistoryFinding {
        let url = URL(fileURLWithPath: error.file ?? "")
        let name = url.lastPathComponent
        let subject =
            url.pathExtension == XcodeMappingModel.pathExtension || CompiledMappingModel.hasCompiledName(url)
            ? "The mapping model '\(name)'" : "The mapping file '\(name)'"
        let update = "Update \(name) to the versions it maps between, or remove it if the step no longer needs it."
        switch error.kind {
        case .unknownEntity(let entity, let version):
            return HistoryFinding(
                .staleMapping, version: version, entity: entity,
                message: "\(subject) names the entity '\(entity)', which '\(version)' doesn't have.", fix: update)
        case .unknownProperty(let entity, let property, let version):
            return HistoryFinding(
                .staleMapping, version: version, entity: entity, property: property,
                message: "\(subject) names the property '\(entity).\(property)', which '\(version)' doesn't have.",
                fix: update)
        case .noMatchingVersions(let reason):
            // The reason's first sentence says why; the rest names the closest pair and the fix.
            var (why, rest) = Self.splitFirstSentence(reason)
            let repeated = "it fits no pair of model versions: "
            if why.hasPrefix(repeated) { why.removeFirst(repeated.count) }
            return HistoryFinding(
                .staleMapping, version: nil,
                message: "\(subject) fits no single pair of the bundle's versions: \(why)",
                fix: rest.isEmpty ? update : rest)
        default:
            if let header = try? MappingFile.header(of: url),
                let missing = [header.source, header.destination].first(where: { history.version(named: $0) == nil })
            {
                return HistoryFinding(
                    .staleMapping, version: nil,
                    message:
                        "\(subject) maps '\(header.source)' → '\(header.destination)', and the bundle has no version '\(missing)'.",
                    fix:
                        "Set its source and destination to versions of the bundle (\(history.names.joined(separator: ", "))), or remove it if the step is gone."
                )
            }
            var problem = error
            problem.file = nil
            return HistoryFinding(
                .invalidMapping, version: nil, entity: error.entity, property: error.property,
                message: "\(subject) can't be used: \(problem.description)",
                fix: "Correct \(name) as the message says, or remove it if the step no longer needs it.")
        }
    }

    /// `The mapping file 'A to B.json'`, or the mapping model's name when it has no file.
    private static func describe(_ model: MappingModel) -> String {
        guard let origin = model.origin else { return "The mapping '\(model.name)'" }
        let name = URL(fileURLWithPath: origin.path).lastPathComponent
        return origin.format == .json ? "The mapping file '\(name)'" : "The mapping model '\(name)'"
    }

    /// The text up to and including its first ". ", and the rest.
    private static func splitFirstSentence(_ text: String) -> (String, String) {
        guard let end = text.range(of: ". ") else { return (text, "") }
        return (String(text[..<end.upperBound]).trimmingCharacters(in: .whitespaces), String(text[end.upperBound...]))
    }
}

extension PolicyRegistry {
    /// Each entity mapping of `models` that names a policy this registry doesn't have, in order:
    /// what ``HistoryCheck`` reports and what an upgrade refuses before its first step.
    func unregisteredPolicies(
        in models: [MappingModel]
    ) -> [(policy: String, model: MappingModel, mapping: EntityMapping)] {
        models.flatMap { model in
            model.entityMappings.compactMap { mapping in
                guard let name = mapping.policyName, !name.isEmpty, !contains(name) else { return nil }
                return (name, model, mapping)
            }
        }
    }
}
