import GRDB
import StepwiseModel

/// An insert of one entity with a fixed list of attributes, prepared once: what a migration
/// step runs for every row of an entity mapping.
package struct PreparedInsert {
    /// The entity inserted.
    package let entity: String
    /// The attributes whose values ``ObjectContext/insert(_:values:toOne:)`` takes, in this order.
    package let attributes: [String]
    /// The to-one relationships whose destinations it takes, in this order: plain foreign
    /// keys (``PlainToOneWrite``), written in the row instead of by an update after it.
    package let toOne: [String]
    /// Per to-one: whether the destination's `Z_ENT` is stored too.
    let toOneWritesEntity: [Bool]
    let entityNumber: Int
    let rootNumber: Int
    let rootName: String
    let statement: BoundStatement
    /// The positions in `attributes` of external-storage attributes, whose values are written
    /// with the inline marker (``ExternalBinaryValue``).
    var externalPositions: [Int] = []
    /// The layouts of `attributes`, in their order.
    var attributeLayouts: [AttributeLayout] = []
}

extension ObjectContext {
    /// Prepares the insert of `entity` objects with values for `attributes`, in that order.
    ///
    /// - throws: ``StoreError`` for an unknown or abstract entity or an unknown attribute, as
    ///   ``insert(_:_:)`` does.
    package func prepareInsert(_ entity: String, attributes: [String]) throws -> PreparedInsert {
        guard let prepared = try prepareInsert(entity, attributes: attributes, toOne: []) else {
            // Not reachable: only a to-one relationship makes it nil.
            throw StoreError(path: path, kind: .unknownEntity(entity))
        }
        return prepared
    }

    /// Prepares the insert of `entity` objects with values for `attributes` and destinations
    /// for the to-one relationships `toOne`, in that order.
    ///
    /// - returns: nil when a relationship of `toOne` is not a plain foreign key (it has an
    ///   order column, or its inverse is a to-one): ``setToOne(_:_:to:)`` must write it.
    /// - throws: ``StoreError`` for an unknown or abstract entity or an unknown attribute, as
    ///   ``insert(_:_:)`` does.
    package func prepareInsert(_ entity: String, attributes: [String], toOne: [String]) throws
        -> PreparedInsert?
    {
        let entityLayout = try self.entityLayout(entity)
        guard !entityLayout.isAbstract else {
            throw StoreError(
                path: path, kind: .invalidValue(entity: entity, property: "-", reason: "the entity is abstract"))
        }
        guard let root = layout.entity(named: entityLayout.rootName) else {
            throw StoreError(path: path, kind: .unknownEntity(entityLayout.rootName))
        }
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var attributeLayouts: [AttributeLayout] = []
        for name in attributes {
            guard let attribute = entityLayout.attribute(named: name) else {
                throw StoreError(path: path, kind: .unknownProperty(entity: entity, property: name))
            }
            columns.append(attribute.column)
            attributeLayouts.append(attribute)
        }
        var writesEntity: [Bool] = []
        for name in toOne {
            guard try plainToOneWrite(entity, name) != nil,
                case .foreignKey(let column, let entityColumn, _) = try relationshipLayout(entity, name).1.storage
            else { return nil }
            columns.append(column)
            if let entityColumn { columns.append(entityColumn) }
            writesEntity.append(entityColumn != nil)
        }
        let statement = try BoundStatement(
            db.makeStatement(
                sql:
                    "INSERT INTO \(qualified(entityLayout.tableName)) (\(columns.map(\.quoted).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
            ))
        return PreparedInsert(
            entity: entity, attributes: attributes, toOne: toOne, toOneWritesEntity: writesEntity,
            entityNumber: entityLayout.number, rootNumber: root.number, rootName: root.name, statement: statement,
            externalPositions: attributeLayouts.indices.filter { layout.storesExternally(attributeLayouts[$0]) },
            attributeLayouts: attributeLayouts)
    }

    /// `value` for the prepared attribute at `position`, converted as ``insert(_:_:)``
    /// converts a value it is given (a `Date` to seconds since 2001-01-01, a
    /// ``TransformableValue`` archived…): what ``insert(_:values:toOne:)`` takes.
    ///
    /// - throws: ``StoreError/Kind/wrongValueForm(entity:property:expected:given:)`` for a value
    ///   of the wrong form; ``StoreError/Kind/invalidValue(entity:property:reason:)`` for a
    ///   position out of range or a value its transformer can't archive.
    package func preparedValue(
        _ value: (any DatabaseValueConvertible)?, at position: Int, of prepared: PreparedInsert
    ) throws -> DatabaseValue {
        guard prepared.attributeLayouts.indices.contains(position) else {
            throw StoreError(
                path: path,
                kind: .invalidValue(
                    entity: prepared.entity, property: "-",
                    reason: "attribute \(position) of \(prepared.attributes.count) prepared"))
        }
        return try formValue(value, for: prepared.attributeLayouts[position], entity: prepared.entity)
    }

    /// Inserts one object with `values` for the prepared attributes (stored values: a Date
    /// as seconds since 2001-01-01) and `toOne` for its to-one relationships, and returns its
    /// id. `Z_PK`, `Z_ENT` and `Z_OPT` are set as ``insert(_:_:)`` sets them.
    package func insert(_ prepared: PreparedInsert, values: [DatabaseValue], toOne: [ObjectID?] = []) throws
        -> ObjectID
    {
        let primaryKey = try cache.primaryKeys.next(
            root: prepared.rootNumber, rootName: prepared.rootName, context: self)
        var values = values
        for position in prepared.externalPositions where position < values.count {
            values[position] = Self.inlineColumnValue(values[position])
        }
        guard !toOne.isEmpty || !prepared.toOne.isEmpty else {
            try prepared.statement.execute(primaryKey, Int64(prepared.entityNumber), 1, then: values)
            return ObjectID(entity: prepared.entity, primaryKey: primaryKey)
        }
        guard toOne.count == prepared.toOne.count else {
            throw StoreError(
                path: path,
                kind: .invalidValue(
                    entity: prepared.entity, property: prepared.toOne.joined(separator: ", "),
                    reason: "\(toOne.count) destinations for \(prepared.toOne.count) relationships"))
        }
        var all = values
        for (destination, writesEntity) in zip(toOne, prepared.toOneWritesEntity) {
            all.append(destination?.primaryKey.databaseValue ?? .null)
            if writesEntity {
                all.append(try destination.map { try entityLayout($0.entity).number.databaseValue } ?? .null)
            }
        }
        try prepared.statement.execute(primaryKey, Int64(prepared.entityNumber), 1, then: all)
        return ObjectID(entity: prepared.entity, primaryKey: primaryKey)
    }
}
