/// One reason a mapping can't be inferred between two model versions, with what would fix it.
public struct InferenceProblem: Sendable, Hashable, CustomStringConvertible {
    /// The destination entity concerned (or the source entity, when it has no destination).
    public var entity: String
    /// The property concerned, if any.
    public var property: String?
    /// What is wrong.
    public var reason: String
    /// What would fix it.
    public var fix: String

    public init(entity: String, property: String? = nil, reason: String, fix: String) {
        self.entity = entity
        self.property = property
        self.reason = reason
        self.fix = fix
    }

    public var description: String {
        let place = property.map { "\(entity).\($0)" } ?? entity
        return "\(place): \(reason). \(fix)"
    }
}
