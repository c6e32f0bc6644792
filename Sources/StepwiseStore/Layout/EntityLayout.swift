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
package struct EntityLayout: Sendable, Hashable {
    /// The entity's name.
    package let name: String
    /// Its `Z_ENT`.
    package let number: Int
    /// Its parent's `Z_ENT`, 0 for roots (`Z_SUPER`).
    package let superNumber: Int
    /// Its parent's name, for subentities.
    package let parentName: String?
    /// The root of its hierarchy, whose table holds its rows.
    package let rootName: String
    /// The table holding its rows: `Z` + the root's uppercased name.
    package let tableName: String
    /// Whether the entity is abstract (it has a `Z_PRIMARYKEY` row but no rows of its own).
    package let isAbstract: Bool
    /// The `Z_ENT` of this entity and all its descendants, ascending: the rows that are
    /// "kind of" this entity are `WHERE Z_ENT IN (subentityNumbers)`.
    package let subentityNumbers: [Int]
    /// Every stored attribute, inherited ones first (root's first), in model order.
    package let attributes: [AttributeLayout]
    /// Every stored relationship, inherited ones first, in model order.
    package let relationships: [RelationshipLayout]

    /// Positions in ``attributes`` and ``relationships`` by name: object access looks
    /// columns up for every property of every row.
    private let attributePositions: [String: Int]
    private let relationshipPositions: [String: Int]

    init(
        name: String, number: Int, superNumber: Int, parentName: String?, rootName: String, tableName: String,
        isAbstract: Bool, subentityNumbers: [Int], attributes: [AttributeLayout], relationships: [RelationshipLayout]
    ) {
        self.name = name
        self.number = number
        self.superNumber = superNumber
        self.parentName = parentName
        self.rootName = rootName
        self.tableName = tableName
        self.isAbstract = isAbstract
        self.subentityNumbers = subentityNumbers
        self.attributes = attributes
        self.relationships = relationships
        self.attributePositions = Dictionary(
            attributes.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.relationshipPositions = Dictionary(
            relationships.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether the entity has no parent.
    package var isRoot: Bool { parentName == nil }

    /// Whether Core Data reads every row of the entity's table as this entity, whatever its
    /// `Z_ENT` holds: a root without subentities, alone in its table.
    ///
    /// Core Data restricts a fetch by `Z_ENT` only when the entity shares its table
    /// (`-[NSSQLGenerator initializeContextForRequest:ignoreInheritance:nestingLevel:]` adds
    /// `_ent == id` or a subentity range only for an entity with a superentity, or with
    /// subentities left out), and doesn't even read the column for a lone entity
    /// (`generateSelectIntermediateInContext:` selects a literal `0` instead: `SELECT 0, t0.Z_PK …`
    /// in its SQL debug output). Its in-place migration copies such a table without a
    /// `WHERE Z_ENT` too (`-[_NSSQLTableMigrationDescription createInsertStatementForEntityMigration:migrationContext:]`).
    /// So a row whose `Z_ENT` holds another entity's number (Artsy's hand-made test stores
    /// have an Artwork with Collection's) is an object of this entity to Core Data, and to
    /// Stepwise.
    package var ownsEveryRowOfItsTable: Bool { isRoot && subentityNumbers == [number] }

    /// The SQL condition that selects the entity's own rows (not its subentities') in its
    /// table, columns qualified by `alias` when given: `"s"."Z_ENT" = 5`; nil when every row
    /// is its own (``ownsEveryRowOfItsTable``).
    package func ownRowsCondition(alias: String? = nil) -> String? {
        guard !ownsEveryRowOfItsTable else { return nil }
        return "\(alias.map { "\($0.quotedSQLIdentifier)." } ?? "")\"Z_ENT\" = \(number)"
    }

    /// The SQL condition that selects the rows "kind of" this entity in its table (its own and
    /// its subentities'): `"Z_ENT" IN (5, 6)`; nil when every row is (``ownsEveryRowOfItsTable``).
    package var kindOfCondition: String? {
        guard !ownsEveryRowOfItsTable else { return nil }
        return "\"Z_ENT\" IN (\(subentityNumbers.map(String.init).joined(separator: ", ")))"
    }

    /// The stored attribute with this name, own or inherited.
    package func attribute(named name: String) -> AttributeLayout? {
        attributePositions[name].map { attributes[$0] }
    }

    /// The stored relationship with this name, own or inherited.
    package func relationship(named name: String) -> RelationshipLayout? {
        relationshipPositions[name].map { relationships[$0] }
    }

    /// The column in ``tableName`` that holds a property: an attribute's column or a to-one's
    /// foreign key. Nil for to-many relationships, transient and unknown properties.
    package func column(for property: String) -> String? {
        attribute(named: property)?.column ?? relationship(named: property)?.foreignKeyColumn
    }
}
