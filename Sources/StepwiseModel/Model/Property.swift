/// An attribute or a relationship, for code that walks all of an entity's properties.
public enum Property: Sendable, Hashable {
    case attribute(Attribute)
    case relationship(Relationship)

    /// The property's name.
    public var name: String {
        switch self {
        case .attribute(let attribute): attribute.name
        case .relationship(let relationship): relationship.name
        }
    }

    /// Whether the property is stored (not transient).
    public var isTransient: Bool {
        switch self {
        case .attribute(let attribute): attribute.isTransient
        case .relationship(let relationship): relationship.isTransient
        }
    }

    /// The property's name in an earlier version, if it was renamed.
    public var renamingIdentifier: String? {
        switch self {
        case .attribute(let attribute): attribute.renamingIdentifier
        case .relationship(let relationship): relationship.renamingIdentifier
        }
    }
}
