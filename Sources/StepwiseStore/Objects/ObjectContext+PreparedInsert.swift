import GRDB
import StepwiseModel

/// An insert of one entity with a fixed list of attributes, prepared once: what a migration
/// step runs for every row of an entity mapping.
package struct PreparedInsert {
    /// The entity inserted.
    package let entity: String
    /// The attributes whose values ``ObjectContext/insert(_:values:)`` takes, in this order.
    package let attributes: [String]
    let entityNumber: Int
    let rootNumber: Int
    let rootName: String
    let statement: BoundStatement
}

extension ObjectContext {
    /// Prepares the insert of `entity` objects with values for `attributes`, in that order.
    ///
    /// - throws: ``StoreError`` for an unknown or abstract entity or an unknown attribute, as
    ///   ``insert(_:_:)`` does.
    package func prepareInsert(_ entity: String, attributes: [String]) throws -> PreparedInsert {
        let entityLayout = try self.entityLayout(entity)
        guard !entityLayout.isAbstract else {
            throw StoreError(
                path: path, kind: .invalidValue(entity: entity, property: "-", reason: "the entity is abstract"))
        }
        guard let root = layout.entity(named: entityLayout.rootName) else {
            throw StoreError(path: path, kind: .unknownEntity(entityLayout.rootName))
        }
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        for name in attributes {
            guard let attribute = entityLayout.attribute(named: name) else {
                throw StoreError(path: path, kind: .unknownProperty(entity: entity, property: name))
            }
            columns.append(attribute.column)
        }
        let statement = try BoundStatement(
            db.makeStatement(
                sql:
                    "INSERT INTO \(qualified(entityLayout.tableName)) (\(columns.map(\.quoted).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
            ))
        return PreparedInsert(
            entity: entity, attributes: attributes, entityNumber: entityLayout.number, rootNumber: root.number,
            rootName: root.name, statement: statement)
    }

    /// Inserts one object with `values` for the prepared attributes (stored values: a Date
    /// as seconds since 2001-01-01) and returns its id. `Z_PK`, `Z_ENT` and `Z_OPT` are set
    /// as ``insert(_:_:)`` sets them.
    package func insert(_ prepared: PreparedInsert, values: [DatabaseValue]) throws -> ObjectID {
        let primaryKey = try cache.primaryKeys.next(
            root: prepared.rootNumber, rootName: prepared.rootName, context: self)
        try prepared.statement.execute(primaryKey, Int64(prepared.entityNumber), 1, then: values)
        return ObjectID(entity: prepared.entity, primaryKey: primaryKey)
    }
}
