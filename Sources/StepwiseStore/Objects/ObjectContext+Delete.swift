import GRDB
import StepwiseModel

extension ObjectContext {
    /// Deletes an object, applying each relationship's deletion rule as Core Data does:
    /// *nullify* clears the inverse, *cascade* deletes the destinations, *deny* refuses while
    /// destinations exist, *no action* leaves them pointing at nothing.
    ///
    /// - throws: ``StoreError`` with ``StoreError/Kind/invalidValue(entity:property:reason:)``
    ///   naming the relationship when a deny rule blocks the deletion. Run it inside a
    ///   transaction so a refusal leaves nothing half-deleted.
    public func delete(_ id: ObjectID) throws {
        var deleted: Set<ObjectID> = []
        try delete(id, alreadyDeleted: &deleted)
    }

    private func delete(_ id: ObjectID, alreadyDeleted deleted: inout Set<ObjectID>) throws {
        guard deleted.insert(id).inserted else { return }
        let entityLayout = try self.entityLayout(id.entity)
        guard let entity = layout.model[entity: id.entity] else {
            throw StoreError(path: path, kind: .unknownEntity(id.entity))
        }
        for relationship in layout.model.allRelationships(of: entity) where !relationship.isTransient {
            let destinations = try related(id, relationship.name)
            switch relationship.deletionRule {
            case .deny:
                if !destinations.isEmpty {
                    throw StoreError(
                        path: path,
                        kind: .invalidValue(
                            entity: id.entity, property: relationship.name,
                            reason: "deny rule: \(id) still has \(destinations.count) related object(s)"))
                }
            case .cascade:
                for destination in destinations where !deleted.contains(destination) {
                    try delete(destination, alreadyDeleted: &deleted)
                }
            case .nullify:
                for destination in destinations where !deleted.contains(destination) {
                    try unrelate(id, relationship.name, from: destination)
                }
            case .noAction:
                break
            }
            // Join rows belong to neither side; remove this object's. A hidden foreign key
            // (a to-many without inverse) is the join row's counterpart: clear it, with the
            // holder's Z_ENT and the position beside it.
            let relationshipLayout = entityLayout.relationship(named: relationship.name)
            if case .joinTable(let table, let sourceColumn, _, _) = relationshipLayout?.storage {
                try db.cachedStatement(
                    sql: "DELETE FROM \(qualified(table)) WHERE \(sourceColumn.quoted) = ?"
                ).execute(arguments: [id.primaryKey])
            } else if case .inverseForeignKey(let table, let column, let orderColumn) = relationshipLayout?.storage,
                relationshipLayout?.hasHiddenForeignKey == true
            {
                let cleared = [column, relationshipLayout?.hiddenEntityColumn, orderColumn].compactMap { $0 }
                let assignments = cleared.map { "\($0.quoted) = NULL" }.joined(separator: ", ")
                try db.cachedStatement(
                    sql:
                        "UPDATE \(qualified(table)) SET \(assignments), \"Z_OPT\" = \"Z_OPT\" + 1 WHERE \(column.quoted) = ?"
                ).execute(arguments: [id.primaryKey])
            }
        }
        try db.cachedStatement(
            sql: "DELETE FROM \(qualified(entityLayout.tableName)) WHERE \"Z_PK\" = ?"
        ).execute(arguments: [id.primaryKey])
    }
}
