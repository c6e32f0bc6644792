/// Where one entity's rows and properties live in a store.
///
/// ```swift
/// let layout = try StoreLayout(model: model)
/// let survey = layout.entity(named: "ATSurveyResponse")!
/// survey.number                       // 11 (Z_ENT)
/// survey.tableName                    // "ZATRECORD"
/// survey.column(for: "pendingState")  // "ZPENDINGSTATE1"
/// survey.subentityNumbers             // [11]: for WHERE Z_ENT IN (…)
/// ```
public struct EntityLayout: Sendable, Hashable {
    /// The entity's name.
    public var name: String
    /// Its `Z_ENT`.
    public var number: Int
    /// Its parent's `Z_ENT`, 0 for roots (`Z_SUPER`).
    public var superNumber: Int
    /// Its parent's name, for subentities.
    public var parentName: String?
    /// The root of its hierarchy, whose table holds its rows.
    public var rootName: String
    /// The table holding its rows: `Z` + the root's uppercased name.
    public var tableName: String
    /// Whether the entity is abstract (it has a `Z_PRIMARYKEY` row but no rows of its own).
    public var isAbstract: Bool
    /// The `Z_ENT` of this entity and all its descendants, ascending: the rows that are
    /// "kind of" this entity are `WHERE Z_ENT IN (subentityNumbers)`.
    public var subentityNumbers: [Int]
    /// Every stored attribute, inherited ones first (root's first), in model order.
    public var attributes: [AttributeLayout]
    /// Every stored relationship, inherited ones first, in model order.
    public var relationships: [RelationshipLayout]

    /// Whether the entity has no parent.
    public var isRoot: Bool { parentName == nil }

    /// The stored attribute with this name, own or inherited.
    public func attribute(named name: String) -> AttributeLayout? {
        attributes.first { $0.name == name }
    }

    /// The stored relationship with this name, own or inherited.
    public func relationship(named name: String) -> RelationshipLayout? {
        relationships.first { $0.name == name }
    }

    /// The column in ``tableName`` that holds a property: an attribute's column or a to-one's
    /// foreign key. Nil for to-many relationships, transient and unknown properties.
    public func column(for property: String) -> String? {
        attribute(named: property)?.column ?? relationship(named: property)?.foreignKeyColumn
    }
}
