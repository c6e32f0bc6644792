/// A kind of object in a model: Core Data's `NSEntityDescription`.
///
/// An entity holds only its *own* properties. Inherited ones come from the parent;
/// ``ObjectModel/allAttributes(of:)`` and friends walk the hierarchy.
public struct Entity: Sendable, Hashable {
    /// The entity's name, unique in its model.
    public var name: String
    /// The name of the parent entity, for subentities.
    public var parentName: String?
    /// An abstract entity has no instances of its own.
    public var isAbstract: Bool
    /// The class that represents instances (`representedClassName`). No part in the hash.
    public var className: String?
    /// The entity's own attributes, in file order.
    public var attributes: [Attribute]
    /// The entity's own relationships, in file order.
    public var relationships: [Relationship]
    /// Free-form key/value pairs.
    public var userInfo: [String: String]
    /// A string mixed into the version hash to force a new version.
    public var versionHashModifier: String?
    /// The entity's name in an earlier version (`elementID` in Xcode's model files).
    public var renamingIdentifier: String?
    /// Each constraint is a list of property names whose values are unique together.
    public var uniquenessConstraints: [[String]]
    /// Each compound index is a list of property names indexed together.
    public var compoundIndexes: [[String]]
    /// Named fetch indexes.
    public var fetchIndexes: [FetchIndex]

    public init(
        _ name: String,
        parentName: String? = nil,
        isAbstract: Bool = false,
        className: String? = nil,
        attributes: [Attribute] = [],
        relationships: [Relationship] = [],
        userInfo: [String: String] = [:],
        versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil,
        uniquenessConstraints: [[String]] = [],
        compoundIndexes: [[String]] = [],
        fetchIndexes: [FetchIndex] = []
    ) {
        self.name = name
        self.parentName = parentName
        self.isAbstract = isAbstract
        self.className = className
        self.attributes = attributes
        self.relationships = relationships
        self.userInfo = userInfo
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.uniquenessConstraints = uniquenessConstraints
        self.compoundIndexes = compoundIndexes
        self.fetchIndexes = fetchIndexes
    }

    /// The entity's own attributes and relationships.
    public var properties: [Property] {
        attributes.map(Property.attribute) + relationships.map(Property.relationship)
    }

    /// The names of the entity's own properties, in ``properties`` order. Validation asks for
    /// them for every entity and relationship of every version a bundle holds, and building
    /// ``properties`` copies each attribute and relationship whole.
    var propertyNames: [String] {
        attributes.map { $0.name } + relationships.map { $0.name }
    }

    /// Whether the entity declares a property with this name.
    func declaresProperty(named name: String) -> Bool {
        attributes.contains { $0.name == name } || relationships.contains { $0.name == name }
    }

    /// The own attribute with this name.
    public func attribute(named name: String) -> Attribute? {
        attributes.first { $0.name == name }
    }

    /// The own relationship with this name.
    public func relationship(named name: String) -> Relationship? {
        relationships.first { $0.name == name }
    }
}
