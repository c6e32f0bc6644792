import StepwiseModel

/// Which relationship of each many-to-many names its join table, in the order Core Data pairs
/// them: Core Data's own rule, replayed (``StoreLayout``, "Which side names a join table").
///
/// `NSSQLModel` calls `NSSQLEntity._generateInverseRelationshipsAndMore` on each entity in
/// ``CoreDataNameOrder`` (decompiled Core Data of iOS 26.1). Each call visits the entity's own and
/// inherited properties in ``CoreDataPropertyOrder`` and pairs every relationship with its
/// inverse. A to-many whose inverse is a to-many is paired by
/// `NSSQLManyToMany._setInverseManyToMany:`, which names the join table after the relationship it
/// is called on, `Z_<its entity's number><ITS NAME>`, unless its inverse was paired first. So the
/// side visited first names the table: the one whose entity comes first when only one of the two
/// is seen from it, or, when both are (a self-referential pair, or both in one hierarchy), the
/// one in the earlier slot.
///
/// The visit also adds keys, which move the slots of entities visited later:
/// - a to-many without inverse gets a virtual to-one in its destination and the destination's
///   subentities (`_addVirtualToOneForToMany:withInheritedProperty:`): the keys of its foreign key
///   `_Z<n><NAME>`, of its entity column `_Z<n>_<n><NAME>` when the source has subentities, its
///   own name `<n><name>`, and `_Z_FOK_<n><NAME>` when ordered (``HiddenForeignKey``);
/// - a to-one whose inverse is an ordered to-many adds the key of its position column,
///   `_Z_FOK_<NAME>` (`_addForeignOrderKeyForToOne:entity:`), to the visited entity and its
///   subentities.
///
/// An entity's keys before the visits (`NSSQLEntity` initialization): a root's `_ent`, `_pk` and
/// `_opt`, a subentity's parent's keys in the parent's slot order; then its own stored attributes
/// in the slot order of a table of every attribute it has; then its own stored relationships in
/// the slot order of a table of every relationship it has, each to-one preceded by its foreign
/// key's key (`_` + the column, `_ZAUTHOR`) and its entity column's key (`_Z3_AUTHOR`).
///
/// It names every join table of the corpus stores whose model Stepwise reads as Core Data did
/// (389 in 68 stores: Wire's, DuckDuckGo's Bookmarks, Apptentive's, Artsy's with their numbered
/// columns `Z_3ARTWORKS1`; `RealStoreLayoutTests`).
struct ManyToManyPairing {
    /// A relationship, by the entity that declares it.
    struct Side: Hashable {
        var entity: String
        var relationship: String
    }

    /// A many-to-many: `owner` names the join table, `inverse` is the other side (the same
    /// relationship for one that is its own inverse).
    struct Pair: Hashable {
        var owner: Side
        var inverse: Side
    }

    /// Every many-to-many, in the order Core Data pairs them: the order in which their columns
    /// are named.
    let pairs: [Pair]

    /// Replays the pairing.
    ///
    /// - parameters:
    ///   - model: The model, composites flattened.
    ///   - numbers: Each entity's `Z_ENT`.
    ///   - toOneKeys: For each stored to-one, the keys of its columns in its entity's table: `_`
    ///     and its foreign key's column, then `_` and its entity column's.
    ///   - toOneOrderKeys: For each to-one whose inverse is an ordered to-many, `_` and its
    ///     position column.
    ///   - hiddenForeignKeys: For each to-many without inverse, its hidden foreign key.
    init(
        model: ObjectModel, numbers: [String: Int], toOneKeys: [Side: [String]], toOneOrderKeys: [Side: String],
        hiddenForeignKeys: [Side: HiddenForeignKey]
    ) {
        var walk = Walk(model: model)
        for entity in model.entities {
            walk.build(entity, toOneKeys: toOneKeys)
        }
        var paired: Set<Side> = []
        var pairs: [Pair] = []
        for entity in model.entities.sorted(by: { CoreDataNameOrder.precedes($0.name, $1.name) }) {
            var relationships: [String: (declaring: Entity, relationship: Relationship)] = [:]
            for (declaring, property) in model.declaredProperties(of: entity) {
                guard case .relationship(let relationship) = property, !relationship.isTransient,
                    relationships[relationship.name] == nil
                else { continue }
                relationships[relationship.name] = (declaring, relationship)
            }
            for key in CoreDataPropertyOrder.visitingOrder(of: walk.tables[entity.name]?.keys ?? []) {
                guard let (declaring, relationship) = relationships[key] else { continue }
                let side = Side(entity: declaring.name, relationship: relationship.name)
                let inverse = model.storedInverse(of: relationship)
                if relationship.isToOne {
                    if let orderKey = toOneOrderKeys[side] { walk.add(orderKey, to: entity) }
                } else if let inverse {
                    let inverseSide = Side(entity: inverse.entity.name, relationship: inverse.relationship.name)
                    guard inverse.relationship.isToMany, !paired.contains(side) else { continue }
                    paired.insert(side)
                    paired.insert(inverseSide)
                    pairs.append(Pair(owner: side, inverse: inverseSide))
                } else if paired.insert(side).inserted, let hidden = hiddenForeignKeys[side],
                    let destination = model[entity: relationship.destination]
                {
                    for hiddenKey in hidden.keys { walk.add(hiddenKey, to: destination) }
                }
            }
        }
        self.pairs = pairs
    }

    /// The entities' property tables as the walk changes them.
    private struct Walk {
        let model: ObjectModel
        var tables: [String: CoreDataPropertyOrder.LeopardTable] = [:]

        init(model: ObjectModel) {
            self.model = model
        }

        /// The table of `entity` before the walk, after its parent's.
        mutating func build(_ entity: Entity, toOneKeys: [Side: [String]]) {
            guard tables[entity.name] == nil else { return }
            var table = CoreDataPropertyOrder.LeopardTable()
            if let parentName = entity.parentName, let parent = model[entity: parentName] {
                build(parent, toOneKeys: toOneKeys)
                for key in tables[parentName]?.keys ?? [] { table.insert(key) }
            } else {
                for key in ["_ent", "_pk", "_opt"] { table.insert(key) }
            }
            var attributes = CoreDataPropertyOrder.LeopardTable()
            for attribute in model.allAttributes(of: entity) where !attribute.isTransient {
                attributes.insert(attribute.name)
            }
            let own = Set(entity.attributes.filter { !$0.isTransient }.map(\.name))
            for name in attributes.keys where own.contains(name) && !table.contains(name) {
                table.insert(name)
            }
            var relationships = CoreDataPropertyOrder.LeopardTable()
            for relationship in model.allRelationships(of: entity) where !relationship.isTransient {
                relationships.insert(relationship.name)
            }
            for name in relationships.keys where !table.contains(name) {
                guard let relationship = entity.relationship(named: name), !relationship.isTransient else { continue }
                if relationship.isToOne {
                    for key in toOneKeys[Side(entity: entity.name, relationship: name)] ?? [] { table.insert(key) }
                }
                table.insert(name)
            }
            tables[entity.name] = table
        }

        /// Adds `key` to the tables of `entity` and of its descendants that lack it, depth-first.
        mutating func add(_ key: String, to entity: Entity) {
            for member in model.hierarchy(from: entity) where tables[member.name]?.contains(key) == false {
                tables[member.name]?.insert(key)
            }
        }

    }
}

/// The columns Core Data gives a to-many without inverse in its destination's table: those of a
/// virtual to-one named `<n><name>` (n the `Z_ENT` of the entity declaring the to-many), created by
/// `NSSQLEntity._addVirtualToOneForToMany:withInheritedProperty:` through
/// `NSSQLToOne.initWithEntity:inverseToMany:` (decompiled Core Data of iOS 26.1).
struct HiddenForeignKey: Hashable {
    /// The entity declaring the to-many.
    var declaringEntity: String
    /// Its `Z_ENT`.
    var declaringNumber: Int
    /// The to-many's name.
    var relationship: String
    /// `Z<n><NAME>`: the `Z_PK` of the object holding the row (`NSSQLForeignKey`).
    var column: String
    /// `Z<n>_<n><NAME>`: its `Z_ENT`, when the declaring entity has subentities
    /// (`NSSQLForeignEntityKey`).
    var entityColumn: String?
    /// `Z_FOK_<n><NAME>`: the row's position, when the to-many is ordered (`NSSQLForeignOrderKey`).
    var orderColumn: String?

    /// The hidden foreign key of `relationship`, declared by the entity numbered `number`.
    init(declaringEntity: String, number: Int, relationship: Relationship, declaringEntityHasSubentities: Bool) {
        self.declaringEntity = declaringEntity
        self.declaringNumber = number
        self.relationship = relationship.name
        let name = "\(number)" + relationship.name.uppercased()
        column = "Z" + name
        entityColumn = declaringEntityHasSubentities ? "Z\(number)_" + name : nil
        orderColumn = relationship.isOrdered ? "Z_FOK_" + name : nil
    }

    /// The keys the virtual to-one adds to its entity's property table, in Core Data's order.
    var keys: [String] {
        ["_" + column] + (entityColumn.map { ["_" + $0] } ?? []) + ["\(declaringNumber)" + relationship]
            + (orderColumn.map { ["_" + $0] } ?? [])
    }
}
