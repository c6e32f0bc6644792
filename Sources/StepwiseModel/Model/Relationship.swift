/// A link from one entity to another: Core Data's `NSRelationshipDescription`.
public struct Relationship: Sendable, Hashable {
    /// The property's name, unique within its entity and ancestors.
    public var name: String
    /// The name of the destination entity.
    public var destination: String
    /// The name of the inverse relationship on the destination, if any.
    public var inverse: String?
    /// Whether the relationship holds many objects.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its order (an `NSOrderedSet`).
    public var isOrdered: Bool
    /// The minimum count, 0 when the model file leaves it out.
    public var minCount: Int
    /// The maximum count: 1 for a to-one, 0 (unbounded) for a to-many unless the file says otherwise.
    public var maxCount: Int
    /// What deleting the source does to the destination.
    public var deletionRule: DeletionRule
    /// Whether the relationship may be empty.
    public var isOptional: Bool
    /// A transient relationship is not stored.
    public var isTransient: Bool
    /// The property's name in an earlier version (`elementID` in Xcode's model files).
    public var renamingIdentifier: String?
    /// A string mixed into the version hash to force a new version.
    public var versionHashModifier: String?
    /// Free-form key/value pairs.
    public var userInfo: [String: String]

    /// Creates a relationship. It is to-one unless `isToMany` is set; new relationships are optional.
    public init(
        _ name: String,
        destination: String,
        inverse: String? = nil,
        isToMany: Bool = false,
        isOrdered: Bool = false,
        minCount: Int = 0,
        maxCount: Int? = nil,
        deletionRule: DeletionRule = .nullify,
        isOptional: Bool = true,
        isTransient: Bool = false,
        renamingIdentifier: String? = nil,
        versionHashModifier: String? = nil,
        userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.minCount = minCount
        self.maxCount = maxCount ?? (isToMany ? 0 : 1)
        self.deletionRule = deletionRule
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
    }

    /// Whether the relationship holds at most one object.
    public var isToOne: Bool { !isToMany }
}
