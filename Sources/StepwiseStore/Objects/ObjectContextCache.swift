import GRDB
import StepwiseModel

/// What an ``ObjectContext`` keeps between calls: its prepared statements and resolved
/// layouts, and its primary-key reservations.
///
/// A migration policy calls the context once per row; building and hashing each
/// statement's SQL text on every call took most of the row loop's time. Statements are
/// prepared once per (operation, entity, property) and kept here. Their SQL depends only on
/// the layout, which never changes for a context, so a kept statement is the one a call
/// would build. Copies of a context share one cache (it is a class).
final class ObjectContextCache {
    /// Which statement of an entity (and property) a ``StatementKey`` names.
    enum Operation: Hashable {
        case insert, update, object, related, concreteID, setToOne, setToOneWithoutInverse, unrelate,
            clearInverse, nextPosition, addToMany, reserveKeys, releaseKeys
    }

    /// The identity of one prepared statement.
    struct StatementKey: Hashable {
        var operation: Operation
        var entity: String
        /// A property name, or the sorted property names of an insert or update.
        var properties: [String]
        /// A variant of the same operation (with or without an order column, say).
        var variant: Int = 0
    }

    struct RelationshipKey: Hashable {
        var entity: String
        var relationship: String
    }

    var statements: [StatementKey: Statement] = [:]
    var relationships: [RelationshipKey: (EntityLayout, RelationshipLayout)] = [:]
    /// Per to-one relationship: its plain write (``PlainToOneWrite``), nil when it has none.
    var plainToOneWrites: [RelationshipKey: PlainToOneWrite?] = [:]
    /// Column positions of `SELECT *` rows by table, for ``ObjectCursor``.
    var rowReaders: [String: StoredRowReader] = [:]
    /// Per entity: its external-storage attributes (``ObjectContext/externalAttributes(of:)``).
    var externalAttributes: [String: [AttributeLayout]] = [:]
    /// The `_EXTERNAL_DATA` folder found beside the store's file, once looked up.
    var externalFolder: ExternalDataFolder??
    /// Whether the layout has external-storage attributes at all, once looked up.
    var hasExternalData: Bool?
    /// The file of the context's schema (`PRAGMA database_list`), once looked up.
    var storeFile: String??
    let primaryKeys = PrimaryKeyAllocator()
}

/// Hands out `Z_PK`s from `Z_PRIMARYKEY.Z_MAX`, one by one or from reserved ranges.
///
/// With ``batchSize`` 1 (every context's default) each key is one
/// `UPDATE … SET Z_MAX = Z_MAX + 1 … RETURNING Z_MAX`: `Z_MAX` is exact after every insert,
/// as Core Data leaves it.
///
/// With a larger batch (a migration step's destination) a range of keys is reserved with one
/// update, and keys are handed out from memory. This is safe because `Z_MAX` is raised over
/// the whole range *before* any key of it is used: SQL that allocates a key meanwhile
/// (a policy's own `INSERT`) gets one past the range, never one of ours. ``flush(in:)``
/// gives the unused tail back, so that `Z_MAX` is again exactly the last key used (unless
/// someone else allocated after the range, whose keys it must keep covering). The migration
/// manager flushes before anything that reads `Z_MAX` in SQL (set-based passes) and after
/// every pass and hook, so the stored `Z_MAX` is the one the row-by-row path always wrote.
/// On an error the step's transaction rolls the reservations back with everything else.
final class PrimaryKeyAllocator {
    /// Keys `next…end` of a root entity are reserved and unused; `next > end` when spent.
    struct Reservation {
        var next: Int64
        var end: Int64
        /// Whether keys were handed out since the last flush.
        var used = true
    }

    var batchSize: Int64 = 1
    private var reservations: [Int: Reservation] = [:]

    /// The next key of the hierarchy whose root has `Z_ENT` `root`.
    func next(root: Int, rootName: String, context: ObjectContext) throws -> Int64 {
        if var reservation = reservations[root], reservation.next <= reservation.end {
            let key = reservation.next
            reservation.next += 1
            reservation.used = true
            reservations[root] = reservation
            return key
        }
        // Past the last key handed out even if a savepoint rolled our reservation back.
        let floor = batchSize > 1 ? (reservations[root]?.end ?? 0) : 0
        let statement = try context.statement(.init(operation: .reserveKeys, entity: "", properties: [])) {
            "UPDATE \(context.qualified("Z_PRIMARYKEY")) SET \"Z_MAX\" = MAX(\"Z_MAX\", ?) + ? WHERE \"Z_ENT\" = ? RETURNING \"Z_MAX\""
        }
        guard let end = try Int64.fetchOne(statement, arguments: [floor, batchSize, root]) else {
            throw StoreError(
                path: context.path, kind: .schemaMismatch("Z_PRIMARYKEY has no row for \(rootName) (Z_ENT \(root))"))
        }
        let key = end - batchSize + 1
        reservations[root] = Reservation(next: key + 1, end: end)
        return key
    }

    /// Gives back every reserved key not used yet: `Z_MAX` becomes the last key handed out,
    /// unless it moved past the reservation (then it keeps covering the last key). A range
    /// used up is written too: a rolled-back savepoint may have undone its reservation.
    func flush(in context: ObjectContext) throws {
        guard batchSize > 1 else { return }
        for (root, reservation) in reservations where reservation.used {
            let lastUsed = reservation.next - 1
            try context.statement(.init(operation: .releaseKeys, entity: "", properties: [])) {
                """
                UPDATE \(context.qualified("Z_PRIMARYKEY")) SET "Z_MAX" = CASE WHEN "Z_MAX" = ? THEN ? ELSE MAX("Z_MAX", ?) END
                WHERE "Z_ENT" = ?
                """
            }.execute(arguments: [reservation.end, lastUsed, lastUsed, root])
            reservations[root] = Reservation(next: lastUsed + 1, end: lastUsed, used: false)
        }
    }
}

/// Reads ``StoredObject``s from `SELECT *` rows of one table by column position: GRDB's
/// lookup by name compares names case-insensitively on every call.
final class StoredRowReader {
    /// Per entity number: (property name, column position) of its attributes and to-one keys.
    private var properties: [Int: [(String, Int)]] = [:]
    private let positions: [String: Int]
    let entityPosition: Int
    let primaryKeyPosition: Int
    let versionPosition: Int?
    /// The entity every row belongs to whatever its `Z_ENT`, when the table holds one entity
    /// alone (``EntityLayout/ownsEveryRowOfItsTable``): Core Data reads such rows by table.
    let loneEntity: EntityLayout?

    init?(columnNames: [String], loneEntity: EntityLayout? = nil) {
        self.loneEntity = loneEntity
        var positions: [String: Int] = [:]
        for (index, name) in columnNames.enumerated() where positions[name.uppercased()] == nil {
            positions[name.uppercased()] = index
        }
        guard let entity = positions["Z_ENT"], let primaryKey = positions["Z_PK"] else { return nil }
        self.positions = positions
        self.entityPosition = entity
        self.primaryKeyPosition = primaryKey
        self.versionPosition = positions["Z_OPT"]
    }

    /// The properties of an entity and their positions, -1 for a column the row lacks
    /// (read as NULL, as a lookup by name reads it).
    func properties(of entity: EntityLayout) -> [(String, Int)] {
        if let known = properties[entity.number] { return known }
        var result: [(String, Int)] = []
        for attribute in entity.attributes {
            result.append((attribute.name, positions[attribute.column.uppercased()] ?? -1))
        }
        for relationship in entity.relationships {
            guard let column = relationship.foreignKeyColumn else { continue }
            result.append((relationship.name, positions[column.uppercased()] ?? -1))
        }
        properties[entity.number] = result
        return result
    }
}

extension StatementArguments {
    /// Arguments from values already converted to `DatabaseValue`.
    ///
    /// GRDB's `StatementArguments([DatabaseValue])` maps with the key path `\.databaseValue`
    /// of a generic element, which the Swift runtime instantiates on every call: a tenth of
    /// the row loop's time in a profile. Its initializer for optional existentials doesn't.
    package init(values: [DatabaseValue]) {
        self.init(values.map { $0 as (any DatabaseValueConvertible)? })
    }
}
