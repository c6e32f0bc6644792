import StepwiseModel

extension CompositionRun {
    /// Refuses an intermediate uniqueness constraint that could fail the first step on a
    /// store one pass would accept.
    ///
    /// The first step inserts every row into the intermediate tables, whose unique indexes
    /// reject duplicates. That can't happen when the source entity already has the same
    /// constraint over the same properties, and it would fail one pass too when the
    /// destination entity has it over the properties read from them.
    func checkUniquenessConstraints(of link: Link) throws(CompositionRefusal) {
        let constraints = Self.constraints(of: link.intermediate, in: intermediate)
        guard !constraints.isEmpty else { return }
        let sourceConstraints = Set(Self.constraints(of: link.source, in: source).map(Set.init))
        let destinationConstraints = Set(Self.constraints(of: link.destination, in: destination).map(Set.init))
        for constraint in constraints {
            // The same properties, by their names in the source and in the destination.
            let inSource = constraint.map { Self.sourceName(of: $0, in: link.first) }
            let inDestination = constraint.map { Self.destinationName(readingFrom: $0, in: link.second) }
            let impliedBySource =
                inSource.allSatisfy { $0 != nil } && sourceConstraints.contains(Set(inSource.compactMap { $0 }))
            let impliedByDestination =
                inDestination.allSatisfy { $0 != nil }
                && destinationConstraints.contains(Set(inDestination.compactMap { $0 }))
            if !impliedBySource && !impliedByDestination {
                throw CompositionRefusal(.intermediateUniquenessConstraint(constraint), entity: link.intermediate.name)
            }
        }
    }

    /// The uniqueness constraints that hold on an entity's rows: its own and its ancestors'.
    private static func constraints(of entity: Entity, in model: ObjectModel) -> [[String]] {
        (model.ancestors(of: entity) + [entity]).flatMap(\.uniquenessConstraints)
    }

    /// The source property an intermediate property is read from in the first step, unless
    /// its type is converted (Integer 64 → Double can make two values one).
    private static func sourceName(of intermediateProperty: String, in mapping: EntityMapping) -> String? {
        guard let propertyMapping = mapping.propertyMapping(named: intermediateProperty),
            propertyMapping.widening == nil, let expression = propertyMapping.valueExpression
        else { return nil }
        return readProperty(expression)
    }

    /// The destination property the second step reads from an intermediate property.
    private static func destinationName(readingFrom intermediateProperty: String, in mapping: EntityMapping) -> String?
    {
        (mapping.attributeMappings + mapping.relationshipMappings).first { propertyMapping in
            propertyMapping.valueExpression.flatMap(readProperty) == intermediateProperty
        }?.name
    }

    /// `x` in `$source.x` or in the manager function over `$source.x`.
    private static func readProperty(_ expression: Expression) -> String? {
        if case .keyPath(.source, let path) = expression, path.count == 1 { return path[0] }
        if let call = MappingInference.destinationInstancesCall(in: expression), call.sourceKeyPath.count == 1 {
            return call.sourceKeyPath[0]
        }
        return nil
    }
}
