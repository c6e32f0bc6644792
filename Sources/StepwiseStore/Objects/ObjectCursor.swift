import GRDB

/// Streams ``StoredObject``s from a table, one row in memory at a time.
///
/// It is a GRDB `Cursor`: iterate with `while let object = try cursor.next()` or
/// `try cursor.forEach { … }`. Valid only inside the database access that created it.
public final class ObjectCursor: Cursor {
    private let rows: RowCursor
    private let layout: StoreLayout
    private let reader: StoredRowReader?

    init(rows: RowCursor, layout: StoreLayout, reader: StoredRowReader? = nil) {
        self.rows = rows
        self.layout = layout
        self.reader = reader
    }

    public func next() throws -> StoredObject? {
        guard let row = try rows.next() else { return nil }
        return try Self.object(from: row, layout: layout, reader: reader)
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
        guard let entity = layout.entity(number: number) else {
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
