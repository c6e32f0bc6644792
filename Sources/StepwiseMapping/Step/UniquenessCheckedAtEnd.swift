import GRDB
import StepwiseModel
import StepwiseStore

/// The destination's uniqueness constraints, checked when the step ends rather than at each
/// statement.
///
/// Core Data checks uniqueness constraints when the migration's context saves: in between, a
/// policy may give one object the identifier another still holds, as long as that one moves
/// on before the end (`A.code = B.code; B.code = new`). SQLite checks a `UNIQUE` index at each
/// statement, so the rebuild drops the unique indexes of the destination's entity tables
/// (`Z_<Entity>_UNIQUE_…`, ``IndexLayout/Kind/uniquenessConstraint(entity:properties:)``)
/// before pass 1, and ``restore(_:)`` creates them again, from the statements that created
/// them, once every hook has run. An index that can't be created names the clash: the entity,
/// the properties, the shared value and the two source rows (``MappingError/Kind/notUnique(value:rows:)``).
///
/// Each dropped index is replaced, until then, by a plain index on the same columns: a policy
/// that fetches by an identifier (the usual way to find "the tag with this code") still finds it
/// through an index, not a scan per call. Pass 1's `INSERT … SELECT` builds that one after the
/// rows (``IndexesBuiltAfterInsert``), and ``restore(_:)`` sorts the unique one once.
///
/// Uniqueness constraints written inline in
/// `CREATE TABLE` (Core Data up to 1043, ``TableLayout/uniqueConstraintsAreInline``) can't be
/// dropped without rebuilding the table: those are still checked at each statement.
struct UniquenessCheckedAtEnd {
    private let dropped: [(layout: IndexLayout, sql: String)]

    /// Replaces the unique indexes of `layout`'s uniqueness constraints found in `db`'s main
    /// schema by their plain stand-ins.
    ///
    /// - parameters:
    ///   - db: The step's connection, the destination as `main`.
    ///   - layout: The destination's layout.
    ///   - tables: Only the indexes of these tables (compared without case), nil for all: a
    ///     step that keeps some tables as they are rewrites none of their rows, so their
    ///     indexes stay.
    init(_ db: Database, layout: StoreLayout, tables: Set<String>? = nil) throws {
        var dropped: [(IndexLayout, String)] = []
        let tables = tables.map { Set($0.map { $0.uppercased() }) }
        for index in layout.indexes where index.isUnique {
            if let tables, !tables.contains(index.table.uppercased()) { continue }
            guard
                let sql = try String.fetchOne(
                    db,
                    sql: """
                        SELECT "sql" FROM "main"."sqlite_master"
                        WHERE "type" = 'index' AND "name" = ? COLLATE NOCASE AND "sql" IS NOT NULL
                        """,
                    arguments: [index.name])
            else { continue }
            try db.execute(sql: "DROP INDEX \"main\".\(index.name.quotedSQLIdentifier)")
            try db.execute(
                sql: """
                    CREATE INDEX "main".\(Self.standInName(index).quotedSQLIdentifier)
                    ON \(index.table.quotedSQLIdentifier) (\(index.columns.map(\.quotedSQLIdentifier).joined(separator: ", ")))
                    """)
            dropped.append((index, sql))
        }
        self.dropped = dropped
    }

    /// The plain index that stands in for `index` during the passes.
    private static func standInName(_ index: IndexLayout) -> String { "stepwise_until_end_\(index.name)" }

    /// Creates the dropped indexes again, and drops their stand-ins; throws ``MappingError/Kind/notUnique(value:rows:)``
    /// for the first one whose constraint two objects break.
    func restore(_ manager: MigrationManager) throws {
        for (index, sql) in dropped {
            do {
                try manager.db.execute(sql: sql)
                try manager.db.execute(sql: "DROP INDEX \"main\".\(Self.standInName(index).quotedSQLIdentifier)")
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                guard case .uniquenessConstraint(let entity, let properties) = index.kind,
                    let clash = try manager.uniquenessClash(in: index.table, columns: index.columns)
                else { throw error }
                throw MappingError(
                    .notUnique(value: clash.value, rows: clash.rows), mappingModel: manager.currentMappingModel?.name,
                    entity: entity, property: properties.joined(separator: ", "))
            }
        }
    }
}

extension MigrationManager {
    /// The error naming the first clash of a uniqueness constraint of `layout` among the rows
    /// (after a `CREATE UNIQUE INDEX` failed); nil when the rows break none. Every constraint is
    /// queried: a failed statement of an unjournaled step may leave its index in the schema.
    func uniquenessError(in layout: StoreLayout) throws -> MappingError? {
        for index in layout.indexes {
            guard case .uniquenessConstraint(let entity, let properties) = index.kind,
                try db.tableExists(index.table, in: "main"),
                let clash = try uniquenessClash(in: index.table, columns: index.columns)
            else { continue }
            return MappingError(
                .notUnique(value: clash.value, rows: clash.rows), mappingModel: currentMappingModel?.name,
                entity: entity, property: properties.joined(separator: ", "))
        }
        return nil
    }

    /// The value of `columns` that two rows of `table` share (the one of the lowest `Z_PK`
    /// among the clashes), spelled for a message, and
    /// where those two rows came from; nil when every value is unique. Rows with a NULL in one
    /// of the columns don't clash (SQLite's `UNIQUE` treats NULLs as distinct).
    func uniquenessClash(in table: String, columns: [String]) throws -> (
        value: String, rows: [MappingError.RowOrigin]
    )? {
        let quotedTable = "\"main\".\(table.quotedSQLIdentifier)"
        let list = columns.map(\.quotedSQLIdentifier).joined(separator: ", ")
        let notNull = columns.map { "\($0.quotedSQLIdentifier) IS NOT NULL" }.joined(separator: " AND ")
        guard
            let shared = try Row.fetchOne(
                db,
                sql:
                    "SELECT \(list) FROM \(quotedTable) WHERE \(notNull) GROUP BY \(list) HAVING COUNT(*) > 1 ORDER BY MIN(\"Z_PK\") LIMIT 1"
            )
        else { return nil }
        let values = (0..<columns.count).map { shared[$0] as DatabaseValue }
        let equal = columns.map { "\($0.quotedSQLIdentifier) = ?" }.joined(separator: " AND ")
        let rows = try Row.fetchAll(
            db, sql: "SELECT \"Z_PK\", \"Z_ENT\" FROM \(quotedTable) WHERE \(equal) ORDER BY \"Z_PK\" LIMIT 2",
            arguments: StatementArguments(values))
        let origins = try rows.map { row in
            try origin(ofDestination: row["Z_PK"], entityNumber: row["Z_ENT"])
        }
        let spelled = values.map(Self.spell)
        let value = spelled.count == 1 ? spelled[0] : "(\(spelled.joined(separator: ", ")))"
        return (value, origins)
    }

    /// Where the destination row `key` of entity number `entityNumber` came from: the source
    /// row an entity mapping associated with it (the first, when a policy merged several), the
    /// row itself in an in-place step, or no source row.
    func origin(ofDestination key: Int64, entityNumber: Int) throws -> MappingError.RowOrigin {
        let entityName = destinationLayout.entity(number: entityNumber)?.name ?? "Z_ENT \(entityNumber)"
        var origin = MappingError.RowOrigin(destinationEntity: entityName, destinationPrimaryKey: key)
        for table in lookupTables {
            if let sourceKey = try Int64.fetchOne(
                db,
                sql:
                    "SELECT MIN(source_pk) FROM \(table.qualifiedName) WHERE destination_pk = ? AND destination_entity = ?",
                arguments: [key, entityNumber])
            {
                origin.entityMapping = table.mapping.name
                origin.sourceEntity = table.mapping.sourceEntity
                origin.sourcePrimaryKey = sourceKey
                return origin
            }
        }
        if keepsPrimaryKeys,
            let mapping = currentMappingModel?.entityMappings.first(where: {
                $0.destinationEntity == entityName && $0.sourceEntity != nil
            })
        {
            // An in-place step keeps every key: the destination row is the source row.
            origin.entityMapping = mapping.name
            origin.sourceEntity = mapping.sourceEntity
            origin.sourcePrimaryKey = key
        }
        return origin
    }

    /// A stored value as a message shows it: text quoted (cut after 60 characters), numbers as
    /// they are, a blob by its size.
    private static func spell(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "nil"
        case .int64(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text):
            let cut = text.count > 60 ? String(text.prefix(60)) + "…" : text
            return "\"\(cut)\""
        case .blob(let data): return "<\(data.count) bytes>"
        }
    }
}
