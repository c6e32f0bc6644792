import Foundation

/// One way two models of the same version differ, entity by entity and property by
/// property, named as a person would say it: "Recipe.rating was added (Integer 16, optional)".
///
/// It compares what a version *was* (a ``ShippedVersion``'s model) with what it *is* now, by
/// name: a version edited in place keeps its names, and a renaming identifier means nothing
/// inside one version. (`MappingDiff`, in StepwiseMapping, describes a step between two
/// versions through the mapping that runs it, renames included, and needs that mapping to be
/// inferable; an edit such as a type change usually isn't.)
public struct ModelDifference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What changed.
    public enum Kind: String, Sendable, Hashable, Codable {
        case entityAdded, entityRemoved
        case propertyAdded, propertyRemoved
        case attributeTypeChanged
        case optionalityChanged
        case relationshipDestinationChanged
        case relationshipToManyChanged
        /// None of the above, but the entity's or property's version hash differs (a
        /// an inverse, counts, ordering, a parent, a constraint, a hash modifier).
        case versionHashDiffers
    }

    public var kind: Kind
    /// The entity the difference is in.
    public var entity: String
    /// The property, when the difference is a property's.
    public var property: String?
    /// What changed, in one sentence.
    public var description: String

    public init(kind: Kind, entity: String, property: String?, description: String) {
        self.kind = kind
        self.entity = entity
        self.property = property
        self.description = description
    }

    /// How `current` differs from `recorded`: entities in `recorded`'s order, then the added
    /// ones in `current`'s; within an entity its own properties, attributes then relationships.
    /// Empty when the two would write the same version hashes and have the same properties.
    public static func between(_ recorded: ObjectModel, _ current: ObjectModel) -> [ModelDifference] {
        var differences: [ModelDifference] = []
        let recordedHashes = recorded.entityVersionHashes
        let currentHashes = current.entityVersionHashes
        for old in recorded.entities {
            guard let new = current[entity: old.name] else {
                differences.append(
                    .init(
                        kind: .entityRemoved, entity: old.name, property: nil,
                        description: "Entity \(old.name) was removed."))
                continue
            }
            let found = propertyDifferences(old, new)
            differences += found
            if found.isEmpty, recordedHashes[old.name] != currentHashes[new.name] {
                differences.append(
                    .init(
                        kind: .versionHashDiffers, entity: old.name, property: nil,
                        description:
                            "\(old.name)'s version hash differs (its parent, abstract flag, an inherited property, a uniqueness constraint or its hash modifier changed)."
                    ))
            }
        }
        for new in current.entities where recorded[entity: new.name] == nil {
            differences.append(
                .init(kind: .entityAdded, entity: new.name, property: nil, description: "Entity \(new.name) was added.")
            )
        }
        return differences
    }

    private static func propertyDifferences(_ old: Entity, _ new: Entity) -> [ModelDifference] {
        var differences: [ModelDifference] = []
        let entity = old.name
        func add(_ kind: Kind, _ property: String, _ sentence: String) {
            differences.append(.init(kind: kind, entity: entity, property: property, description: sentence))
        }
        // Transient properties have no column and no part in the hashes: a store can't tell.
        let oldProperties = old.properties.filter { !$0.isTransient }
        let newProperties = new.properties.filter { !$0.isTransient }
        for property in oldProperties {
            let path = "\(entity).\(property.name)"
            guard let changed = newProperties.first(where: { $0.name == property.name }) else {
                add(.propertyRemoved, property.name, "\(path) was removed.")
                continue
            }
            for (kind, sentence) in changes(from: property, to: changed, path: path) {
                add(kind, property.name, sentence)
            }
        }
        for property in newProperties where !oldProperties.contains(where: { $0.name == property.name }) {
            add(.propertyAdded, property.name, "\(entity).\(property.name) was added (\(summary(property))).")
        }
        return differences
    }

    /// What changed in one property kept by name; the version-hash catch-all when nothing
    /// named did but its hash differs.
    private static func changes(from property: Property, to changed: Property, path: String) -> [(Kind, String)] {
        let found: [(Kind, String)?]
        let hashesDiffer: Bool
        let otherwise: String
        switch (property, changed) {
        case (.attribute(let before), .attribute(let after)):
            found = [
                before.type == after.type
                    ? nil
                    : (
                        .attributeTypeChanged,
                        "\(path) changed type from \(before.type.rawValue) to \(after.type.rawValue)."
                    ),
                flag(.optionalityChanged, path, before.isOptional, after.isOptional, "optional", "required"),
            ]
            hashesDiffer = VersionHasher.attributeHash(before) != VersionHasher.attributeHash(after)
            otherwise = "its hash modifier changed"
        case (.relationship(let before), .relationship(let after)):
            found = [
                before.destination == after.destination
                    ? nil
                    : (
                        .relationshipDestinationChanged,
                        "\(path) now points to \(after.destination) (was \(before.destination))."
                    ),
                flag(.relationshipToManyChanged, path, before.isToMany, after.isToMany, "to-many", "to-one"),
                flag(.optionalityChanged, path, before.isOptional, after.isOptional, "optional", "required"),
            ]
            hashesDiffer = VersionHasher.relationshipHash(before) != VersionHasher.relationshipHash(after)
            otherwise = "its inverse, counts, ordering or hash modifier changed"
        case (.attribute, .relationship):
            return [(.attributeTypeChanged, "\(path) changed from an attribute to a relationship.")]
        case (.relationship, .attribute):
            return [(.attributeTypeChanged, "\(path) changed from a relationship to an attribute.")]
        }
        let named = found.compactMap { $0 }
        guard named.isEmpty, hashesDiffer else { return named }
        return [(.versionHashDiffers, "\(path)'s version hash differs (\(otherwise)).")]
    }

    /// "`path` became `yes` (was `no`)." when a flag changed.
    private static func flag(_ kind: Kind, _ path: String, _ before: Bool, _ after: Bool, _ yes: String, _ no: String)
        -> (Kind, String)?
    {
        guard before != after else { return nil }
        return (kind, "\(path) became \(after ? yes : no) (was \(before ? yes : no)).")
    }

    private static func summary(_ property: Property) -> String {
        switch property {
        case .attribute(let attribute):
            let flag = attribute.isOptional ? "optional" : "required"
            let value = attribute.defaultValue.map { ", default \($0)" } ?? ""
            return "\(attribute.type.rawValue), \(flag)\(value)"
        case .relationship(let relationship):
            return "\(relationship.isToMany ? "to-many" : "to-one") relationship to \(relationship.destination)"
        }
    }
}
