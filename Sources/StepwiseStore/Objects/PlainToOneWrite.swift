import GRDB
import StepwiseModel

/// The write of a to-one relationship that is only its foreign key: no order column, and an
/// inverse that is a to-many or absent. ``ObjectContext/setToOne(_:_:to:)`` then needs
/// neither the previous destination nor the other side (its general path reads and writes
/// them only for ordered inverses and one-to-ones), so the write is one prepared update,
/// resolved once per (entity, relationship): the statement the general path runs in that
/// case, with the same `Z_OPT` bump and the same check that the row exists.
final class PlainToOneWrite {
    private let statement: BoundStatement
    /// Whether the destination's `Z_ENT` is stored too (the destination has subentities).
    private let writesEntity: Bool

    init(statement: BoundStatement, writesEntity: Bool) {
        self.statement = statement
        self.writesEntity = writesEntity
    }

    func write(_ id: ObjectID, to destination: ObjectID?, in context: ObjectContext) throws {
        if writesEntity {
            let number = try destination.map { Int64(try context.entityLayout($0.entity).number) }
            try statement.execute(destination?.primaryKey, number, id.primaryKey)
        } else {
            try statement.execute(destination?.primaryKey, id.primaryKey)
        }
        guard context.db.changesCount == 1 else {
            throw StoreError(path: context.path, kind: .rowNotFound(entity: id.entity, primaryKey: id.primaryKey))
        }
    }
}

extension ObjectContext {
    /// The plain write of `relationship` of `entity` objects, made on first use; nil when the
    /// relationship needs the general path (or isn't a to-one: the general path reports it).
    func plainToOneWrite(_ entity: String, _ relationship: String) throws -> PlainToOneWrite? {
        let key = ObjectContextCache.RelationshipKey(entity: entity, relationship: relationship)
        if let known = cache.plainToOneWrites[key] { return known }
        var plain: PlainToOneWrite?
        if let (source, info) = try? relationshipLayout(entity, relationship),
            case .foreignKey(let column, let entityColumn, .none) = info.storage,
            info.inverse.map({ inverseIsToManyOrAbsent(info, inverse: $0) }) ?? true
        {
            var assignments = ["\(column.quoted) = ?", "\"Z_OPT\" = \"Z_OPT\" + 1"]
            if let entityColumn { assignments.append("\(entityColumn.quoted) = ?") }
            let statement = try db.makeStatement(
                sql:
                    "UPDATE \(qualified(source.tableName)) SET \(assignments.joined(separator: ", ")) WHERE \"Z_PK\" = ?"
            )
            plain = PlainToOneWrite(statement: try BoundStatement(statement), writesEntity: entityColumn != nil)
        }
        cache.plainToOneWrites[key] = .some(plain)
        return plain
    }

    /// Whether `inverse` (of the to-one `info`) has no foreign key of its own: the negation
    /// of the general path's `hasInverseForeignKey`, which also counts an unresolvable
    /// inverse as having one (and so takes the general path for it).
    private func inverseIsToManyOrAbsent(_ info: RelationshipLayout, inverse: String) -> Bool {
        guard let inverseInfo = try? relationshipLayout(info.destination, inverse).1 else { return false }
        return inverseInfo.foreignKeyColumn == nil
    }
}
