import GRDB
import StepwiseModel

extension ObjectContext {
    /// The objects a relationship of `id` points to, in order for ordered relationships.
    public func related(_ id: ObjectID, _ relationship: String) throws -> [ObjectID] {
        let (source, layoutInfo) = try relationshipLayout(id.entity, relationship)
        guard let destination = layout.entity(named: layoutInfo.destination) else {
            throw StoreError(path: path, kind: .unknownEntity(layoutInfo.destination))
        }
        let keys: [Int64]
        switch layoutInfo.storage {
        case .foreignKey(let column, _, _):
            keys = try Int64.fetchAll(
                statement(.init(operation: .related, entity: id.entity, properties: [relationship])) {
                    "SELECT \(column.quoted) FROM \(qualified(source.tableName)) WHERE \"Z_PK\" = ? AND \(column.quoted) IS NOT NULL"
                },
                arguments: [id.primaryKey])
        case .inverseForeignKey(let table, let column, let orderColumn):
            keys = try Int64.fetchAll(
                statement(.init(operation: .related, entity: id.entity, properties: [relationship])) {
                    let order = orderColumn.map { "\($0.quoted), " } ?? ""
                    return
                        "SELECT \"Z_PK\" FROM \(qualified(table)) WHERE \(column.quoted) = ? ORDER BY \(order)\"Z_PK\""
                },
                arguments: [id.primaryKey])
        case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn):
            keys = try Int64.fetchAll(
                statement(.init(operation: .related, entity: id.entity, properties: [relationship])) {
                    let order = orderColumn.map { "\($0.quoted), " } ?? ""
                    return
                        "SELECT \(destinationColumn.quoted) FROM \(qualified(table)) WHERE \(sourceColumn.quoted) = ? ORDER BY \(order)\(destinationColumn.quoted)"
                },
                arguments: [id.primaryKey])
        }
        guard destination.subentityNumbers.count > 1 else {
            return keys.map { ObjectID(entity: destination.name, primaryKey: $0) }
        }
        return try keys.map { try concreteID(primaryKey: $0, kindOf: destination) }
    }

    /// Links `id` to `destination` through `relationship`: sets a to-one, or adds to a to-many.
    /// The inverse is kept consistent, as Core Data does.
    public func relate(_ id: ObjectID, _ relationship: String, to destination: ObjectID) throws {
        let (_, info) = try relationshipLayout(id.entity, relationship)
        if info.isToMany {
            try addToMany(id, info, destination)
        } else {
            try setToOne(id, relationship, to: destination)
        }
    }

    /// Removes `destination` from a to-many relationship of `id` (or clears a to-one that points to it).
    public func unrelate(_ id: ObjectID, _ relationship: String, from destination: ObjectID) throws {
        let (source, info) = try relationshipLayout(id.entity, relationship)
        switch info.storage {
        case .foreignKey(let column, _, _):
            try statement(.init(operation: .unrelate, entity: id.entity, properties: [relationship])) {
                "UPDATE \(qualified(source.tableName)) SET \(column.quoted) = NULL, \"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"Z_PK\" = ? AND \(column.quoted) = ?"
            }.execute(arguments: [id.primaryKey, destination.primaryKey])
            if let inverse = info.inverse {
                try clearInverseToOne(of: destination, inverse: inverse, pointingTo: id)
            }
        case .inverseForeignKey(let table, let column, let orderColumn):
            try statement(.init(operation: .unrelate, entity: id.entity, properties: [relationship])) {
                let clearOrder = [orderColumn, info.hiddenEntityColumn].compactMap {
                    $0.map { ", \($0.quoted) = NULL" }
                }
                .joined()
                return
                    "UPDATE \(qualified(table)) SET \(column.quoted) = NULL\(clearOrder), \"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"Z_PK\" = ? AND \(column.quoted) = ?"
            }.execute(arguments: [destination.primaryKey, id.primaryKey])
        case .joinTable(let table, let sourceColumn, let destinationColumn, _):
            try statement(.init(operation: .unrelate, entity: id.entity, properties: [relationship])) {
                "DELETE FROM \(qualified(table)) WHERE \(sourceColumn.quoted) = ? AND \(destinationColumn.quoted) = ?"
            }.execute(arguments: [id.primaryKey, destination.primaryKey])
        }
    }

    /// Replaces what a relationship of `id` holds with `destinations`, in their order for an
    /// ordered relationship: Core Data's `setValue(_:forKey:)` with a whole (ordered) set.
    ///
    /// ```swift
    /// try objects.setRelated(playlist, "songs", to: [third, first])  // now exactly these, in this order
    /// ```
    ///
    /// Objects no longer held are unlinked, and inverses kept consistent, as
    /// ``unrelate(_:_:from:)`` and ``relate(_:_:to:)`` keep them; an ordered relationship's
    /// positions are written afresh. A destination given twice is held once, at its first
    /// place. For a to-one, `destinations` holds one object or none.
    ///
    /// - throws: ``StoreError`` for an unknown relationship, or several objects for a to-one.
    public func setRelated(_ id: ObjectID, _ relationship: String, to destinations: [ObjectID]) throws {
        let (_, info) = try relationshipLayout(id.entity, relationship)
        guard info.isToMany else {
            guard destinations.count <= 1 else {
                throw StoreError(
                    path: path,
                    kind: .invalidValue(
                        entity: id.entity, property: relationship,
                        reason: "it is a to-one relationship, given \(destinations.count) objects"))
            }
            try setToOne(id, relationship, to: destinations.first)
            return
        }
        // Unlink everything, then link in order: appending is what writes an ordered
        // relationship's positions, so relinking from empty gives them in the order given.
        for current in try related(id, relationship) {
            try unrelate(id, relationship, from: current)
        }
        var linked: Set<ObjectID> = []
        for destination in destinations where linked.insert(destination).inserted {
            try relate(id, relationship, to: destination)
        }
    }

    /// Sets (or, with nil, clears) a to-one relationship and its inverse.
    ///
    /// Setting the object the relationship already holds keeps the object's place in an
    /// ordered inverse: only a new destination appends it at the end.
    public func setToOne(_ id: ObjectID, _ relationship: String, to destination: ObjectID?) throws {
        if let plain = try plainToOneWrite(id.entity, relationship) {
            try plain.write(id, to: destination, in: self)
            return
        }
        let (source, info) = try relationshipLayout(id.entity, relationship)
        guard case .foreignKey(let column, let entityColumn, let orderColumn) = info.storage else {
            throw StoreError(
                path: path,
                kind: .invalidValue(entity: id.entity, property: relationship, reason: "it is a to-many relationship"))
        }
        // The previous destination matters only to a one-to-one (its inverse is detached) and
        // to an ordered inverse (an unchanged destination keeps its position). A plain
        // to-one whose inverse is a to-many or absent skips reading it: the same writes follow.
        let needsPrevious = orderColumn != nil || info.inverse.map { hasInverseForeignKey(info, inverse: $0) } == true
        let previous = needsPrevious ? try related(id, relationship).first : nil
        // Detach from the previous destination's one-to-one inverse first.
        if let inverse = info.inverse, let previous, previous != destination {
            try clearInverseToOne(of: previous, inverse: inverse, pointingTo: id)
        }
        var arguments = try foreignKeyArguments(entityColumn, to: destination)
        let writesOrder = orderColumn != nil && (destination == nil || previous != destination)
        if let orderColumn, writesOrder {
            // An ordered to-many inverse: append at the end, spaced like Core Data's positions.
            if let destination {
                arguments.append(
                    try nextPosition(of: orderColumn, in: source.tableName, where: column, is: destination.primaryKey)
                        .databaseValue)
            } else {
                arguments.append(.null)
            }
        }
        arguments.append(id.primaryKey.databaseValue)
        try statement(
            .init(operation: .setToOne, entity: id.entity, properties: [relationship], variant: writesOrder ? 1 : 0)
        ) {
            var assignments = foreignKeyAssignments(column, entityColumn)
            if let orderColumn, writesOrder { assignments.append("\(orderColumn.quoted) = ?") }
            return "UPDATE \(qualified(source.tableName)) SET \(assignments.joined(separator: ", ")) WHERE \"Z_PK\" = ?"
        }.execute(arguments: StatementArguments(values: arguments))
        guard db.changesCount == 1 else {
            throw StoreError(path: path, kind: .rowNotFound(entity: id.entity, primaryKey: id.primaryKey))
        }
        // A one-to-one keeps a foreign key on both sides (corpus README §5).
        if let destination, let inverse = info.inverse, hasInverseForeignKey(info, inverse: inverse),
            let inverseInfo = try? relationshipLayout(destination.entity, inverse).1, !inverseInfo.isToMany,
            inverseInfo.foreignKeyColumn != nil
        {
            let current = try related(destination, inverse).first
            if current != id {
                if let current { try setToOneWithoutInverse(current, info.name, to: nil) }
                try setToOneWithoutInverse(destination, inverse, to: id)
            }
        }
    }

    private func addToMany(_ id: ObjectID, _ info: RelationshipLayout, _ destination: ObjectID) throws {
        switch info.storage {
        case .foreignKey:
            break  // not reachable: to-many relationships never store a foreign key on the source
        case .inverseForeignKey(let table, let column, let orderColumn) where info.hasHiddenForeignKey:
            // No inverse writes the hidden key: write it here, with the holder's Z_ENT and its
            // position when Core Data keeps them. As for a to-one inverse, the destination leaves
            // the set of the object that held it before, and one already in the set keeps its place.
            var arguments: [DatabaseValue] = [id.primaryKey.databaseValue]
            if info.hiddenEntityColumn != nil { arguments.append(try entityLayout(id.entity).number.databaseValue) }
            if let orderColumn {
                let holder = try Int64.fetchOne(
                    statement(.init(operation: .addToMany, entity: id.entity, properties: [info.name], variant: 1)) {
                        "SELECT \(column.quoted) FROM \(qualified(table)) WHERE \"Z_PK\" = ?"
                    },
                    arguments: [destination.primaryKey])
                if holder == id.primaryKey { return }
                arguments.append(
                    try nextPosition(of: orderColumn, in: table, where: column, is: id.primaryKey).databaseValue)
            }
            arguments.append(destination.primaryKey.databaseValue)
            try statement(.init(operation: .addToMany, entity: id.entity, properties: [info.name])) {
                let assignments =
                    ["\(column.quoted) = ?"]
                    + [info.hiddenEntityColumn, orderColumn].compactMap { $0.map { "\($0.quoted) = ?" } }
                return
                    "UPDATE \(qualified(table)) SET \(assignments.joined(separator: ", ")), \"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"Z_PK\" = ?"
            }.execute(arguments: StatementArguments(values: arguments))
            guard db.changesCount == 1 else {
                throw StoreError(
                    path: path, kind: .rowNotFound(entity: destination.entity, primaryKey: destination.primaryKey))
            }
        case .inverseForeignKey:
            guard let inverse = info.inverse else { return }
            try setToOne(destination, inverse, to: id)
        case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn):
            var arguments: [DatabaseValue] = [id.primaryKey.databaseValue, destination.primaryKey.databaseValue]
            var orderColumns: [String] = []
            if let orderColumn {
                orderColumns.append(orderColumn)
                arguments.append(
                    try nextPosition(of: orderColumn, in: table, where: sourceColumn, is: id.primaryKey).databaseValue)
            }
            // A many-to-many ordered on both sides: Core Data appends each object to the other's
            // set too, so the inverse's position column is written in the same row.
            if let inverse = info.inverse,
                case .joinTable(table, destinationColumn, sourceColumn, let inverseOrder?)? = try? relationshipLayout(
                    destination.entity, inverse
                ).1.storage
            {
                orderColumns.append(inverseOrder)
                arguments.append(
                    try nextPosition(of: inverseOrder, in: table, where: destinationColumn, is: destination.primaryKey)
                        .databaseValue)
            }
            try statement(.init(operation: .addToMany, entity: id.entity, properties: [info.name])) {
                let columns = [sourceColumn, destinationColumn] + orderColumns
                return
                    "INSERT OR IGNORE INTO \(qualified(table)) (\(columns.map(\.quoted).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
            }.execute(arguments: StatementArguments(values: arguments))
        }
    }

    /// Sets a to-one foreign key without touching its inverse (used to mirror one-to-ones).
    private func setToOneWithoutInverse(_ id: ObjectID, _ relationship: String, to destination: ObjectID?) throws {
        let (source, info) = try relationshipLayout(id.entity, relationship)
        guard case .foreignKey(let column, let entityColumn, _) = info.storage else { return }
        var arguments = try foreignKeyArguments(entityColumn, to: destination)
        arguments.append(id.primaryKey.databaseValue)
        try statement(.init(operation: .setToOneWithoutInverse, entity: id.entity, properties: [relationship])) {
            let assignments = foreignKeyAssignments(column, entityColumn)
            return "UPDATE \(qualified(source.tableName)) SET \(assignments.joined(separator: ", ")) WHERE \"Z_PK\" = ?"
        }.execute(arguments: StatementArguments(values: arguments))
    }

    /// `column = ?` (the destination's `Z_PK`), the `Z_OPT` bump, and `entityColumn = ?` (its
    /// `Z_ENT`) when the destination has subentities: the assignments of a to-one's update.
    private func foreignKeyAssignments(_ column: String, _ entityColumn: String?) -> [String] {
        var assignments = ["\(column.quoted) = ?", "\"Z_OPT\" = \"Z_OPT\" + 1"]
        if let entityColumn { assignments.append("\(entityColumn.quoted) = ?") }
        return assignments
    }

    /// The arguments of ``foreignKeyAssignments(_:_:)``.
    private func foreignKeyArguments(_ entityColumn: String?, to destination: ObjectID?) throws -> [DatabaseValue] {
        var arguments: [DatabaseValue] = [destination?.primaryKey.databaseValue ?? .null]
        if entityColumn != nil {
            arguments.append(try destination.map { try entityLayout($0.entity).number.databaseValue } ?? .null)
        }
        return arguments
    }

    /// Whether `inverse`, the inverse of the to-one `info`, is itself a to-one with a foreign
    /// key (a one-to-one): only then do both sides hold a key to keep consistent. The inverse
    /// is declared on the destination entity, so its storage is the same for every subentity.
    private func hasInverseForeignKey(_ info: RelationshipLayout, inverse: String) -> Bool {
        guard let inverseInfo = try? relationshipLayout(info.destination, inverse).1 else { return true }
        return inverseInfo.foreignKeyColumn != nil
    }

    /// The position after the last one of an ordered to-many's members (`orderColumn` of the
    /// rows of `table` whose `groupColumn` is `key`), spaced by 1024 like Core Data's `Z_FOK_`.
    private func nextPosition(of orderColumn: String, in table: String, where groupColumn: String, is key: Int64)
        throws -> Int64
    {
        let last = try Int64.fetchOne(
            statement(.init(operation: .nextPosition, entity: table, properties: [orderColumn, groupColumn])) {
                "SELECT MAX(\(orderColumn.quoted)) FROM \(qualified(table)) WHERE \(groupColumn.quoted) = ?"
            },
            arguments: [key])
        return (last ?? 0) + 1024
    }

    private func clearInverseToOne(of object: ObjectID, inverse: String, pointingTo id: ObjectID) throws {
        guard let (table, info) = try? relationshipLayout(object.entity, inverse),
            case .foreignKey(let column, _, _) = info.storage
        else { return }
        try statement(.init(operation: .clearInverse, entity: object.entity, properties: [inverse])) {
            "UPDATE \(qualified(table.tableName)) SET \(column.quoted) = NULL, \"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"Z_PK\" = ? AND \(column.quoted) = ?"
        }.execute(arguments: [object.primaryKey, id.primaryKey])
    }

    func relationshipLayout(_ entity: String, _ name: String) throws -> (EntityLayout, RelationshipLayout) {
        let key = ObjectContextCache.RelationshipKey(entity: entity, relationship: name)
        if let known = cache.relationships[key] { return known }
        let entityLayout = try self.entityLayout(entity)
        guard let relationship = entityLayout.relationship(named: name) else {
            throw StoreError(path: path, kind: .unknownProperty(entity: entity, property: name))
        }
        cache.relationships[key] = (entityLayout, relationship)
        return (entityLayout, relationship)
    }

    /// The id of the row with `primaryKey` in `entity`'s table, with its concrete entity from `Z_ENT`.
    func concreteID(primaryKey: Int64, kindOf entity: EntityLayout) throws -> ObjectID {
        guard entity.subentityNumbers.count > 1 else { return ObjectID(entity: entity.name, primaryKey: primaryKey) }
        let number = try Int.fetchOne(
            statement(.init(operation: .concreteID, entity: entity.name, properties: [])) {
                "SELECT \"Z_ENT\" FROM \(qualified(entity.tableName)) WHERE \"Z_PK\" = ?"
            },
            arguments: [primaryKey])
        let name = number.flatMap { layout.entity(number: $0)?.name } ?? entity.name
        return ObjectID(entity: name, primaryKey: primaryKey)
    }
}
