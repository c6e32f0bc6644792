/// One table of a Core Data SQLite store: an entity hierarchy's table, a many-to-many join
/// table or one of the bookkeeping tables.
///
/// The columns are in the order Core Data writes them; SQLite doesn't care, and the schema
/// comparison (``SQLiteSchema``) ignores the order.
package struct TableLayout: Sendable, Hashable {
    /// What the table stores.
    package enum Kind: Sendable, Hashable {
        /// The rows of a root entity and all its subentities, told apart by `Z_ENT`.
        case entity(root: String)
        /// The pairs of a to-many relationship without a to-one inverse; `entity` declares
        /// `relationship`, the side whose Z_ENT names the table.
        case join(entity: String, relationship: String)
        /// `Z_PRIMARYKEY` or `Z_METADATA`.
        case bookkeeping
    }

    /// The table's name, e.g. `ZATRECORD` or `Z_6DISPLAYTYPES`.
    package var name: String
    package var kind: Kind
    /// The columns, in Core Data's order.
    package var columns: [ColumnLayout]
    /// The primary key's columns: `[Z_PK]` for entity tables, both member columns for join tables.
    package var primaryKey: [String]
    /// The uniqueness constraints of the entities stored in the table.
    package var uniqueConstraints: [UniqueConstraintLayout]
    /// The Z_ENT values stored in the table (entity tables only), in Z_ENT order.
    package var entityNumbers: [Int]
    /// Whether ``uniqueConstraints`` are table constraints in ``createStatement`` (Core Data up to
    /// 1043) rather than unique indexes among the layout's indexes (1044 and later,
    /// ``CoreDataRelease``).
    package var uniqueConstraintsAreInline = true

    /// The column with this name (case-insensitive, as in SQLite).
    package func column(named name: String) -> ColumnLayout? {
        let key = name.uppercased()
        return columns.first { $0.name.uppercased() == key }
    }

    /// The names of all columns, in order.
    package var columnNames: [String] { columns.map(\.name) }

    /// The `CREATE TABLE` statement, every identifier quoted.
    ///
    /// A single INTEGER primary key is written inline (`"Z_PK" INTEGER PRIMARY KEY`), which
    /// makes it SQLite's rowid alias exactly as in Core Data's own stores.
    package var createStatement: String {
        let inlinePrimaryKey: String? =
            primaryKey.count == 1 && column(named: primaryKey[0])?.type == ColumnType.integer.rawValue
            ? primaryKey[0] : nil
        var parts = columns.map { column in
            var definition = SQLIdentifier.quote(column.name) + " " + column.type
            if column.name == inlinePrimaryKey { definition += " PRIMARY KEY" }
            return definition
        }
        if inlinePrimaryKey == nil && !primaryKey.isEmpty {
            parts.append("PRIMARY KEY (\(SQLIdentifier.quoteList(primaryKey)))")
        }
        for constraint in uniqueConstraints where uniqueConstraintsAreInline {
            parts.append(
                "CONSTRAINT \(SQLIdentifier.quote(constraint.name)) UNIQUE (\(SQLIdentifier.quoteList(constraint.columns)))"
            )
        }
        return "CREATE TABLE \(SQLIdentifier.quote(name)) ( \(parts.joined(separator: ", ")) )"
    }
}

/// A uniqueness constraint, written as a table constraint `CONSTRAINT <C1>_<C2> UNIQUE (<C1>, <C2>)`
/// or as a unique index, depending on the release (``CoreDataRelease``).
package struct UniqueConstraintLayout: Sendable, Hashable {
    /// The constraint's name: its columns joined with `_`.
    package var name: String
    /// The constrained columns, in the model's order.
    package var columns: [String]
    /// The entity that declares the constraint.
    package var entity: String
    /// The constrained properties, in the model's order.
    package var properties: [String]
}
