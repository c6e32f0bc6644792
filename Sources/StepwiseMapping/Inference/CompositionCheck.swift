import StepwiseModel

/// Checks a composed mapping against its two versions, as a mapping file is checked when
/// read (``MappingFile``, ``SourceKeyPathCheck``), plus the invariants inference guarantees:
///
/// - every entity mapping names entities of its versions, and every destination entity has
///   exactly one mapping, every source entity exactly one;
/// - property mappings name stored properties of the destination entity, attributes as
///   attributes and relationships as relationships, and their source key paths exist;
/// - a relationship's manager function names a mapping of the step that produces the
///   relationship's destination entity, and every concrete entity the source relationship can
///   hold is removed or becomes a kind of that entity.
enum CompositionCheck {
    static func validate(
        _ mapping: MappingModel, source: ObjectModel, destination: ObjectModel
    ) throws(CompositionRefusal) {
        var sources: Set<String> = []
        var destinations: Set<String> = []
        for entityMapping in mapping.entityMappings {
            let entity = entityMapping.destinationEntity ?? entityMapping.sourceEntity
            func invalid(_ error: MappingError, property: String? = nil) -> CompositionRefusal {
                CompositionRefusal(
                    .invalidComposition(error.adding(mappingModel: mapping.name, entityMapping: entityMapping.name)),
                    entity: entity, property: property)
            }
            if let name = entityMapping.sourceEntity, !sources.insert(name).inserted {
                throw invalid(MappingError(.failed("'\(name)' is the source of two entity mappings")))
            }
            if let name = entityMapping.destinationEntity, !destinations.insert(name).inserted {
                throw invalid(MappingError(.failed("'\(name)' is the destination of two entity mappings")))
            }
            let sourceEntity = try entityMapping.sourceEntity.map { name throws(CompositionRefusal) -> Entity in
                guard let found = source[entity: name] else {
                    throw invalid(MappingError(.unknownEntity(name, version: source.name)))
                }
                return found
            }
            guard let destinationName = entityMapping.destinationEntity else { continue }
            guard let destinationEntity = destination[entity: destinationName] else {
                throw invalid(MappingError(.unknownEntity(destinationName, version: destination.name)))
            }
            guard let sourceEntity else {
                if !(entityMapping.attributeMappings + entityMapping.relationshipMappings).isEmpty {
                    throw invalid(MappingError(.failed("an add mapping has property mappings")))
                }
                continue
            }
            let attributes = destination.allAttributes(of: destinationEntity).filter { !$0.isTransient }
            let relationships = destination.allRelationships(of: destinationEntity).filter { !$0.isTransient }
            for propertyMapping in entityMapping.attributeMappings + entityMapping.relationshipMappings {
                let isAttribute = entityMapping.attributeMappings.contains(propertyMapping)
                let known =
                    isAttribute
                    ? attributes.contains { $0.name == propertyMapping.name }
                    : relationships.contains { $0.name == propertyMapping.name }
                guard known else {
                    throw invalid(
                        MappingError(
                            .unknownProperty(
                                entity: destinationName, property: propertyMapping.name, version: destination.name)),
                        property: propertyMapping.name)
                }
                guard let expression = propertyMapping.valueExpression else { continue }
                do {
                    try SourceKeyPathCheck.check(expression, from: sourceEntity, in: source)
                } catch {
                    throw invalid(error, property: propertyMapping.name)
                }
            }
            for propertyMapping in entityMapping.relationshipMappings {
                guard let relationship = relationships.first(where: { $0.name == propertyMapping.name }) else {
                    continue
                }
                if let problem = heldObjectsProblem(
                    propertyMapping, relationship, from: sourceEntity, in: mapping, source: source,
                    destination: destination)
                {
                    throw invalid(MappingError(problem), property: propertyMapping.name)
                }
            }
        }
        for entity in source.entities where !sources.contains(entity.name) {
            throw CompositionRefusal(
                .invalidComposition(MappingError(.failed("no entity mapping reads '\(entity.name)'"))),
                entity: entity.name)
        }
        for entity in destination.entities where !destinations.contains(entity.name) {
            throw CompositionRefusal(
                .invalidComposition(MappingError(.failed("no entity mapping makes '\(entity.name)'"))),
                entity: entity.name)
        }
    }

    /// Why the objects a relationship mapping reads can't all become what the destination
    /// relationship holds, or nil.
    private static func heldObjectsProblem(
        _ propertyMapping: PropertyMapping, _ relationship: Relationship, from sourceEntity: Entity,
        in mapping: MappingModel, source: ObjectModel, destination: ObjectModel
    ) -> MappingError.Kind? {
        guard let expression = propertyMapping.valueExpression,
            let call = MappingInference.destinationInstancesCall(in: expression), call.sourceKeyPath.count == 1
        else { return .failed("the relationship mapping is not the manager function over one source relationship") }
        guard let named = mapping.entityMapping(named: call.mappingName) else {
            return .unknownEntityMapping(call.mappingName)
        }
        guard named.destinationEntity == relationship.destination,
            let target = destination[entity: relationship.destination]
        else {
            return .failed("'\(call.mappingName)' doesn't produce '\(relationship.destination)'")
        }
        guard
            let sourceRelationship = source.allRelationships(of: sourceEntity).first(where: {
                $0.name == call.sourceKeyPath[0]
            }),
            let held = source[entity: sourceRelationship.destination]
        else {
            return .unknownProperty(entity: sourceEntity.name, property: call.sourceKeyPath[0], version: source.name)
        }
        for entity in source.hierarchy(from: held) where !entity.isAbstract {
            guard let carrying = mapping.entityMappings.first(where: { $0.sourceEntity == entity.name }) else {
                return .failed("no entity mapping reads '\(entity.name)'")
            }
            guard let continued = carrying.destinationEntity else { continue }
            guard let continuedEntity = destination[entity: continued],
                destination.entity(continuedEntity, isKindOf: target)
            else {
                return .failed(
                    "objects of '\(entity.name)' would become '\(continued)', not a kind of '\(target.name)'")
            }
        }
        return nil
    }
}
