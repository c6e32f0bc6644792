/// How the instances of one source entity become instances of one destination entity:
/// Core Data's `NSEntityMapping`.
///
/// An entity mapping fetches exactly its source entity's rows (not its subentities': those
/// have their own mappings), keeps those matching ``filter``, and for each creates one
/// destination instance whose properties come from ``attributeMappings`` and
/// ``relationshipMappings``.
public struct EntityMapping: Sendable, Hashable {
    /// What the mapping does.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A destination entity with no source: nothing is created unless a policy does it.
        case add
        /// A source entity with no destination: its rows are dropped.
        case remove
        /// Same entity, same properties: rows are copied.
        case copy
        /// Rows are transformed by the property mappings.
        case transform
        /// A policy does the work.
        case custom
    }

    /// The name other mappings use to refer to it, e.g. in
    /// `destinationInstancesForEntityMappingNamed:sourceInstances:`. Defaults to
    /// `<Source>To<Destination>`, as Xcode names unnamed mappings.
    public var name: String
    public var kind: Kind
    /// The source entity, nil for ``Kind/add``.
    public var sourceEntity: String?
    /// The destination entity, nil for ``Kind/remove``.
    public var destinationEntity: String?
    /// Only source rows matching this predicate are migrated.
    public var filter: Predicate?
    /// The name of a registered ``EntityMigrationPolicy`` subclass.
    public var policyName: String?
    /// Attribute mappings, one per destination attribute that gets a value.
    public var attributeMappings: [PropertyMapping]
    /// Relationship mappings, one per destination relationship that gets a value.
    public var relationshipMappings: [PropertyMapping]
    /// Free-form values for policies.
    public var userInfo: [String: String]

    public init(
        name: String? = nil,
        kind: Kind,
        source: String?,
        destination: String?,
        filter: Predicate? = nil,
        policyName: String? = nil,
        attributeMappings: [PropertyMapping] = [],
        relationshipMappings: [PropertyMapping] = [],
        userInfo: [String: String] = [:]
    ) {
        self.name = name ?? Self.defaultName(source: source, destination: destination)
        self.kind = kind
        self.sourceEntity = source
        self.destinationEntity = destination
        self.filter = filter
        self.policyName = policyName
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.userInfo = userInfo
    }

    /// Xcode's name for an unnamed mapping: `ChefToChef`, `ToCuisine` (add), `TrainingTo` (remove).
    public static func defaultName(source: String?, destination: String?) -> String {
        "\(source ?? "")To\(destination ?? "")"
    }

    /// The mapping of the destination property with this name.
    public func propertyMapping(named name: String) -> PropertyMapping? {
        attributeMappings.first { $0.name == name } ?? relationshipMappings.first { $0.name == name }
    }
}

/// How one destination property gets its value: Core Data's `NSPropertyMapping`.
public struct PropertyMapping: Sendable, Hashable {
    /// The destination property's name.
    public var name: String
    /// The value; nil leaves the property at its default.
    public var valueExpression: Expression?
    /// Free-form values for policies.
    public var userInfo: [String: String]

    public init(_ name: String, _ valueExpression: Expression?, userInfo: [String: String] = [:]) {
        self.name = name
        self.valueExpression = valueExpression
        self.userInfo = userInfo
    }
}
