extension ObjectModel {
    /// Every rule the model breaks, in model order; empty for a valid model.
    ///
    /// Checks names (empty, duplicate), inheritance (unknown parents, cycles), relationships
    /// (unknown destinations, inverses that don't point back) and the property names used by
    /// uniqueness constraints and indexes.
    package func problems() -> [ModelProblem] {
        var problems: [ModelProblem] = []
        var seenEntities: Set<String> = []
        for entity in entities {
            if entity.name.isEmpty { problems.append(.emptyName(entity: nil)) }
            if !seenEntities.insert(entity.name).inserted { problems.append(.duplicateEntity(entity.name)) }
        }
        problems += inheritanceProblems()
        for entity in entities {
            problems += propertyProblems(of: entity)
        }
        return problems
    }

    /// The problems Core Data loads a model with (``ModelProblem/isWarning``), which `stepwise
    /// check` reports as warnings.
    package func warnings() -> [ModelProblem] {
        problems().filter(\.isWarning)
    }

    /// Throws a ``ModelError`` listing every problem Core Data would refuse the model for, if
    /// there is any; warnings (``ModelProblem/isWarning``) don't throw.
    /// - parameter file: The file the model was read from, named in the error.
    package func validate(file: String? = nil) throws(ModelError) {
        let problems = problems().filter { !$0.isWarning }
        if !problems.isEmpty {
            throw ModelError(version: name, file: file, problems: problems)
        }
    }

    private func inheritanceProblems() -> [ModelProblem] {
        var problems: [ModelProblem] = []
        var reportedCycles: Set<Set<String>> = []
        for entity in entities {
            guard let parentName = entity.parentName else { continue }
            guard self[entity: parentName] != nil else {
                problems.append(.unknownParent(entity: entity.name, parent: parentName))
                continue
            }
            // Walk up; coming back to an entity already on the path is a cycle.
            var path = [entity.name]
            var current = parentName
            while let next = self[entity: current] {
                if let start = path.firstIndex(of: current) {
                    let cycle = Array(path[start...])
                    if reportedCycles.insert(Set(cycle)).inserted {
                        problems.append(.inheritanceCycle(cycle + [current]))
                    }
                    break
                }
                path.append(current)
                guard let parent = next.parentName else { break }
                current = parent
            }
        }
        return problems
    }

    private func propertyProblems(of entity: Entity) -> [ModelProblem] {
        var problems: [ModelProblem] = []
        // Inherited names are taken, but their problems belong to the ancestor that declares
        // them: checking them here too would report a parent's duplicate once per subentity.
        var names = Set(ancestors(of: entity).flatMap(\.propertyNames))
        for name in entity.propertyNames {
            if name.isEmpty {
                problems.append(.emptyName(entity: entity.name))
            } else if !names.insert(name).inserted {
                problems.append(.duplicateProperty(entity: entity.name, property: name))
            }
        }
        for attribute in entity.attributes where attribute.type == .undefined && !attribute.isTransient {
            problems.append(.undefinedTypeStored(entity: entity.name, attribute: attribute.name))
        }
        problems += compositeProblems(of: entity)
        problems += derivationProblems(of: entity)
        for relationship in entity.relationships {
            problems += relationshipProblems(relationship, of: entity)
        }
        let places: [(String, [[String]])] = [
            ("a uniqueness constraint", entity.uniquenessConstraints),
            ("a compound index", entity.compoundIndexes),
            ("a fetch index", entity.fetchIndexes.map { $0.elements.map(\.property) }),
        ]
        for (place, lists) in places {
            for property in lists.joined() where !names.contains(property) {
                problems.append(.unknownIndexedProperty(entity: entity.name, property: property, in: place))
            }
        }
        return problems
    }

    private func relationshipProblems(_ relationship: Relationship, of entity: Entity) -> [ModelProblem] {
        guard let destination = self[entity: relationship.destination] else {
            return [
                .unknownDestination(
                    entity: entity.name, relationship: relationship.name, destination: relationship.destination)
            ]
        }
        guard let inverseName = relationship.inverse else { return [] }
        guard
            let inverse = inheritedRelationship(named: inverseName, of: destination),
            let inverseOwner = declaringEntity(ofProperty: inverseName, from: destination)
        else {
            return [
                .unknownInverse(
                    entity: entity.name, relationship: relationship.name, destination: destination.name,
                    inverse: inverseName)
            ]
        }
        // The inverse must name this relationship and point at this entity, an ancestor (a
        // subentity may inherit the end of a relationship declared on its parent) or a subentity:
        // Apple's own Photos model has `GenericAsset.extendedAttributes` (on the abstract parent)
        // with the inverse `ExtendedAttributes.asset` → `Asset`, a subentity (the models in the
        // `Z_MODELCACHE` of Photos' stores, macOS 10.15 to 15), and Core Data runs it.
        let pointsBack =
            inverse.inverse == relationship.name
            && (inverse.destination == entity.name
                || ancestors(of: entity).contains { $0.name == inverse.destination }
                || hierarchy(from: entity).contains { $0.name == inverse.destination })
        if pointsBack { return [] }
        if relationship.isToOne, inverse.isToOne {
            return [
                .oneToOneInverseMismatch(
                    entity: entity.name, relationship: relationship.name, inverseEntity: inverseOwner.name,
                    inverse: inverseName)
            ]
        }
        return [
            .inverseMismatch(
                entity: entity.name, relationship: relationship.name, inverseEntity: inverseOwner.name,
                inverse: inverseName)
        ]
    }

    /// The first relationship named `name` in ``allRelationships(of:)``, found without copying
    /// the others.
    private func inheritedRelationship(named name: String, of entity: Entity) -> Relationship? {
        for declaring in ancestors(of: entity).reversed() {
            if let relationship = declaring.relationship(named: name) { return relationship }
        }
        return entity.relationship(named: name)
    }
}
