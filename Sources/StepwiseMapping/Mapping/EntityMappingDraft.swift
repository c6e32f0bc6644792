import StepwiseModel

/// An entity mapping as a mapping file states it, before it is checked against its two model
/// versions: the one home of that check for every file format (``MappingFile`` for Stepwise's
/// JSON, ``XcodeMappingModel`` for Xcode's `.xcmappingmodel`).
///
/// ``checked(source:destination:)`` makes sure every entity and property named exists in the
/// version it belongs to, that every source key path can be followed, and fills in the
/// same-named properties the file leaves to default.
struct EntityMappingDraft {
    /// A destination property's value as the file gives it.
    enum Value {
        /// Expression syntax, parsed during the check so a syntax error names the property.
        case text(String)
        /// An expression already decoded (an Xcode archive).
        case expression(Expression)
        /// "Autogenerate": the same-named source property of the same kind, when the source
        /// entity has one; otherwise the property is left at its default.
        case sameNamedSourceProperty
        /// Listed without a value: the property is left at its default.
        case unset
    }

    var name: String?
    var kind: EntityMapping.Kind?
    var source: String?
    var destination: String?
    /// Predicate syntax for ``EntityMapping/filter``.
    var filter: String?
    var policy: String?
    /// Whether destination properties the draft doesn't list get the same-named source
    /// property (`$source.<name>`), as Xcode's generated mappings do.
    var copyMatchingProperties: Bool
    var attributes: [String: Value]
    var relationships: [String: Value]
    var userInfo: [String: String]

    /// The name the mapping is known by: its own, else `<Source>To<Destination>`.
    var resolvedName: String {
        name ?? EntityMapping.defaultName(source: source, destination: destination)
    }

    /// The entity mapping, checked against the two versions.
    /// - throws: ``MappingError`` naming the entity mapping, the entity and the property.
    func checked(source sourceModel: ObjectModel, destination destinationModel: ObjectModel) throws(MappingError)
        -> EntityMapping
    {
        let name = resolvedName
        func fail(_ error: MappingError, property: String? = nil) -> MappingError {
            error.adding(entityMapping: name, entity: destination ?? source, property: property)
        }
        var sourceEntity: Entity?
        if let source {
            guard let entity = sourceModel[entity: source] else {
                throw fail(MappingError(.unknownEntity(source, version: sourceModel.name)))
            }
            sourceEntity = entity
        }
        var destinationEntity: Entity?
        if let destination {
            guard let entity = destinationModel[entity: destination] else {
                throw fail(MappingError(.unknownEntity(destination, version: destinationModel.name)))
            }
            destinationEntity = entity
        }
        let kind =
            self.kind
            ?? (sourceEntity == nil ? .add : destinationEntity == nil ? .remove : policy == nil ? .transform : .custom)
        var filter: Predicate?
        if let text = self.filter {
            do {
                let predicate = try ExpressionParser.parsePredicate(text)
                if let sourceEntity { try SourceKeyPathCheck.check(predicate, from: sourceEntity, in: sourceModel) }
                filter = predicate
            } catch {
                throw fail(error, property: "filter")
            }
        }
        var attributeMappings: [PropertyMapping] = []
        var relationshipMappings: [PropertyMapping] = []
        if let destinationEntity {
            let destinationAttributes = destinationModel.allAttributes(of: destinationEntity).filter { !$0.isTransient }
            let destinationRelationships = destinationModel.allRelationships(of: destinationEntity).filter {
                !$0.isTransient
            }
            for key in attributes.keys.sorted() where !destinationAttributes.contains(where: { $0.name == key }) {
                throw fail(
                    MappingError(
                        .unknownProperty(entity: destinationEntity.name, property: key, version: destinationModel.name))
                )
            }
            for key in relationships.keys.sorted() where !destinationRelationships.contains(where: { $0.name == key }) {
                throw fail(
                    MappingError(
                        .unknownProperty(entity: destinationEntity.name, property: key, version: destinationModel.name))
                )
            }
            // Same-named properties are copied only attribute to attribute and relationship
            // to relationship: an attribute that became a relationship needs a written mapping.
            let sourceAttributes = sourceEntity.map { Set(sourceModel.allAttributes(of: $0).map(\.name)) } ?? []
            let sourceRelationships = sourceEntity.map { Set(sourceModel.allRelationships(of: $0).map(\.name)) } ?? []
            let copyMatching = copyMatchingProperties && sourceEntity != nil
            func mapping(_ property: String, _ value: Value?, sameNamed: Set<String>) throws(MappingError)
                -> PropertyMapping?
            {
                let copy = PropertyMapping(property, .keyPath(root: .source, path: [property]))
                switch value {
                case .text(let text):
                    return PropertyMapping(property, try parse(text, from: sourceEntity, in: sourceModel, property))
                case .expression(let expression):
                    try check(expression, from: sourceEntity, in: sourceModel, property)
                    return PropertyMapping(property, expression)
                case .sameNamedSourceProperty:
                    return sameNamed.contains(property) ? copy : nil
                case .unset:
                    return nil
                case nil:
                    return copyMatching && sameNamed.contains(property) ? copy : nil
                }
            }
            for attribute in destinationAttributes {
                if let mapping = try mapping(attribute.name, attributes[attribute.name], sameNamed: sourceAttributes) {
                    attributeMappings.append(mapping)
                }
            }
            for relationship in destinationRelationships {
                if let mapping = try mapping(
                    relationship.name, relationships[relationship.name], sameNamed: sourceRelationships)
                {
                    relationshipMappings.append(mapping)
                }
            }
        }
        return EntityMapping(
            name: name, kind: kind, source: source, destination: destination, filter: filter, policyName: policy,
            attributeMappings: attributeMappings, relationshipMappings: relationshipMappings, userInfo: userInfo)

        func parse(_ text: String, from entity: Entity?, in model: ObjectModel, _ property: String) throws(MappingError)
            -> Expression
        {
            do {
                let expression = try ExpressionParser.parseExpression(text)
                if let entity { try SourceKeyPathCheck.check(expression, from: entity, in: model) }
                return expression
            } catch {
                throw fail(error, property: property)
            }
        }

        func check(_ expression: Expression, from entity: Entity?, in model: ObjectModel, _ property: String)
            throws(MappingError)
        {
            guard let entity else { return }
            do {
                try SourceKeyPathCheck.check(expression, from: entity, in: model)
            } catch {
                throw fail(error, property: property)
            }
        }
    }
}
