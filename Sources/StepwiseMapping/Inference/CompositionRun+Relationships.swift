import StepwiseModel

extension CompositionRun {
    /// The composed relationship mappings of a linked entity: the manager function of the
    /// second step, naming the composed mapping of the relationship's destination entity and
    /// the source relationship the first step reads.
    func relationshipMappings(_ link: Link) throws(CompositionRefusal) -> [PropertyMapping] {
        var mappings: [PropertyMapping] = []
        for second in link.second.relationshipMappings {
            func refuse(_ reason: CompositionRefusal.Reason) -> CompositionRefusal {
                CompositionRefusal(reason, entity: link.destination.name, property: second.name)
            }
            let intermediateName = try Self.sourceRelationshipName(of: second, entity: link.destination.name)
            guard
                let relationship = destination.allRelationships(of: link.destination).first(where: {
                    $0.name == second.name
                }),
                let intermediateRelationship = intermediate.allRelationships(of: link.intermediate).first(where: {
                    $0.name == intermediateName
                })
            else {
                throw Self.invalid(
                    MappingError(
                        .unknownProperty(
                            entity: link.destination.name, property: second.name, version: destination.name)),
                    entity: link.destination.name, property: second.name)
            }
            guard let first = link.first.relationshipMappings.first(where: { $0.name == intermediateName }) else {
                // New in the intermediate version: empty after the first step, and so after
                // the second, unless it is the inverse of a relationship the first step
                // carries. The two share their storage, so that one fills it.
                if carriesInverse(of: intermediateRelationship) { throw refuse(.filledThroughItsInverse) }
                continue
            }
            let sourceName = try Self.sourceRelationshipName(of: first, entity: link.destination.name)
            guard
                let sourceRelationship = source.allRelationships(of: link.source).first(where: {
                    $0.name == sourceName
                })
            else {
                throw Self.invalid(
                    MappingError(
                        .unknownProperty(entity: link.source.name, property: sourceName, version: source.name)),
                    entity: link.destination.name, property: second.name)
            }
            let chain = (sourceRelationship, intermediateRelationship, relationship)
            if let reason = refusalOfShape(chain) ?? refusalOfCounts(chain) { throw refuse(reason) }
            guard let mappingName = mappingNames[relationship.destination] else {
                throw Self.invalid(
                    MappingError(.unknownEntity(relationship.destination, version: destination.name)),
                    entity: link.destination.name, property: second.name)
            }
            mappings.append(
                PropertyMapping(
                    second.name,
                    MappingInference.relationshipExpression(mappingNamed: mappingName, sourceRelationship: sourceName)))
        }
        return mappings
    }

    /// Why the objects one pass keeps, or their order, would differ from the two steps', or
    /// nil. Inferred steps keep one object of a to-many that becomes to-one (the first in
    /// order, or the lowest primary key) and order an unordered to-many by primary keys.
    private func refusalOfShape(
        _ chain: (source: Relationship, intermediate: Relationship, destination: Relationship)
    ) -> CompositionRefusal.Reason? {
        let (source, intermediate, destination) = chain
        if source.isToMany && intermediate.isToOne && destination.isToMany {
            return .intermediateKeepsOneObject
        }
        let ordered = { (relationship: Relationship) in relationship.isToMany && relationship.isOrdered }
        if ordered(source) && !ordered(intermediate) && ordered(destination) {
            return .intermediateLosesOrder
        }
        // The second step chooses by the intermediate store's primary keys. One pass chooses by
        // the source's order or keys: the same only when the source relationship is unordered
        // and the first step keeps the relative order of the keys, which it does for the rows
        // of one entity (renumbered in source order) but not across several.
        let intermediateByKeys = intermediate.isToMany && !intermediate.isOrdered
        if source.isToMany && intermediateByKeys && (ordered(destination) || destination.isToOne) {
            let concrete = intermediateConcreteEntities(heldBy: intermediate)
            if ordered(source) || concrete > 1 { return .orderDependsOnIntermediateKeys }
        }
        return nil
    }

    /// Why the intermediate version's count bounds could fail a store one pass accepts, or nil.
    ///
    /// Pass 3 checks a relationship's minimum (a required to-one counts 1) and a to-many's
    /// maximum. The intermediate bound is harmless when the source's own bound implies it
    /// (and the first step drops none of the held objects), or when the destination's does
    /// (for a maximum, when the second step drops none): then both ways fail or neither does.
    private func refusalOfCounts(
        _ chain: (source: Relationship, intermediate: Relationship, destination: Relationship)
    ) -> CompositionRefusal.Reason? {
        let (source, intermediate, destination) = chain
        let minimum = Self.minimumCount(of: intermediate)
        if minimum > 0 {
            let impliedBySource =
                Self.minimumCount(of: source) >= minimum
                && !removesObjects(of: source.destination, in: self.source, by: first)
            let impliedByDestination = Self.minimumCount(of: destination) >= minimum
            if !impliedBySource && !impliedByDestination {
                return .intermediateCountBound(minimum: minimum, maximum: intermediate.maxCount)
            }
        }
        if intermediate.isToMany, intermediate.maxCount > 0 {
            let impliedBySource =
                source.isToOne || (source.maxCount > 0 && source.maxCount <= intermediate.maxCount)
            let impliedByDestination =
                destination.isToMany && destination.maxCount > 0 && destination.maxCount <= intermediate.maxCount
                && !removesObjects(of: intermediate.destination, in: self.intermediate, by: second)
            if !impliedBySource && !impliedByDestination {
                return .intermediateCountBound(minimum: minimum, maximum: intermediate.maxCount)
            }
        }
        return nil
    }

    /// Whether the first step maps the inverse of an intermediate relationship, on any
    /// entity of the relationship's destination hierarchy.
    private func carriesInverse(of relationship: Relationship) -> Bool {
        guard let inverse = relationship.inverse, let target = intermediate[entity: relationship.destination] else {
            return false
        }
        let holders = Set(intermediate.hierarchy(from: target).map(\.name))
        return first.entityMappings.contains { mapping in
            mapping.destinationEntity.map(holders.contains) == true
                && mapping.relationshipMappings.contains { $0.name == inverse && $0.valueExpression != nil }
        }
    }

    /// How many concrete entities of the intermediate version a relationship can hold.
    private func intermediateConcreteEntities(heldBy relationship: Relationship) -> Int {
        guard let target = intermediate[entity: relationship.destination] else { return 0 }
        return intermediate.hierarchy(from: target).filter { !$0.isAbstract }.count
    }

    /// How many objects pass 3 requires: 1 for a required to-one, the minimum count of a to-many.
    private static func minimumCount(of relationship: Relationship) -> Int {
        relationship.isToMany ? relationship.minCount : (relationship.isOptional ? 0 : 1)
    }

    /// `x` of an inferred relationship mapping, the manager function over `$source.x`.
    private static func sourceRelationshipName(
        of mapping: PropertyMapping, entity: String
    ) throws(CompositionRefusal) -> String {
        guard mapping.userInfo.isEmpty,
            let call = mapping.valueExpression.flatMap(MappingInference.destinationInstancesCall(in:)),
            call.sourceKeyPath.count == 1
        else {
            throw CompositionRefusal(
                .notInferredShape("the expression \(mapping.valueExpression?.description ?? "nil")"), entity: entity,
                property: mapping.name)
        }
        return call.sourceKeyPath[0]
    }
}
