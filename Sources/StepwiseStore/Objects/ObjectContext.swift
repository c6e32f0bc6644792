import Foundation
import GRDB
import StepwiseModel

/// Reads and writes objects in a Core Data-layout store, for tests, migration policies and apps.
///
/// An `ObjectContext` works inside a GRDB `Database` you already hold, so it joins your
/// transaction: nothing is committed until the surrounding `write` block returns.
///
/// ```swift
/// try queue.write { db in
///     let objects = ObjectContext(db, layout: layout)
///     let chef = try objects.insert("Chef", ["name": "Miguel Sanchez"])
///     let recipe = try objects.insert("Recipe", ["name": "Mole", "chef": chef])
///     let mexican = try objects.count("Recipe", where: .equal("cuisine", "Mexican"))
/// }
/// ```
///
/// Bookkeeping follows Core Data: new primary keys come from the root entity's `Z_MAX` in
/// `Z_PRIMARYKEY` (one sequence per table), `Z_ENT` records the concrete entity, and `Z_OPT`
/// starts at 1 and grows by one on every update.
///
/// Fetching never loads a whole table: ``cursor(_:where:includingSubentities:)`` streams rows.
///
/// Per-object statements are prepared once and kept (`ObjectContextCache`): their SQL
/// depends only on the entity and the property names, never on values, which are bound. A
/// migration policy calls them once per row, and building their SQL text dominated the cost.
public struct ObjectContext {
    /// The connection, inside the caller's transaction.
    public let db: Database
    /// The store's layout.
    package let layout: StoreLayout

    /// The schema the store is in: `main`, or the name it was attached under
    /// (a migration step attaches its source as `src`).
    public let schemaName: String

    /// The named value transformers of Transformable attributes: a ``TransformableValue``
    /// written to such an attribute is archived with its transformer.
    public let valueTransformers: ValueTransformerRegistry

    /// Where the values of external-storage attributes that live in files are read from
    /// (``ExternalDataFolder``); nil for the folder beside the store's own file. A migration
    /// step reading a copy of a store names the folder beside the original.
    package var externalData: ExternalDataFolder?

    /// Prepared statements, resolved layouts and primary-key reservations, shared by copies.
    let cache = ObjectContextCache()

    /// - parameters:
    ///   - db: A connection, inside the caller's transaction.
    ///   - layout: The store's layout.
    ///   - schemaName: `main` (the default), or the name the store was attached under.
    ///   - valueTransformers: The transformers named by Transformable attributes that don't
    ///     store keyed archives; none by default.
    package init(
        _ db: Database, layout: StoreLayout, schemaName: String = "main",
        valueTransformers: ValueTransformerRegistry = ValueTransformerRegistry()
    ) {
        self.db = db
        self.layout = layout
        self.schemaName = schemaName
        self.valueTransformers = valueTransformers
    }

    /// A context that reserves primary keys `primaryKeyBatch` at a time (see
    /// ``flushReservedPrimaryKeys()``): for a migration step's destination, which flushes
    /// before anything reads `Z_MAX` in SQL.
    package init(
        _ db: Database, layout: StoreLayout, schemaName: String = "main", primaryKeyBatch: Int,
        valueTransformers: ValueTransformerRegistry = ValueTransformerRegistry()
    ) {
        self.init(db, layout: layout, schemaName: schemaName, valueTransformers: valueTransformers)
        cache.primaryKeys.batchSize = Int64(max(1, primaryKeyBatch))
    }

    /// Gives back the primary keys reserved and not used, so that each `Z_MAX` is the last key
    /// used. Only a context made with a `primaryKeyBatch` reserves any.
    package func flushReservedPrimaryKeys() throws {
        try cache.primaryKeys.flush(in: self)
    }

    /// The statement `key` names, prepared from `sql()` the first time only.
    func statement(_ key: ObjectContextCache.StatementKey, _ sql: () -> String) throws -> Statement {
        if let statement = cache.statements[key] { return statement }
        let statement = try db.makeStatement(sql: sql())
        cache.statements[key] = statement
        return statement
    }

    /// A table name qualified by the store's schema, both quoted: `"src"."ZCHEF"`.
    func qualified(_ table: String) -> String {
        "\(schemaName.quoted).\(table.quoted)"
    }

    var path: String { db.configuration.label ?? "store" }

    // MARK: Insert and update

    /// Inserts an object and returns its id.
    ///
    /// - parameters:
    ///   - entity: A concrete (non-abstract) entity.
    ///   - values: Attribute values, and to-one relationships given as ``ObjectID``s.
    ///     Each attribute's value must have its ``AttributeValueForm``: a `Date` for a Date
    ///     attribute is stored as seconds since 2001-01-01, a `UUID` as its 16 bytes, a `URL`
    ///     as its text, and a ``TransformableValue`` is archived with the attribute's transformer.
    /// - throws: ``StoreError/Kind/wrongValueForm(entity:property:expected:given:)`` for a value
    ///   of the wrong form.
    public func insert(_ entity: String, _ values: [String: (any DatabaseValueConvertible)?] = [:]) throws -> ObjectID {
        let entityLayout = try self.entityLayout(entity)
        guard !entityLayout.isAbstract else {
            throw StoreError(
                path: path, kind: .invalidValue(entity: entity, property: "-", reason: "the entity is abstract"))
        }
        let primaryKey = try nextPrimaryKey(for: entityLayout)
        let id = ObjectID(entity: entity, primaryKey: primaryKey)
        var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
        var arguments: [DatabaseValue] = [primaryKey.databaseValue, entityLayout.number.databaseValue, 1.databaseValue]
        var relationships: [(String, ObjectID?)] = []
        var properties: [String] = []
        for (property, value) in values.sorted(by: { $0.key < $1.key }) {
            if let attribute = entityLayout.attribute(named: property) {
                columns.append(attribute.column)
                properties.append(property)
                arguments.append(try storedValue(value, for: attribute, entity: entity))
            } else if entityLayout.relationship(named: property) != nil {
                relationships.append((property, try objectID(value, entity: entity, property: property)))
            } else {
                throw StoreError(path: path, kind: .unknownProperty(entity: entity, property: property))
            }
        }
        try statement(.init(operation: .insert, entity: entity, properties: properties)) {
            "INSERT INTO \(qualified(entityLayout.tableName)) (\(columns.map(\.quoted).joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        }.execute(arguments: StatementArguments(values: arguments))
        for (name, destination) in relationships {
            if let destination {
                try relate(id, name, to: destination)
            }
        }
        return id
    }

    /// Sets attribute values (and to-one relationships) and bumps `Z_OPT`.
    ///
    /// - parameters:
    ///   - id: The object to update.
    ///   - values: As for ``insert(_:_:)``; a relationship's nil clears it.
    /// - throws: ``StoreError/Kind/wrongValueForm(entity:property:expected:given:)`` for a value
    ///   of the wrong form, ``StoreError/Kind/rowNotFound(entity:primaryKey:)`` when there is no such object.
    public func update(_ id: ObjectID, _ values: [String: (any DatabaseValueConvertible)?]) throws {
        let entityLayout = try self.entityLayout(id.entity)
        var assignments = ["\"Z_OPT\" = \"Z_OPT\" + 1"]
        var arguments: [DatabaseValue] = []
        var relationships: [(String, ObjectID?)] = []
        var properties: [String] = []
        for (property, value) in values.sorted(by: { $0.key < $1.key }) {
            if let attribute = entityLayout.attribute(named: property) {
                assignments.append("\(attribute.column.quoted) = ?")
                properties.append(property)
                arguments.append(try storedValue(value, for: attribute, entity: id.entity))
            } else if entityLayout.relationship(named: property) != nil {
                relationships.append((property, try objectID(value, entity: id.entity, property: property)))
            } else {
                throw StoreError(path: path, kind: .unknownProperty(entity: id.entity, property: property))
            }
        }
        arguments.append(id.primaryKey.databaseValue)
        try statement(.init(operation: .update, entity: id.entity, properties: properties)) {
            "UPDATE \(qualified(entityLayout.tableName)) SET \(assignments.joined(separator: ", ")) WHERE \"Z_PK\" = ?"
        }.execute(arguments: StatementArguments(values: arguments))
        guard db.changesCount == 1 else {
            throw StoreError(path: path, kind: .rowNotFound(entity: id.entity, primaryKey: id.primaryKey))
        }
        for (name, destination) in relationships {
            try setToOne(id, name, to: destination)
        }
    }

    // MARK: Fetch

    /// Streams the objects of an entity (and, by default, its subentities) matching `predicate`,
    /// in primary-key order. Only one row is in memory at a time.
    public func cursor(
        _ entity: String, where predicate: ObjectPredicate? = nil, includingSubentities: Bool = true
    ) throws -> ObjectCursor {
        let entityLayout = try self.entityLayout(entity)
        let (condition, arguments) = try whereClause(
            entityLayout, predicate, includingSubentities: includingSubentities)
        let statement = try db.makeStatement(
            sql: "SELECT * FROM \(qualified(entityLayout.tableName)) WHERE \(condition) ORDER BY \"Z_PK\"")
        let rows = try Row.fetchCursor(statement, arguments: StatementArguments(values: arguments))
        return ObjectCursor(
            rows: rows, layout: layout,
            reader: StoredRowReader(
                columnNames: statement.columnNames, loneEntity: layout.loneEntity(ofTable: entityLayout.tableName)),
            statement: statement, decode: externalValuesDecoder)
    }

    /// All matching objects in an array: for small results. Use ``cursor(_:where:includingSubentities:)`` for tables.
    public func fetch(
        _ entity: String, where predicate: ObjectPredicate? = nil, includingSubentities: Bool = true
    ) throws -> [StoredObject] {
        try Array(cursor(entity, where: predicate, includingSubentities: includingSubentities))
    }

    /// The number of matching objects, counted by SQLite.
    public func count(
        _ entity: String, where predicate: ObjectPredicate? = nil, includingSubentities: Bool = true
    ) throws -> Int {
        let entityLayout = try self.entityLayout(entity)
        let (condition, arguments) = try whereClause(
            entityLayout, predicate, includingSubentities: includingSubentities)
        return try Int.fetchOne(
            db.cachedStatement(sql: "SELECT COUNT(*) FROM \(qualified(entityLayout.tableName)) WHERE \(condition)"),
            arguments: StatementArguments(values: arguments)) ?? 0
    }

    /// The object with this id.
    /// - throws: ``StoreError/Kind/rowNotFound(entity:primaryKey:)`` when there is none.
    public func object(_ id: ObjectID) throws -> StoredObject {
        let entityLayout = try self.entityLayout(id.entity)
        let statement = try statement(.init(operation: .object, entity: id.entity, properties: [])) {
            "SELECT * FROM \(qualified(entityLayout.tableName)) WHERE \"Z_PK\" = ?"
                + (entityLayout.kindOfCondition.map { " AND \($0)" } ?? "")
        }
        guard let row = try Row.fetchOne(statement, arguments: [id.primaryKey]) else {
            throw StoreError(path: path, kind: .rowNotFound(entity: id.entity, primaryKey: id.primaryKey))
        }
        let reader = try rowReader(for: statement, table: entityLayout.tableName)
        let object = try ObjectCursor.object(from: row, layout: layout, reader: reader)
        return try externalValuesDecoder.map { try $0(object) } ?? object
    }

    // MARK: Helpers

    func entityLayout(_ name: String) throws -> EntityLayout {
        guard let entityLayout = layout.entity(named: name) else {
            throw StoreError(path: path, kind: .unknownEntity(name))
        }
        return entityLayout
    }

    /// The column positions of `SELECT *` rows of `table`, found once.
    func rowReader(for statement: Statement, table: String) throws -> StoredRowReader? {
        if let reader = cache.rowReaders[table] { return reader }
        let reader = StoredRowReader(columnNames: statement.columnNames, loneEntity: layout.loneEntity(ofTable: table))
        cache.rowReaders[table] = reader
        return reader
    }

    /// Allocates the next `Z_PK` of the entity's table from its root's `Z_PRIMARYKEY.Z_MAX`
    /// (``PrimaryKeyAllocator``).
    func nextPrimaryKey(for entity: EntityLayout) throws -> Int64 {
        guard let root = layout.entity(named: entity.rootName) else {
            throw StoreError(path: path, kind: .unknownEntity(entity.rootName))
        }
        return try cache.primaryKeys.next(root: root.number, rootName: root.name, context: self)
    }

    func whereClause(_ entity: EntityLayout, _ predicate: ObjectPredicate?, includingSubentities: Bool) throws
        -> (String, [DatabaseValue])
    {
        // Every row of a lone entity's table is its own, whatever its Z_ENT, as Core Data reads it.
        var condition =
            (includingSubentities ? entity.kindOfCondition : entity.ownRowsCondition()) ?? "1"
        var arguments: [DatabaseValue] = []
        if let predicate {
            let (sql, values) = try predicate.sql { property in
                guard let column = entity.column(for: property) else {
                    throw StoreError(path: path, kind: .unknownProperty(entity: entity.name, property: property))
                }
                return column.quoted
            }
            condition += " AND (\(sql))"
            arguments = values
        }
        return (condition, arguments)
    }

    /// The column value of `value` for `attribute`, in the attribute's ``AttributeValueForm``.
    func storedValue(_ value: (any DatabaseValueConvertible)?, for attribute: AttributeLayout, entity: String) throws
        -> DatabaseValue
    {
        let stored = try formValue(value, for: attribute, entity: entity)
        return layout.storesExternally(attribute) ? Self.inlineColumnValue(stored) : stored
    }

    /// `value` converted to the attribute's ``AttributeValueForm``; NULL for nil.
    func formValue(_ value: (any DatabaseValueConvertible)?, for attribute: AttributeLayout, entity: String)
        throws -> DatabaseValue
    {
        guard let value else { return .null }
        let transformerName =
            attribute.type == .transformable
            ? layout.model[entity: attribute.declaringEntity]?.attribute(named: attribute.name)?.valueTransformerName
            : nil
        let form = AttributeValueForm(attribute.type, transformerName: transformerName)
        let given: DatabaseValue
        switch value {
        case let object as TransformableValue where attribute.type == .transformable:
            if case .null = object { return .null }
            do {
                given = try valueTransformers.data(for: object, transformerName: transformerName).databaseValue
            } catch {
                throw StoreError(
                    path: path, kind: .invalidValue(entity: entity, property: attribute.name, reason: error.reason))
            }
        case is TransformableValue:
            throw StoreError(
                path: path,
                kind: .wrongValueForm(
                    entity: entity, property: attribute.name, expected: form, given: "a TransformableValue"))
        case let date as Date:
            guard attribute.type == .date else {
                throw StoreError(
                    path: path,
                    kind: .wrongValueForm(entity: entity, property: attribute.name, expected: form, given: "a Date"))
            }
            return date.timeIntervalSinceReferenceDate.databaseValue
        case let uuid as UUID:
            given = withUnsafeBytes(of: uuid.uuid) { Data($0) }.databaseValue
        case let url as URL:
            given = url.absoluteString.databaseValue
        case let decimal as Decimal:
            // GRDB stores a Decimal as text; Core Data's Decimal column holds a number.
            given = NSDecimalNumber(decimal: decimal).doubleValue.databaseValue
        default:
            given = value.databaseValue
        }
        guard let stored = form.stored(given) else {
            throw StoreError(
                path: path,
                kind: .wrongValueForm(
                    entity: entity, property: attribute.name, expected: form,
                    given: AttributeValueForm.describe(given)))
        }
        return stored
    }

    func objectID(_ value: (any DatabaseValueConvertible)?, entity: String, property: String) throws -> ObjectID? {
        guard let value else { return nil }
        guard let id = value as? ObjectID else {
            throw StoreError(
                path: path,
                kind: .invalidValue(entity: entity, property: property, reason: "a relationship takes an ObjectID"))
        }
        return id
    }
}

extension ObjectID: DatabaseValueConvertible {
    /// An ObjectID is stored as its primary key (what a foreign-key column holds).
    public var databaseValue: DatabaseValue { primaryKey.databaseValue }

    /// Not decodable from a bare primary key: the entity is unknown. Always nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> ObjectID? { nil }
}

extension String {
    /// The string as a quoted SQL identifier: model names come from files and may be keywords.
    var quoted: String { quotedSQLIdentifier }
}
