import GRDB

/// One row of `Z_PRIMARYKEY`: an entity's number, name, parent number and highest `Z_PK`.
///
/// Core Data writes a row for every entity, abstract ones included. `Z_MAX` is the highest
/// primary key handed out so far; it is only ever non-zero on root rows, because one
/// sequence serves a root's whole table.
package struct PrimaryKeyRow: Sendable, Hashable, CustomStringConvertible {
    /// `Z_ENT`.
    package var entityNumber: Int
    /// `Z_NAME`, the entity's name.
    package var name: String
    /// `Z_SUPER`, the parent's `Z_ENT`, 0 for roots.
    package var superNumber: Int
    /// `Z_MAX`.
    package var maximumPrimaryKey: Int64

    package init(entityNumber: Int, name: String, superNumber: Int, maximumPrimaryKey: Int64 = 0) {
        self.entityNumber = entityNumber
        self.name = name
        self.superNumber = superNumber
        self.maximumPrimaryKey = maximumPrimaryKey
    }

    package var description: String { "\(entityNumber) \(name) \(superNumber) (max \(maximumPrimaryKey))" }

    /// The row without its `Z_MAX`, for comparing layouts (Z_MAX depends on the data).
    package var ignoringMaximum: PrimaryKeyRow {
        PrimaryKeyRow(entityNumber: entityNumber, name: name, superNumber: superNumber)
    }

    /// Whether the row is one of Core Data's private entities' (persistent history, CloudKit
    /// mirroring: ``CoreDataPrivateTables``), which no model version lays out.
    package var isCoreDataPrivate: Bool {
        CoreDataPrivateTables.isPrivateEntityNumber(entityNumber)
    }

    /// Rows of a database's `Z_PRIMARYKEY`, in `Z_ENT` order.
    ///
    /// - parameters:
    ///   - db: A connection to the store.
    ///   - includingCoreDataPrivate: Whether the rows of Core Data's private entities
    ///     (``isCoreDataPrivate``) are read too; by default they are. Comparisons with a
    ///     layout's ``StoreLayout/primaryKeyRows`` leave them out.
    package static func readAll(from db: Database, includingCoreDataPrivate: Bool = true) throws -> [PrimaryKeyRow] {
        let condition = includingCoreDataPrivate ? "" : " WHERE \(CoreDataPrivateTables.modelEntityCondition)"
        let rows = try Row.fetchAll(
            db,
            sql: #"SELECT "Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX" FROM "Z_PRIMARYKEY""# + condition
                + #" ORDER BY "Z_ENT""#)
        return rows.map { row in
            PrimaryKeyRow(
                entityNumber: row[0] ?? 0, name: row[1] ?? "", superNumber: row[2] ?? 0,
                maximumPrimaryKey: row[3] ?? 0)
        }
    }

    /// Inserts this row into `Z_PRIMARYKEY`.
    package func insert(into db: Database) throws {
        try db.execute(
            sql: #"INSERT INTO "Z_PRIMARYKEY" ("Z_ENT", "Z_NAME", "Z_SUPER", "Z_MAX") VALUES (?, ?, ?, ?)"#,
            arguments: [entityNumber, name, superNumber, maximumPrimaryKey])
    }
}
