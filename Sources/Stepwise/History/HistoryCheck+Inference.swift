import StepwiseMapping
import StepwiseModel

extension HistoryCheck {
    /// The warnings about the inferred steps the planner offers (each consecutive pair without
    /// a mapping file whose mapping can be inferred): ``HistoryFinding/Kind/dropsData`` and
    /// ``HistoryFinding/Kind/sharedRenamingIdentifier``.
    ///
    /// Each step is checked on its own, before merging: a store written by its source version
    /// runs it, even when a store from an earlier version runs it merged with others.
    ///
    /// - parameter edges: The planner's steps (``UpgradePlanner/edges()``).
    func inferredStepFindings(_ edges: [PlannedStep]) -> [HistoryFinding] {
        var findings: [HistoryFinding] = []
        for edge in edges where edge.kind == .inferred {
            guard let source = history.version(named: edge.from), let destination = history.version(named: edge.to)
            else { continue }
            findings += DroppedData.planned(by: edge.mappingModels, from: source, to: destination).map {
                dropFinding($0, from: source.name, to: destination.name)
            }
            for model in edge.mappingModels {
                findings += sharedIdentifierFindings(model, from: source, to: destination)
            }
        }
        return findings
    }

    private func dropFinding(_ drop: DroppedData, from source: String, to destination: String) -> HistoryFinding {
        let step = "The inferred step '\(source)' → '\(destination)'"
        let file = "'\(source) to \(destination).json'"
        switch drop.kind {
        case .entity:
            return HistoryFinding(
                .dropsData, version: destination, entity: drop.entity,
                message:
                    "\(step) drops every \(drop.entity) row: no entity of '\(destination)' continues \(drop.entity).",
                fix:
                    "If \(drop.entity) was renamed, give its new entity in '\(destination)' the renaming identifier '\(drop.entity)'; to drop its rows on purpose, say so in a mapping file \(file) with an entity mapping from \(drop.entity) and no destination."
            )
        case .persistentHistory, .cloudKitMetadata:
            // Counted in stores only (`DropCounter.privateTableDrops`), never planned from models;
            // they go with their entity's rows, whose finding says what to do.
            return HistoryFinding(
                .dropsData, version: destination, entity: drop.entity,
                message: "\(step) drops \(drop.description).",
                fix: "Keep \(drop.entity) in '\(destination)', or give its successor its renaming identifier.")
        case .relationship where drop.reason == .destinationChanged:
            let property = drop.property ?? ""
            let objects = (drop.linksTo ?? []).joined(separator: ", ")
            return HistoryFinding(
                .dropsData, version: destination, entity: drop.entity, property: property,
                message:
                    "\(step) drops the links of \(drop.place) to \(objects): its destination changes to an entity those objects don't become, and Core Data's inference leaves such links out.",
                fix:
                    "If the links should follow, write a mapping file \(file) that makes the new destination's objects from them; if they go on purpose, this warning can stay."
            )
        case .attribute, .relationship:
            let property = drop.property ?? ""
            let what = drop.kind == .attribute ? "values" : "links"
            return HistoryFinding(
                .dropsData, version: destination, entity: drop.entity, property: property,
                message:
                    "\(step) drops the \(what) of \(drop.place): no \(drop.kind.rawValue) of '\(destination)' continues it.",
                fix:
                    "If '\(property)' was renamed, give the new \(drop.kind.rawValue) in '\(destination)' the renaming identifier '\(property)'; if it was removed on purpose, its \(what) go and this warning can stay, or write a mapping file \(file) that carries them."
            )
        }
    }

    /// The properties an inferred mapping matches through a renaming identifier that other
    /// properties of the same source or destination entity carry too. Inference takes the
    /// first source property carrying a destination property's identifier, so the match
    /// hangs on the order of the properties in the model file.
    private func sharedIdentifierFindings(
        _ model: MappingModel, from source: ObjectModel, to destination: ObjectModel
    ) -> [HistoryFinding] {
        var findings: [HistoryFinding] = []
        for mapping in model.entityMappings {
            guard let sourceName = mapping.sourceEntity, let destinationName = mapping.destinationEntity,
                let sourceEntity = source[entity: sourceName],
                let destinationEntity = destination[entity: destinationName],
                // An abstract entity has no rows; its subentities' mappings see the same properties.
                !sourceEntity.isAbstract
            else { continue }
            let sourceProperties = source.allProperties(of: sourceEntity).filter { !$0.isTransient }
            let destinationProperties = destination.allProperties(of: destinationEntity).filter { !$0.isTransient }
            for propertyMapping in mapping.attributeMappings + mapping.relationshipMappings {
                // A property matched by its own name depends on no identifier.
                guard let read = propertyMapping.valueExpression.flatMap(MappingInference.sourceProperty(readBy:)),
                    read != propertyMapping.name,
                    let identifier = destinationProperties.first(where: { $0.name == propertyMapping.name })?
                        .renamingIdentifier
                else { continue }
                // The matched pair may carry it; any other property that does makes the match fragile.
                let others =
                    sourceProperties.filter { $0.name != read && $0.renamingIdentifier == identifier }
                    .map { "\(sourceName).\($0.name) of '\(source.name)'" }
                    + destinationProperties.filter {
                        $0.name != propertyMapping.name && $0.renamingIdentifier == identifier
                    }
                    .map { "\(destinationName).\($0.name) of '\(destination.name)'" }
                guard !others.isEmpty else { continue }
                findings.append(
                    HistoryFinding(
                        .sharedRenamingIdentifier, version: destination.name, entity: destinationName,
                        property: propertyMapping.name,
                        message:
                            "The inferred step '\(source.name)' → '\(destination.name)' fills \(destinationName).\(propertyMapping.name) from '\(read)' through the renaming identifier '\(identifier)', which \(Self.list(others)) carry\(others.count == 1 ? "s" : "") too.",
                        fix:
                            "Set the renaming identifier of \(destinationName).\(propertyMapping.name) in '\(destination.name)' to '\(read)', the property it continues, or clear '\(identifier)' on the other properties."
                    ))
            }
        }
        return findings
    }

    /// `A`, `A and B`, `A, B and C`.
    static func list(_ names: [String]) -> String {
        guard let last = names.last else { return "" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
    }
}
