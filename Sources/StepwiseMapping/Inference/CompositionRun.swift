import StepwiseModel

/// One run of ``MappingComposition/compose(_:_:source:intermediate:destination:)``: the two
/// mappings indexed by entity, the composed mapping names, and the entity-level rules.
struct CompositionRun {
    /// An entity carried through both steps: `A` entity → `B` entity → `C` entity.
    struct Link {
        var source: Entity
        var first: EntityMapping
        var intermediate: Entity
        var second: EntityMapping
        var destination: Entity
    }

    let first: MappingModel
    let second: MappingModel
    let source: ObjectModel
    let intermediate: ObjectModel
    let destination: ObjectModel
    /// First step's copy, transform and add mappings by intermediate entity.
    private var firstByDestination: [String: EntityMapping] = [:]
    /// First step's copy, transform and remove mappings by source entity.
    private var firstBySource: [String: EntityMapping] = [:]
    /// Second step's copy, transform and add mappings by destination entity.
    private var secondByDestination: [String: EntityMapping] = [:]
    /// Second step's copy, transform and remove mappings by intermediate entity.
    private var secondBySource: [String: EntityMapping] = [:]
    /// Destination entity → the name of the composed mapping that produces it.
    private(set) var mappingNames: [String: String] = [:]

    init(
        first: MappingModel, second: MappingModel, source: ObjectModel, intermediate: ObjectModel,
        destination: ObjectModel
    ) throws(CompositionRefusal) {
        self.first = first
        self.second = second
        self.source = source
        self.intermediate = intermediate
        self.destination = destination
        (firstBySource, firstByDestination) = try Self.index(first)
        (secondBySource, secondByDestination) = try Self.index(second)
        for entity in destination.entities {
            mappingNames[entity.name] = EntityMapping.defaultName(
                source: try sourceEntityName(continuedBy: entity.name), destination: entity.name)
        }
    }

    /// The composed entity mappings, in inference's order: one per destination entity (copy,
    /// transform or add), then one remove per source entity either step removes.
    func entityMappings() throws(CompositionRefusal) -> [EntityMapping] {
        var mappings: [EntityMapping] = []
        for entity in destination.entities {
            guard let link = try link(continuing: entity) else {
                mappings.append(EntityMapping(kind: .add, source: nil, destination: entity.name))
                continue
            }
            try checkUniquenessConstraints(of: link)
            mappings.append(
                EntityMapping(
                    name: mappingNames[entity.name],
                    kind: link.first.kind == .copy && link.second.kind == .copy ? .copy : .transform,
                    source: link.source.name, destination: entity.name, attributeMappings: try attributeMappings(link),
                    relationshipMappings: try relationshipMappings(link)))
        }
        for entity in source.entities {
            if try isRemoved(entity.name) {
                mappings.append(EntityMapping(kind: .remove, source: entity.name, destination: nil))
            }
        }
        return mappings
    }

    // MARK: - Entities

    /// The source entity a destination entity continues through both steps; nil when either
    /// step adds it.
    private func sourceEntityName(continuedBy destinationEntity: String) throws(CompositionRefusal) -> String? {
        guard let second = secondByDestination[destinationEntity] else {
            throw CompositionRefusal(
                .notInferredShape("a destination entity without a mapping"), entity: destinationEntity)
        }
        guard let intermediateEntity = second.sourceEntity else { return nil }
        guard let first = firstByDestination[intermediateEntity] else {
            throw CompositionRefusal(
                .notInferredShape("an intermediate entity without a mapping"), entity: intermediateEntity)
        }
        return first.sourceEntity
    }

    /// The chain that carries rows into `entity`, or nil when one of the steps adds it.
    private func link(continuing entity: Entity) throws(CompositionRefusal) -> Link? {
        guard let second = secondByDestination[entity.name], let intermediateName = second.sourceEntity,
            let first = firstByDestination[intermediateName], let sourceName = first.sourceEntity
        else { return nil }
        guard let sourceEntity = source[entity: sourceName] else {
            throw Self.invalid(MappingError(.unknownEntity(sourceName, version: source.name)), entity: entity.name)
        }
        guard let intermediateEntity = intermediate[entity: intermediateName] else {
            throw Self.invalid(
                MappingError(.unknownEntity(intermediateName, version: intermediate.name)), entity: entity.name)
        }
        return Link(
            source: sourceEntity, first: first, intermediate: intermediateEntity, second: second, destination: entity)
    }

    /// Whether either step drops the rows of a source entity.
    private func isRemoved(_ sourceEntity: String) throws(CompositionRefusal) -> Bool {
        guard let first = firstBySource[sourceEntity] else {
            throw CompositionRefusal(.notInferredShape("a source entity without a mapping"), entity: sourceEntity)
        }
        guard let intermediateEntity = first.destinationEntity else { return true }
        guard let second = secondBySource[intermediateEntity] else {
            throw CompositionRefusal(
                .notInferredShape("an intermediate entity without a mapping"), entity: intermediateEntity)
        }
        return second.destinationEntity == nil
    }

    /// Whether the step removes the rows of any concrete entity in the hierarchy from
    /// `entity` (the objects a relationship to `entity` can hold).
    func removesObjects(of entity: String, in model: ObjectModel, by mapping: MappingModel) -> Bool {
        guard let root = model[entity: entity] else { return true }
        return model.hierarchy(from: root).contains { held in
            mapping.entityMappings.contains { $0.sourceEntity == held.name && $0.kind == .remove }
        }
    }

    /// Indexes an inferred mapping by source and by destination entity, refusing the shapes
    /// inference never makes: policies, filters, user info, custom kinds, duplicates.
    private static func index(
        _ model: MappingModel
    ) throws(CompositionRefusal) -> (bySource: [String: EntityMapping], byDestination: [String: EntityMapping]) {
        var bySource: [String: EntityMapping] = [:]
        var byDestination: [String: EntityMapping] = [:]
        for mapping in model.entityMappings {
            let entity = mapping.destinationEntity ?? mapping.sourceEntity
            guard mapping.kind != .custom, mapping.policyName == nil, mapping.filter == nil, mapping.userInfo.isEmpty
            else {
                throw CompositionRefusal(
                    .notInferredShape("entity mapping '\(mapping.name)' of '\(model.name)'"), entity: entity)
            }
            let expectsSource = mapping.kind != .add
            let expectsDestination = mapping.kind != .remove
            guard (mapping.sourceEntity != nil) == expectsSource,
                (mapping.destinationEntity != nil) == expectsDestination
            else {
                throw CompositionRefusal(
                    .notInferredShape("entity mapping '\(mapping.name)' of kind \(mapping.kind.rawValue)"),
                    entity: entity)
            }
            if let name = mapping.sourceEntity {
                guard bySource.updateValue(mapping, forKey: name) == nil else {
                    throw CompositionRefusal(.notInferredShape("a second mapping from '\(name)'"), entity: name)
                }
            }
            if let name = mapping.destinationEntity {
                guard byDestination.updateValue(mapping, forKey: name) == nil else {
                    throw CompositionRefusal(.notInferredShape("a second mapping to '\(name)'"), entity: name)
                }
            }
        }
        return (bySource, byDestination)
    }

    /// A refusal for a composed mapping that names something the models don't have.
    static func invalid(_ error: MappingError, entity: String?, property: String? = nil) -> CompositionRefusal {
        CompositionRefusal(.invalidComposition(error), entity: entity, property: property)
    }
}
