import GRDB
import GRDBSQLite

/// Streams ``StoredObject``s from a table, one row in memory at a time.
///
/// It is a GRDB `Cursor`: iterate with `while let object = try cursor.next()` or
/// `try cursor.forEach { … }`. Valid only inside the database access that created it.
public final class ObjectCursor: Cursor {
    private let rows: RowCursor
    private let layout: StoreLayout
    private let reader: StoredRowReader?
    /// The statement `rows` steps, read directly by ``object(at:layout:reader:)``.
    private let statement: Statement?
    /// Reads the real bytes of external-storage attributes (``ObjectContext/externalValuesDecoder``).
    private let decode: ((StoredObject) throws -> StoredObject)?

    init(
        rows: RowCursor, layout: StoreLayout, reader: StoredRowReader? = nil, statement: Statement? = nil,
        decode: ((StoredObject) throws -> StoredObject)? = nil
    ) {
        self.rows = rows
        self.layout = layout
        self.reader = reader
        self.statement = statement
        self.decode = decode
    }

    public func next() throws -> StoredObject? {
        guard let object = try nextStored() else { return nil }
        return try decode.map { try $0(object) } ?? object
    }

    private func nextStored() throws -> StoredObject? {
        guard let row = try rows.next() else { return nil }
        if let statement, let reader,
            let object = try Self.object(at: statement.sqliteStatement, layout: layout, reader: reader)
        {
            return object
        }
        return try Self.object(from: row, layout: layout, reader: reader)
    }

    /// The current row of `statement` (which the cursor has just stepped to) as a
    /// ``StoredObject``, its columns read with `DatabaseValue(sqliteStatement:index:)`: what
    /// GRDB reads for a statement's row, without its generic decoding per value. Nil when
    /// `Z_ENT` or `Z_PK` is not an integer, which ``object(from:layout:reader:)`` reports.
    static func object(at statement: SQLiteStatement, layout: StoreLayout, reader: StoredRowReader) throws
        -> StoredObject?
    {
        func value(_ position: Int) -> DatabaseValue {
            DatabaseValue(sqliteStatement: statement, index: CInt(position))
        }
        guard case .int64(let number) = value(reader.entityPosition).storage,
            case .int64(let primaryKey) = value(reader.primaryKeyPosition).storage
        else { return nil }
        guard let entity = reader.loneEntity ?? layout.entity(number: Int(number)) else {
            throw StoreError(
                path: "store",
                kind: .schemaMismatch("row \(primaryKey) has Z_ENT \(number), which the model doesn't have"))
        }
        let properties = reader.properties(of: entity)
        var values: [String: DatabaseValue] = Dictionary(minimumCapacity: properties.count)
        for (name, position) in properties {
            values[name] = position >= 0 ? value(position) : .null
        }
        let version = reader.versionPosition.flatMap { Int64.fromDatabaseValue(value($0)) } ?? 0
        return StoredObject(id: ObjectID(entity: entity.name, primaryKey: primaryKey), values: values, version: version)
    }

    /// Reads one row into a ``StoredObject``. The row's values are copied out immediately,
    /// because GRDB reuses a cursor's row for the next step.
    ///
    /// With a `reader` (the row's column positions, found once per statement) columns are
    /// read by position; without one, by name.
    static func object(from row: Row, layout: StoreLayout, reader: StoredRowReader? = nil) throws -> StoredObject {
        let number: Int
        let primaryKey: Int64
        if let reader {
            number = row[reader.entityPosition]
            primaryKey = row[reader.primaryKeyPosition]
        } else {
            number = row["Z_ENT"]
            primaryKey = row["Z_PK"]
        }
        guard let entity = reader?.loneEntity ?? layout.entity(number: number) else {
            throw StoreError(
                path: "store",
                kind: .schemaMismatch("row \(primaryKey) has Z_ENT \(number), which the model doesn't have"))
        }
        var values: [String: DatabaseValue] = [:]
        let version: Int64
        if let reader {
            let properties = reader.properties(of: entity)
            values.reserveCapacity(properties.count)
            for (name, position) in properties {
                values[name] = position >= 0 ? row[position] as DatabaseValue : .null
            }
            version = reader.versionPosition.flatMap { row[$0] as Int64? } ?? 0
        } else {
            for attribute in entity.attributes {
                values[attribute.name] = row[attribute.column] as DatabaseValue? ?? .null
            }
            for relationship in entity.relationships {
                if let column = relationship.foreignKeyColumn {
                    values[relationship.name] = row[column] as DatabaseValue? ?? .null
                }
            }
            version = row["Z_OPT"] ?? 0
        }
        return StoredObject(id: ObjectID(entity: entity.name, primaryKey: primaryKey), values: values, version: version)
    }
}
