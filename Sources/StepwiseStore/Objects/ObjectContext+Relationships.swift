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
                db.cachedStatement(
                    sql:
                        "SELECT \(column.quoted) FROM \(qualified(source.tableName)) WHERE \"Z_PK\" = ? AND \(column.quoted) IS NOT NULL"
                ),
                arguments: [id.primaryKey])
        case .inverseForeignKey(let table, let column, let orderColumn):
            let order = orderColumn.map { "\($0.quoted), " } ?? ""
            keys = try Int64.fetchAll(
                db.cachedStatement(
                    sql: "SELECT \"Z_PK\" FROM \(qualified(table)) WHERE \(column.quoted) = ? ORDER BY \(order)\"Z_PK\""
                ),
                arguments: [id.primaryKey])
        case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn):
            let order = orderColumn.map { "\($0.quoted), " } ?? ""
            keys = try Int64.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT \(destinationColumn.quoted) FROM \(qualified(table)) WHERE \(sourceColumn.quoted) = ? ORDER BY \(order)\(destinationColumn.quoted)"
                ),
                arguments: [id.primaryKey])
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
            try db.cachedStatement(
                sql:
                    "UPDATE \(qualified(source.tableName)) SET \(column.quoted) = NULL, \"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"Z_PK\" = ? AND \(column.quoted) = ?"
            ).execute(arguments: [id.primaryKey, destination.primaryKey])
            if let inverse = info.inverse {
                try clearInverseToOne(of: destination, inverse: inverse, pointingTo: id)
            }
        case .inverseForeignKey(let table, let column, let orderColumn):
            let clearOrder = orderColumn.map { ", \($0.quoted) = NULL" } ?? ""
            try db.cachedStatement(
                sql:
                    "UPDATE \(qualified(table)) SET \(column.quoted) = NULL\(clearOrder), \"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"Z_PK\" = ? AND \(column.quoted) = ?"
            ).execute(arguments: [destination.primaryKey, id.primaryKey])
        case .joinTable(let table, let sourceColumn, let destinationColumn, _):
            try db.cachedStatement(
                sql:
                    "DELETE FROM \(qualified(table)) WHERE \(sourceColumn.quoted) = ? AND \(destinationColumn.quoted) = ?"
            ).execute(arguments: [id.primaryKey, destination.primaryKey])
        }
    }

    /// Sets (or, with nil, clears) a to-one relationship and its inverse.
    ///
    /// Setting the object the relationship already holds keeps the object's place in an
    /// ordered inverse: only a new destination appends it at the end.
    public func setToOne(_ id: ObjectID, _ relationship: String, to destination: ObjectID?) throws {
        let (source, info) = try relationshipLayout(id.entity, relationship)
        guard case .foreignKey(let column, let entityColumn, let orderColumn) = info.storage else {
            throw StoreError(
                path: path,
                kind: .invalidValue(entity: id.entity, property: relationship, reason: "it is a to-many relationship"))
        }
        let previous = try related(id, relationship).first
        // Detach from the previous destination's one-to-one inverse first.
        if let inverse = info.inverse, let previous, previous != destination {
            try clearInverseToOne(of: previous, inverse: inverse, pointingTo: id)
        }
        var (assignments, arguments) = try foreignKeyAssignments(column, entityColumn, to: destination)
        if let orderColumn, destination == nil || previous != destination {
            // An ordered to-many inverse: append at the end, spaced like Core Data's positions.
            assignments.append("\(orderColumn.quoted) = ?")
            if let destination {
                arguments.append(
                    try nextPosition(of: orderColumn, in: source.tableName, where: column, is: destination.primaryKey)
                        .databaseValue)
            } else {
                arguments.append(.null)
            }
        }
        arguments.append(id.primaryKey.databaseValue)
        try db.cachedStatement(
            sql: "UPDATE \(qualified(source.tableName)) SET \(assignments.joined(separator: ", ")) WHERE \"Z_PK\" = ?"
        ).execute(arguments: StatementArguments(arguments))
        guard db.changesCount == 1 else {
            throw StoreError(path: path, kind: .rowNotFound(entity: id.entity, primaryKey: id.primaryKey))
        }
        // A one-to-one keeps a foreign key on both sides (corpus README §5).
        if let destination, let inverse = info.inverse,
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
        case .inverseForeignKey:
            guard let inverse = info.inverse else { return }
            try setToOne(destination, inverse, to: id)
        case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn):
            var columns = [sourceColumn, destinationColumn]
            var arguments: [DatabaseValue] = [id.primaryKey.databaseValue, destination.primaryKey.databaseValue]
            if let orderColumn {
                columns.append(orderColumn)
                arguments.append(
                    try nextPosition(of: orderColumn, in: table, where: sourceColumn, is: id.primaryKey).databaseValue)
            }
            try db.cachedStatement(
                sql:
                    "INSERT OR IGNORE INTO \(qualified(table)) (\(columns.map(\.quoted).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
            ).execute(arguments: StatementArguments(arguments))
        }
    }

    /// Sets a to-one foreign key without touching its inverse (used to mirror one-to-ones).
    private func setToOneWithoutInverse(_ id: ObjectID, _ relationship: String, to destination: ObjectID?) throws {
        let (source, info) = try relationshipLayout(id.entity, relationship)
        guard case .foreignKey(let column, let entityColumn, _) = info.storage else { return }
        var (assignments, arguments) = try foreignKeyAssignments(column, entityColumn, to: destination)
        arguments.append(id.primaryKey.databaseValue)
        try db.cachedStatement(
            sql: "UPDATE \(qualified(source.tableName)) SET \(assignments.joined(separator: ", ")) WHERE \"Z_PK\" = ?"
        ).execute(arguments: StatementArguments(arguments))
    }

    /// `column = ?` (the destination's `Z_PK`), the `Z_OPT` bump, and `entityColumn = ?` (its
    /// `Z_ENT`) when the destination has subentities: the assignments of a to-one's update.
    private func foreignKeyAssignments(_ column: String, _ entityColumn: String?, to destination: ObjectID?) throws
        -> ([String], [DatabaseValue])
    {
        var assignments = ["\(column.quoted) = ?", "\"Z_OPT\" = \"Z_OPT\" + 1"]
        var arguments: [DatabaseValue] = [destination?.primaryKey.databaseValue ?? .null]
        if let entityColumn {
            assignments.append("\(entityColumn.quoted) = ?")
            arguments.append(try destination.map { try entityLayout($0.entity).number.databaseValue } ?? .null)
        }
        return (assignments, arguments)
    }

    /// The position after the last one of an ordered to-many's members (`orderColumn` of the
    /// rows of `table` whose `groupColumn` is `key`), spaced by 1024 like Core Data's `Z_FOK_`.
    private func nextPosition(of orderColumn: String, in table: String, where groupColumn: String, is key: Int64)
        throws -> Int64
    {
        let last = try Int64.fetchOne(
            db.cachedStatement(
                sql: "SELECT MAX(\(orderColumn.quoted)) FROM \(qualified(table)) WHERE \(groupColumn.quoted) = ?"),
            arguments: [key])
        return (last ?? 0) + 1024
    }

    private func clearInverseToOne(of object: ObjectID, inverse: String, pointingTo id: ObjectID) throws {
        guard let (table, info) = try? relationshipLayout(object.entity, inverse),
            case .foreignKey(let column, _, _) = info.storage
        else { return }
        try db.cachedStatement(
            sql:
                "UPDATE \(qualified(table.tableName)) SET \(column.quoted) = NULL, \"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"Z_PK\" = ? AND \(column.quoted) = ?"
        ).execute(arguments: [object.primaryKey, id.primaryKey])
    }

    func relationshipLayout(_ entity: String, _ name: String) throws -> (EntityLayout, RelationshipLayout) {
        let entityLayout = try self.entityLayout(entity)
        guard let relationship = entityLayout.relationship(named: name) else {
            throw StoreError(path: path, kind: .unknownProperty(entity: entity, property: name))
        }
        return (entityLayout, relationship)
    }

    /// The id of the row with `primaryKey` in `entity`'s table, with its concrete entity from `Z_ENT`.
    func concreteID(primaryKey: Int64, kindOf entity: EntityLayout) throws -> ObjectID {
        guard entity.subentityNumbers.count > 1 else { return ObjectID(entity: entity.name, primaryKey: primaryKey) }
        let number = try Int.fetchOne(
            db.cachedStatement(sql: "SELECT \"Z_ENT\" FROM \(qualified(entity.tableName)) WHERE \"Z_PK\" = ?"),
            arguments: [primaryKey])
        let name = number.flatMap { layout.entity(number: $0)?.name } ?? entity.name
        return ObjectID(entity: name, primaryKey: primaryKey)
    }
}
