import StepwiseModel

/// Checks, when a mapping is loaded, that every source key path names real properties, so
/// `$source.continent.isoCode` fails with the file and the mapping instead of in the middle of
/// a step.
///
/// A path is followed through relationships; a component may be a property of the entity,
/// of an ancestor or of a subentity (rows of a subentity have it). Collection operators
/// (`@distinctUnionOfSets`…) are skipped, and checking stops at the first attribute.
enum SourceKeyPathCheck {
    static func check(_ expression: Expression, from entity: Entity, in model: ObjectModel) throws(MappingError) {
        switch expression {
        case .keyPath(let root, let path) where root == .source || root == .evaluatedObject:
            try check(path, from: entity, in: model)
        case .keyPath, .constant:
            return
        case .function(let target, _, let arguments):
            try check(target, from: entity, in: model)
            for argument in arguments { try check(argument, from: entity, in: model) }
        case .aggregate(let elements):
            for element in elements { try check(element, from: entity, in: model) }
        }
    }

    static func check(_ predicate: Predicate, from entity: Entity, in model: ObjectModel) throws(MappingError) {
        switch predicate {
        case .comparison(let lhs, _, let rhs, _):
            try check(lhs, from: entity, in: model)
            try check(rhs, from: entity, in: model)
        case .and(let parts), .or(let parts):
            for part in parts { try check(part, from: entity, in: model) }
        case .not(let inner):
            try check(inner, from: entity, in: model)
        case .constant:
            return
        }
    }

    private static func check(_ path: [String], from start: Entity, in model: ObjectModel) throws(MappingError) {
        var entity = start
        for (index, component) in path.enumerated() where !component.hasPrefix("@") {
            let family = model.ancestors(of: entity) + model.hierarchy(from: entity)
            let properties = family.flatMap(\.properties)
            guard let property = properties.first(where: { $0.name == component }) else {
                throw MappingError(.unknownProperty(entity: entity.name, property: component, version: model.name))
            }
            if case .attribute(let attribute) = property, attribute.type == .composite {
                try checkElements(path[(index + 1)...], of: attribute, entity: entity, in: model)
                return
            }
            guard case .relationship(let relationship) = property,
                let destination = model[entity: relationship.destination]
            else { return }
            entity = destination
        }
    }

    /// Checks the rest of a path that reached a composite: each component names an element,
    /// as `$source.author.born.year` must.
    private static func checkElements(
        _ path: ArraySlice<String>, of composite: Attribute, entity: Entity, in model: ObjectModel
    ) throws(MappingError) {
        var current = composite
        var walked = [composite.name]
        for component in path {
            guard current.type == .composite else { return }
            guard let element = current.elements.first(where: { $0.name == component }) else {
                throw MappingError(
                    .unknownProperty(
                        entity: entity.name, property: (walked + [component]).joined(separator: "."),
                        version: model.name))
            }
            walked.append(component)
            current = element
        }
    }
}
