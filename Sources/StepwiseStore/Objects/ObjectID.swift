/// Identifies one stored object: its entity and its `Z_PK`.
///
/// Primary keys are unique per *root* table, so the entity is needed to find the row.
public struct ObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The object's (most specific) entity.
    public var entity: String
    /// Its `Z_PK`.
    public var primaryKey: Int64

    public init(entity: String, primaryKey: Int64) {
        self.entity = entity
        self.primaryKey = primaryKey
    }

    public var description: String { "\(entity)#\(primaryKey)" }
}
