/// One version of a managed object model: Core Data's `NSManagedObjectModel`.
///
/// A model is a value. Build one in Swift with ``ObjectModel/init(_:versionIdentifiers:entities:)-(_,_,()->[Entity])``,
/// or read one from Xcode's files with `XcodeModelReader`. Call `validate(file:)` before
/// relying on relationships and inheritance being consistent.
///
/// ```swift
/// let model = ObjectModel("Recipes") {
///     Entity("Chef") {
///         Attribute("name", .string)
///         Relationship("recipes", to: "Recipe", inverse: "chef").toMany()
///     }
///     Entity("Recipe") {
///         Attribute("name", .string)
///         Relationship("chef", to: "Chef", inverse: "recipes")
///     }
/// }
/// ```
public struct ObjectModel: Sendable, Hashable {
    /// The version's name: the `.xcdatamodel` file name without its extension (`"Moody 2"`).
    public var name: String
    /// Xcode's `userDefinedModelVersionIdentifier`, if any (written as `NSStoreModelVersionIdentifiers`).
    public var versionIdentifiers: [String]
    /// The entities, in file order.
    public var entities: [Entity]
    /// The model's named configurations: each a subset of the entities that one store holds
    /// (`NSManagedObjectModel.entities(forConfigurationName:)`), by name, their member entities
    /// in file order. Core Data's default configuration, every entity, has no name and isn't
    /// listed.
    public var configurations: [String: [String]] = [:]

    public init(_ name: String, versionIdentifiers: [String] = [], entities: [Entity]) {
        self.name = name
        self.versionIdentifiers = versionIdentifiers
        self.entities = entities
    }

    /// The entity with this name.
    public subscript(entity name: String) -> Entity? {
        entities.first { $0.name == name }
    }

    /// The names of all entities.
    public var entityNames: [String] { entities.map(\.name) }
}

// MARK: - Hierarchy

extension ObjectModel {
    /// The entity's ancestors, nearest first. Stops at a missing parent or a cycle.
    public func ancestors(of entity: Entity) -> [Entity] {
        // Most entities are roots; validation asks for every entity's and relationship's ancestors.
        guard entity.parentName != nil else { return [] }
        var result: [Entity] = []
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parentName = current.parentName, let parent = self[entity: parentName],
            seen.insert(parentName).inserted
        {
            result.append(parent)
            current = parent
        }
        return result
    }

    /// The root of the entity's hierarchy (the entity itself for a root).
    public func root(of entity: Entity) -> Entity {
        ancestors(of: entity).last ?? entity
    }

    /// The direct subentities of an entity, in Core Data's order (``CoreDataNameOrder``).
    public func subentities(of entity: Entity) -> [Entity] {
        entities.filter { $0.parentName == entity.name }.sorted { CoreDataNameOrder.precedes($0.name, $1.name) }
    }

    /// The entity followed by all its descendants, depth-first, siblings in Core Data's order.
    public func hierarchy(from entity: Entity) -> [Entity] {
        var result: [Entity] = []
        var visited: Set<String> = []
        func visit(_ entity: Entity) {
            guard visited.insert(entity.name).inserted else { return }
            result.append(entity)
            for child in subentities(of: entity) { visit(child) }
        }
        visit(entity)
        return result
    }

    /// Entities without a parent, in Core Data's order (``CoreDataNameOrder``): the order of
    /// their `Z_ENT` numbers.
    public var rootEntities: [Entity] {
        entities.filter { $0.parentName == nil }.sorted { CoreDataNameOrder.precedes($0.name, $1.name) }
    }

    /// Attributes of the entity and all its ancestors, the root's first.
    public func allAttributes(of entity: Entity) -> [Attribute] {
        (ancestors(of: entity).reversed() + [entity]).flatMap(\.attributes)
    }

    /// Relationships of the entity and all its ancestors, the root's first.
    public func allRelationships(of entity: Entity) -> [Relationship] {
        (ancestors(of: entity).reversed() + [entity]).flatMap(\.relationships)
    }

    /// Attributes and relationships of the entity and all its ancestors.
    public func allProperties(of entity: Entity) -> [Property] {
        (ancestors(of: entity).reversed() + [entity]).flatMap(\.properties)
    }

    /// Every property of an entity, inherited ones first, each with the entity that declares it.
    public func declaredProperties(of entity: Entity) -> [(declaring: Entity, property: Property)] {
        (ancestors(of: entity).reversed() + [entity]).flatMap { declaring in
            declaring.properties.map { (declaring, $0) }
        }
    }

    /// The entity that declares a property seen from `entity` (the entity or an ancestor).
    public func declaringEntity(ofProperty name: String, from entity: Entity) -> Entity? {
        if entity.declaresProperty(named: name) { return entity }
        return ancestors(of: entity).first { $0.declaresProperty(named: name) }
    }

    /// Whether `entity` is `other` or one of its descendants.
    public func entity(_ entity: Entity, isKindOf other: Entity) -> Bool {
        entity.name == other.name || ancestors(of: entity).contains { $0.name == other.name }
    }
}
