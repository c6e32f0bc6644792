import StepwiseModel

extension LayoutPlanner {
    /// Every stored relationship's storage, in two rounds. First those whose storage depends on
    /// the relationship alone: to-ones, to-manys with a to-one inverse, to-manys without inverse.
    /// Then the many-to-manys, in the order Core Data pairs them (``ManyToManyPairing``), which
    /// decides which side names each join table and which of two equal column names gets the
    /// number; the columns of the first round take part in that order.
    mutating func planRelationships() throws(StoreError) {
        typealias Side = ManyToManyPairing.Side
        var toOneKeys: [Side: [String]] = [:]
        var toOneOrderKeys: [Side: String] = [:]
        var hidden: [Side: HiddenForeignKey] = [:]
        for entity in ordered {
            for relationship in entity.relationships where !relationship.isTransient {
                let side = Side(entity: entity.name, relationship: relationship.name)
                let inverse = self.inverse(of: relationship)
                if relationship.isToOne {
                    let (column, entityColumn, orderColumn) = try planToOne(relationship, of: entity, inverse: inverse)
                    toOneKeys[side] = ["_" + column] + (entityColumn.map { ["_" + $0] } ?? [])
                    toOneOrderKeys[side] = orderColumn.map { "_" + $0 }
                } else if let inverse, inverse.relationship.isToOne {
                    // The rows live in the destination's table, under the inverse's foreign key.
                    let inverseBase = try baseName(inverse.relationship.name, of: inverse.entity)
                    relationshipStorage[entity.name, default: [:]][relationship.name] = .inverseForeignKey(
                        table: tableName(of: inverse.entity), column: "Z" + inverseBase,
                        orderColumn: relationship.isOrdered ? "Z_FOK_" + inverseBase : nil)
                } else if inverse == nil {
                    let key = HiddenForeignKey(
                        declaringEntity: entity.name, number: try number(of: entity), relationship: relationship,
                        declaringEntityHasSubentities: !model.subentities(of: entity).isEmpty)
                    hidden[side] = key
                    if existing?.columns(ofTable: Self.inverselessJoinTableName(key)) != nil {
                        try planInverselessJoinTable(relationship, of: entity, key: key)
                    } else {
                        try planHiddenForeignKey(key, of: relationship)
                    }
                }
            }
        }
        let pairing = ManyToManyPairing(
            model: model, numbers: numbers, toOneKeys: toOneKeys, toOneOrderKeys: toOneOrderKeys,
            hiddenForeignKeys: hidden)
        for pair in pairing.pairs {
            try planJoinTable(pair)
        }
    }

    /// A to-one: its foreign key `Z<NAME>`, with `Z<n>_<NAME>` (n the destination's Z_ENT) when
    /// the destination has subentities, and `Z_FOK_<NAME>` when its inverse is an ordered
    /// to-many. Returns the three columns.
    private mutating func planToOne(
        _ relationship: Relationship, of entity: Entity, inverse: (relationship: Relationship, entity: Entity)?
    ) throws(StoreError) -> (column: String, entityColumn: String?, orderColumn: String?) {
        let base = try baseName(relationship.name, of: entity)
        guard let destination = model[entity: relationship.destination] else {
            throw unsupported("relationship '\(entity.name).\(relationship.name)' has no destination")
        }
        // Without the destination's Z_ENT, a foreign key into a multi-entity hierarchy
        // would need a fetch to know which subentity it points at.
        let entityColumn =
            model.subentities(of: destination).isEmpty ? nil : "Z\(try number(of: destination))_" + base
        let inverseIsOrdered = inverse.map { $0.relationship.isToMany && $0.relationship.isOrdered } ?? false
        let orderColumn = inverseIsOrdered ? "Z_FOK_" + base : nil
        relationshipStorage[entity.name, default: [:]][relationship.name] = .foreignKey(
            column: "Z" + base, entityColumn: entityColumn, orderColumn: orderColumn)
        return ("Z" + base, entityColumn, orderColumn)
    }

    /// A to-many without inverse, in every release: Core Data gives its destination a virtual
    /// to-one (``HiddenForeignKey``), `Z<n><NAME>` in the destination's table, n the declaring
    /// entity's Z_ENT (CartKit's `Z2MODIFIERS`, Photos' `Z3LIBRARYSCOPEASSETCONTRIBUTORS`). Its
    /// names can't meet a property's column: a property name doesn't start with a digit.
    private mutating func planHiddenForeignKey(_ key: HiddenForeignKey, of relationship: Relationship)
        throws(StoreError)
    {
        guard let destination = model[entity: relationship.destination] else {
            throw unsupported("relationship '\(key.declaringEntity).\(relationship.name)' has no destination")
        }
        hiddenForeignKeys[destination.name, default: []].append(key)
        hiddenForeignKeys[destination.name]?.sort {
            ($0.declaringNumber, $0.relationship) < ($1.declaringNumber, $1.relationship)
        }
        relationshipStorage[key.declaringEntity, default: [:]][relationship.name] = .inverseForeignKey(
            table: tableName(of: destination), column: key.column, orderColumn: key.orderColumn)
    }

    /// `Z_<n><NAME>`: the join table an existing store may keep for a to-many without inverse.
    static func inverselessJoinTableName(_ key: HiddenForeignKey) -> String {
        "Z_\(key.declaringNumber)" + key.relationship.uppercased()
    }

    /// A to-many without inverse kept in a join table `Z_<n><NAME> (Z_<n><NAME>INVERSE,
    /// Z_<m><NAME>)`, for an existing store that has one (the form of a public Telegram store of
    /// an unrecorded release). Core Data itself uses a hidden foreign key in every release seen.
    private mutating func planInverselessJoinTable(
        _ relationship: Relationship, of entity: Entity, key: HiddenForeignKey
    ) throws(StoreError) {
        guard let destination = model[entity: relationship.destination] else {
            throw unsupported("relationship '\(entity.name).\(relationship.name)' has no destination")
        }
        let name = relationship.name.uppercased()
        let owner = ManyToManyPairing.Side(entity: entity.name, relationship: relationship.name)
        let sourceColumn = uniqueJoinColumn("Z_\(key.declaringNumber)" + name + "INVERSE", in: entity)
        let destinationColumn = uniqueJoinColumn("Z_\(try number(of: destination))" + name, in: destination)
        let orderColumn = relationship.isOrdered ? "Z_FOK_" + destinationColumn.dropFirst(2) : nil
        let table = Self.inverselessJoinTableName(key)
        addJoinTable(
            table, owner: owner, sourceColumn: sourceColumn, destinationColumn: destinationColumn,
            orderColumns: orderColumn.map { [($0, owner)] } ?? [])
        relationshipStorage[entity.name, default: [:]][relationship.name] = .joinTable(
            table: table, sourceColumn: sourceColumn, destinationColumn: destinationColumn, orderColumn: orderColumn)
    }

    /// A many-to-many's join table, as `NSSQLManyToMany._setInverseManyToMany:` names it: the
    /// table `Z_<n><NAME>` after the owner (the side paired first), each side's column
    /// `Z_<its entity's n><THE OTHER SIDE'S NAME>`, its position column `Z_FOK_<its entity's
    /// n><THE OTHER SIDE'S NAME>` when the other side is ordered. The inverse's columns are named
    /// first, then the owner's: of two equal names in one hierarchy the later one gets the number
    /// (Wire's `Z_20USERS.Z_24USERS`, then `Z_16USERS.Z_24USERS1`). Columns: the owner's, the
    /// inverse's, then the owner's position column and the inverse's (Wire's
    /// `Z_3LASTSERVERSYNCEDACTIVEPARTICIPANTS
    /// (Z_3LASTSERVERSYNCEDACTIVECONVERSATIONS, Z_17LASTSERVERSYNCEDACTIVEPARTICIPANTS,
    /// Z_FOK_3LASTSERVERSYNCEDACTIVECONVERSATIONS, Z_FOK_17LASTSERVERSYNCEDACTIVEPARTICIPANTS)`).
    ///
    /// A relationship that is its own inverse has `Z_<n><NAME>` and `REFLEXIVE`, and when ordered
    /// `Z_FOK_<n><NAME>` and `FOK_REFLEXIVE` (`inverseColumnName`, `inverseOrderColumnName`;
    /// Photos' `Z_54MERGECANDIDATES (Z_54MERGECANDIDATES, REFLEXIVE)`).
    private mutating func planJoinTable(_ pair: ManyToManyPairing.Pair) throws(StoreError) {
        var (owner, inverse) = (pair.owner, pair.inverse)
        // A store Core Data migrated in place may keep an older choice of the side naming the
        // table: an existing store's own choice is kept.
        var formerName: String?
        if let existing, owner != inverse,
            existing.columns(ofTable: try joinTableName(of: owner)) == nil,
            existing.columns(ofTable: try joinTableName(of: inverse)) != nil
        {
            if existing.keepsJoinTableNames {
                swap(&owner, &inverse)
            } else {
                // Renamed as Core Data's in-place migration renames it, columns kept in order.
                formerName = try joinTableName(of: inverse)
            }
        }
        let (ownerEntity, relationship) = try declared(owner)
        let (inverseEntity, inverseRelationship) = try declared(inverse)
        let ownerNumber = try number(of: ownerEntity)
        let table = try joinTableName(of: owner)
        let name = relationship.name.uppercased()
        if owner == inverse {
            let column = uniqueJoinColumn("Z_\(ownerNumber)" + name, in: ownerEntity)
            let positions =
                relationship.isOrdered ? uniqueJoinColumn("Z_FOK_\(ownerNumber)" + name, in: ownerEntity) : nil
            let memberPositions = relationship.isOrdered ? "FOK_REFLEXIVE" : nil
            addJoinTable(
                table, owner: owner, sourceColumn: column, destinationColumn: "REFLEXIVE",
                orderColumns: [positions, memberPositions].compactMap { $0.map { ($0, owner) } })
            relationshipStorage[owner.entity, default: [:]][owner.relationship] = .joinTable(
                table: table, sourceColumn: column, destinationColumn: "REFLEXIVE", orderColumn: memberPositions)
            return
        }
        let inverseNumber = try number(of: inverseEntity)
        let inverseName = inverseRelationship.name.uppercased()
        // The inverse's column holds the owner's members; its position column their positions.
        let inverseColumn = uniqueJoinColumn("Z_\(inverseNumber)" + name, in: inverseEntity)
        let memberPositions =
            relationship.isOrdered ? uniqueJoinColumn("Z_FOK_\(inverseNumber)" + name, in: inverseEntity) : nil
        let ownerColumn = uniqueJoinColumn("Z_\(ownerNumber)" + inverseName, in: ownerEntity)
        let ownerPositions =
            inverseRelationship.isOrdered
            ? uniqueJoinColumn("Z_FOK_\(ownerNumber)" + inverseName, in: ownerEntity) : nil
        addJoinTable(
            table, owner: owner, sourceColumn: ownerColumn, destinationColumn: inverseColumn,
            orderColumns: [ownerPositions.map { ($0, inverse) }, memberPositions.map { ($0, owner) }].compactMap { $0 },
            formerName: formerName)
        relationshipStorage[owner.entity, default: [:]][owner.relationship] = .joinTable(
            table: table, sourceColumn: ownerColumn, destinationColumn: inverseColumn, orderColumn: memberPositions)
        relationshipStorage[inverse.entity, default: [:]][inverse.relationship] = .joinTable(
            table: table, sourceColumn: inverseColumn, destinationColumn: ownerColumn, orderColumn: ownerPositions)
    }

    /// Adds a join table and, from Core Data 640, its index. `orderColumns` are the position
    /// columns, each with the relationship whose members' positions it holds.
    private mutating func addJoinTable(
        _ name: String, owner: ManyToManyPairing.Side, sourceColumn: String, destinationColumn: String,
        orderColumns: [(name: String, relationship: ManyToManyPairing.Side)], formerName: String? = nil
    ) {
        var columns = [
            ColumnLayout(
                name: sourceColumn, type: ColumnType.integer.rawValue,
                role: .joinSource(entity: owner.entity, relationship: owner.relationship)),
            ColumnLayout(
                name: destinationColumn, type: ColumnType.integer.rawValue,
                role: .joinDestination(entity: owner.entity, relationship: owner.relationship)),
        ]
        for order in orderColumns {
            columns.append(
                ColumnLayout(
                    name: order.name, type: ColumnType.integer.rawValue,
                    role: .order(entity: order.relationship.entity, relationship: order.relationship.relationship)))
        }
        var primaryKey = [sourceColumn, destinationColumn]
        // A store Core Data migrated in place may have its two columns the other way round (Wire
        // 2.96 to 2.100's `Z_25TRUSTEDBYCLIENTS (Z_25TRUSTEDBYCLIENTS, Z_25TRUSTEDCLIENTS)`, where
        // a new store has `Z_25TRUSTEDCLIENTS` first): an existing store's order is kept. The
        // names say which column is which, so the order changes nothing else.
        if let order = existing?.columns(ofTable: name) ?? formerName.flatMap({ existing?.columns(ofTable: $0) }) {
            let position = { (column: String) in order.firstIndex(of: column.uppercased()) ?? Int.max }
            if position(destinationColumn) < position(sourceColumn) {
                primaryKey.reverse()
                columns.swapAt(0, 1)
            }
        }
        joinTables.append(
            TableLayout(
                name: name, kind: .join(entity: owner.entity, relationship: owner.relationship), columns: columns,
                primaryKey: primaryKey, uniqueConstraints: [], entityNumbers: []))
        if release.indexesJoinTables {
            // Led by the column named after the relationship that names the table, whatever the
            // columns' order (Wire 2.96's `Z_25TRUSTEDBYCLIENTS_Z_25TRUSTEDBYCLIENTS_INDEX`).
            joinIndexes.append(
                IndexLayout(
                    name: "\(name)_\(destinationColumn)_INDEX", table: name,
                    elements: [.init(column: destinationColumn), .init(column: sourceColumn)],
                    kind: .joinTable(entity: owner.entity, relationship: owner.relationship)))
        }
    }

    /// `name`, or `name` followed by the first number that makes it new among the join-table
    /// columns of `entity`'s hierarchy, as `NSSQLStoreMappingGenerator.uniqueNameWithBase:`
    /// (decompiled Core Data of iOS 26.1) makes it: each name given counts its repeats, and a
    /// repeat takes the next count whose name wasn't given (Wire's `Z_16USERS.Z_24USERS1`, next to
    /// `Z_20USERS.Z_24USERS`). Core Data's generator also names the hierarchy's own columns, but
    /// those (`Z<NAME>`, `Z_FOK_<NAME>`) never start like a join table's `Z_<digits>`.
    private mutating func uniqueJoinColumn(_ name: String, in entity: Entity) -> String {
        let root = model.root(of: entity).name
        guard let count = joinColumnNames[root]?[name] else {
            joinColumnNames[root, default: [:]][name] = 0
            return name
        }
        var number = count + 1
        while joinColumnNames[root]?[name + String(number)] != nil {
            number += 1
        }
        joinColumnNames[root]?[name] = number
        return name + String(number)
    }

    /// `Z_<n><NAME>`, the join table named after `side`.
    private func joinTableName(of side: ManyToManyPairing.Side) throws(StoreError) -> String {
        let (entity, relationship) = try declared(side)
        return "Z_\(try number(of: entity))" + relationship.name.uppercased()
    }

    /// The entity and relationship a side names.
    private func declared(_ side: ManyToManyPairing.Side) throws(StoreError) -> (Entity, Relationship) {
        guard let entity = model[entity: side.entity], let relationship = entity.relationship(named: side.relationship)
        else {
            throw unsupported("relationship '\(side.entity).\(side.relationship)' is not declared")
        }
        return (entity, relationship)
    }
}
