import GRDB

/// Streams ``StoredObject``s from a table, one row in memory at a time.
///
/// It is a GRDB `Cursor`: iterate with `while let object = try cursor.next()` or
/// `try cursor.forEach { … }`. Valid only inside the database access that created it.
public final class ObjectCursor: Cursor {
    private let rows: RowCursor
    private let layout: StoreLayout

    init(rows: RowCursor, layout: StoreLayout) {
        self.rows = rows
        self.layout = layout
    }

    public func next() throws -> StoredObject? {
        guard let row = try rows.next() else { return nil }
        return try Self.object(from: row, layout: layout)
    }

    /// Reads one row into a ``StoredObject``. The row's values are copied out immediately,
    /// because GRDB reuses a cursor's row for the next step.
    static func object(from row: Row, layout: StoreLayout) throws -> StoredObject {
        let number: Int = row["Z_ENT"]
        let primaryKey: Int64 = row["Z_PK"]
        guard let entity = layout.entity(number: number) else {
            throw StoreError(
                path: "store",
                kind: .schemaMismatch("row \(primaryKey) has Z_ENT \(number), which the model doesn't have"))
        }
        var values: [String: DatabaseValue] = [:]
        for attribute in entity.attributes {
            values[attribute.name] = row[attribute.column] as DatabaseValue? ?? .null
        }
        for relationship in entity.relationships {
            if let column = relationship.foreignKeyColumn {
                values[relationship.name] = row[column] as DatabaseValue? ?? .null
            }
        }
        let version: Int64 = row["Z_OPT"] ?? 0
        return StoredObject(id: ObjectID(entity: entity.name, primaryKey: primaryKey), values: values, version: version)
    }
}
