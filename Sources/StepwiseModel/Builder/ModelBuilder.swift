/// Builds an ``ObjectModel``'s entities from a closure of `Entity` expressions.
@resultBuilder
public enum ModelBuilder {
    public static func buildExpression(_ entity: Entity) -> [Entity] { [entity] }
    public static func buildExpression(_ entities: [Entity]) -> [Entity] { entities }
    public static func buildBlock(_ parts: [Entity]...) -> [Entity] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Entity]?) -> [Entity] { part ?? [] }
    public static func buildEither(first part: [Entity]) -> [Entity] { part }
    public static func buildEither(second part: [Entity]) -> [Entity] { part }
    public static func buildArray(_ parts: [[Entity]]) -> [Entity] { parts.flatMap { $0 } }
}

/// Something that can be listed inside an `Entity { … }` builder block.
public protocol EntityComponent: Sendable {
    /// Adds this component to the entity being built.
    func apply(to entity: inout Entity)
}

/// Builds an ``Entity``'s properties and constraints from a closure.
@resultBuilder
public enum EntityBuilder {
    public static func buildExpression(_ component: any EntityComponent) -> [any EntityComponent] {
        [component]
    }
    public static func buildBlock(_ parts: [any EntityComponent]...) -> [any EntityComponent] {
        parts.flatMap { $0 }
    }
    public static func buildOptional(_ part: [any EntityComponent]?) -> [any EntityComponent] {
        part ?? []
    }
    public static func buildEither(first part: [any EntityComponent]) -> [any EntityComponent] { part }
    public static func buildEither(second part: [any EntityComponent]) -> [any EntityComponent] { part }
    public static func buildArray(_ parts: [[any EntityComponent]]) -> [any EntityComponent] {
        parts.flatMap { $0 }
    }
}

extension Attribute: EntityComponent {
    public func apply(to entity: inout Entity) { entity.attributes.append(self) }
}

extension Relationship: EntityComponent {
    public func apply(to entity: inout Entity) { entity.relationships.append(self) }
}

/// A uniqueness constraint inside an `Entity { … }` block: `Unique("code", "dummy")`.
public struct Unique: EntityComponent {
    public var propertyNames: [String]
    public init(_ propertyNames: String...) { self.propertyNames = propertyNames }
    public func apply(to entity: inout Entity) { entity.uniquenessConstraints.append(propertyNames) }
}

/// A compound index inside an `Entity { … }` block: `CompoundIndex("date", "updatedAt")`.
public struct CompoundIndex: EntityComponent {
    public var propertyNames: [String]
    public init(_ propertyNames: String...) { self.propertyNames = propertyNames }
    public func apply(to entity: inout Entity) { entity.compoundIndexes.append(propertyNames) }
}

extension FetchIndex: EntityComponent {
    public func apply(to entity: inout Entity) { entity.fetchIndexes.append(self) }
}

extension ObjectModel {
    /// Builds a model version in Swift.
    ///
    /// ```swift
    /// let v1 = ObjectModel("Recipes") {
    ///     Entity("Chef") {
    ///         Attribute("name", .string).required()
    ///         Relationship("recipes", to: "Recipe", inverse: "chef").toMany()
    ///     }
    /// }
    /// ```
    /// - parameters:
    ///   - name: The version's name, as an `.xcdatamodel` file name without extension.
    ///   - versionIdentifiers: Xcode's "Core Data Model Identifier", empty by default.
    ///   - entities: The version's entities, built with ``Entity``.
    public init(
        _ name: String, versionIdentifiers: [String] = [], @ModelBuilder entities: () -> [Entity]
    ) {
        self.init(name, versionIdentifiers: versionIdentifiers, entities: entities())
    }
}

extension Entity {
    /// Builds an entity in Swift; see ``ObjectModel/init(_:versionIdentifiers:entities:)-(_,_,()->[Entity])``.
    public init(
        _ name: String, parent: String? = nil, isAbstract: Bool = false, className: String? = nil,
        @EntityBuilder _ components: () -> [any EntityComponent]
    ) {
        self.init(name, parentName: parent, isAbstract: isAbstract, className: className)
        for component in components() { component.apply(to: &self) }
    }

    /// A copy that is abstract.
    public func abstract() -> Entity { with { $0.isAbstract = true } }
    /// A copy whose parent is `name`.
    public func parent(_ name: String) -> Entity { with { $0.parentName = name } }
    /// A copy represented by the class `name`.
    public func className(_ name: String) -> Entity { with { $0.className = name } }
    /// A copy renamed from `oldName` (Xcode's renaming identifier).
    public func renamed(from oldName: String) -> Entity { with { $0.renamingIdentifier = oldName } }
    /// A copy with a version hash modifier.
    public func versionHashModifier(_ modifier: String) -> Entity { with { $0.versionHashModifier = modifier } }
    /// A copy with one more user-info entry.
    public func userInfo(_ key: String, _ value: String) -> Entity { with { $0.userInfo[key] = value } }

    func with(_ change: (inout Entity) -> Void) -> Entity {
        var copy = self
        change(&copy)
        return copy
    }
}

extension Attribute {
    /// A copy that must have a value.
    public func required() -> Attribute { with { $0.isOptional = false } }
    /// A copy that may be nil.
    public func optional() -> Attribute { with { $0.isOptional = true } }
    /// A copy that is not stored.
    public func transient() -> Attribute { with { $0.isTransient = true } }
    /// A copy that gets its own index.
    public func indexed() -> Attribute { with { $0.isIndexed = true } }
    /// A copy with a default value, spelled as in a model file (`"0"`, `"NO"`, `"hello"`).
    public func defaultValue(_ value: String) -> Attribute { with { $0.defaultValue = value } }
    /// A copy with a minimum and maximum value (or length).
    public func range(min: String? = nil, max: String? = nil) -> Attribute {
        with {
            $0.minValue = min
            $0.maxValue = max
        }
    }
    /// A copy renamed from `oldName` (Xcode's renaming identifier).
    public func renamed(from oldName: String) -> Attribute { with { $0.renamingIdentifier = oldName } }
    /// A copy with a version hash modifier.
    public func versionHashModifier(_ modifier: String) -> Attribute { with { $0.versionHashModifier = modifier } }
    /// A copy that may store its data outside the store file.
    public func externalStorage() -> Attribute { with { $0.allowsExternalBinaryDataStorage = true } }
    /// A copy whose value persistent history keeps in the tombstone of a deleted object.
    public func preservedAfterDeletion() -> Attribute { with { $0.preservesValueInHistoryOnDeletion = true } }
    /// A copy transformed by the named value transformer.
    public func transformer(_ name: String) -> Attribute { with { $0.valueTransformerName = name } }
    /// A copy with one more user-info entry.
    public func userInfo(_ key: String, _ value: String) -> Attribute { with { $0.userInfo[key] = value } }
    /// A copy derived by `expression` (`"lowercase:(email)"`): see ``Attribute/derived(_:_:_:isOptional:)``.
    public func derived(_ expression: String) -> Attribute { with { $0.derivationExpression = expression } }

    func with(_ change: (inout Attribute) -> Void) -> Attribute {
        var copy = self
        change(&copy)
        return copy
    }
}

extension Relationship {
    /// A to-one relationship to `destination`.
    public init(_ name: String, to destination: String, inverse: String? = nil) {
        self.init(name, destination: destination, inverse: inverse)
    }

    /// A copy that holds many objects.
    public func toMany() -> Relationship {
        with {
            $0.isToMany = true
            if $0.maxCount == 1 { $0.maxCount = 0 }
        }
    }
    /// A copy that is ordered (implies to-many).
    public func ordered() -> Relationship { toMany().with { $0.isOrdered = true } }
    /// A copy that must not be empty.
    public func required() -> Relationship { with { $0.isOptional = false } }
    /// A copy that is not stored.
    public func transient() -> Relationship { with { $0.isTransient = true } }
    /// A copy with this deletion rule.
    public func deletionRule(_ rule: DeletionRule) -> Relationship { with { $0.deletionRule = rule } }
    /// A copy with count bounds (0 means unbounded for `max`).
    public func count(min: Int = 0, max: Int) -> Relationship {
        with {
            $0.minCount = min
            $0.maxCount = max
        }
    }
    /// A copy renamed from `oldName` (Xcode's renaming identifier).
    public func renamed(from oldName: String) -> Relationship { with { $0.renamingIdentifier = oldName } }
    /// A copy with a version hash modifier.
    public func versionHashModifier(_ modifier: String) -> Relationship {
        with { $0.versionHashModifier = modifier }
    }
    /// A copy with one more user-info entry.
    public func userInfo(_ key: String, _ value: String) -> Relationship { with { $0.userInfo[key] = value } }

    func with(_ change: (inout Relationship) -> Void) -> Relationship {
        var copy = self
        change(&copy)
        return copy
    }
}
