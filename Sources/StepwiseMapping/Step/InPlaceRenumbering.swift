import GRDB
import StepwiseModel
import StepwiseStore

/// Entity numbers an in-place step changes (``InPlacePlan/renumbering``), and the statements
/// that move a store's rows to them without rebuilding it.
///
/// Core Data numbers entities in the order of their names, so adding or removing one
/// renumbers every entity that sorts after it: Wire's zmessaging 2.101.0 removes
/// `FeatureFlag` (7), and `GenericMessageData` through `UserClient` each move down by one
/// (corpus `wire-data-model`, 2.100.0 and 2.101.0). Keys (`Z_PK`) don't change; what carries
/// the numbers is:
/// - each row's `Z_ENT`, and each entity column `Z<n>_<NAME>` (the `Z_ENT` of the row a
///   to-one names): rewritten by one `UPDATE … CASE` per column (``renumberRows(of:_:in:)``),
///   right after the removed entities' rows are deleted, before any statement reads a
///   destination number;
/// - names: join tables, their columns and indexes (`Z_16USERS` becomes `Z_15USERS`), entity
///   columns and hidden foreign keys are renamed like any other kept table or column;
/// - `Z_PRIMARYKEY`: each entity's row takes the `Z_MAX` of the source entity it continues
///   (``InPlacePlan/primaryKeySources``), not of the entity that had its number before.
///
/// **What keeps it exact.** Before the store is copied, ``sourceFits(_:in:)`` checks that each
/// row's `Z_ENT` names an entity the step maps or removes (a row of another number would keep
/// one that now means a different entity), that each entity column holds the `Z_ENT` of the
/// row its key names (the rebuild writes it from that row; a copied disagreement would be kept
/// under new numbers), and that each root's `Z_MAX` covers its keys. Core Data's private tables (persistent history, CloudKit
/// mirroring) name entities by number too: a store that has them is rebuilt instead, which
/// renumbers them. After the statements, ``checkRenumbered(_:in:destination:)`` checks every
/// `Z_ENT`, entity column and `Z_MAX` against the destination; a failure is a bug, and
/// rejects the in-place result rather than trusting it.
enum InPlaceRenumbering {
    /// Whether the rows of the source store in `db` allow `plan`'s renumbering: always true
    /// when the plan renumbers nothing.
    static func sourceFits(_ plan: InPlacePlan, in db: Database) throws -> Bool {
        // A table of one entity alone may hold rows of any Z_ENT, which Core Data reads as that
        // entity (EntityLayout.ownsEveryRowOfItsTable). Kept as they are, such numbers would
        // name other entities once the table holds several: the rebuilding path writes every
        // row's number instead. Only such tables are read.
        for table in plan.tables where table.destination.entityNumbers.count > 1 {
            guard let source = table.source, table.sourceEntityNumbers.count == 1, table.removedEntityNumbers.isEmpty
            else { continue }
            let strays = try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM \(source.quotedSQLIdentifier) \
                    WHERE "Z_ENT" IS NOT \(table.sourceEntityNumbers[0]))
                    """)
            if strays ?? true { return false }
        }
        guard !plan.renumbering.isEmpty else { return true }
        guard try CoreDataPrivateTables.tables(in: db).filter(\.kind.isCarried).isEmpty else { return false }
        let mapped = list(plan.mappedSourceNumbers)
        for table in plan.tables {
            guard let source = table.source else { continue }
            let quoted = source.quotedSQLIdentifier
            let allowed = list(table.sourceEntityNumbers + table.removedEntityNumbers)
            var strays = ["\"Z_ENT\" NOT IN (\(allowed))"]
            for column in table.sourceEntityColumns {
                strays.append(
                    "(\(column.quotedSQLIdentifier) IS NOT NULL AND \(column.quotedSQLIdentifier) NOT IN (\(mapped)))")
            }
            let hasStrays = try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM \(quoted) WHERE \(strays.joined(separator: " OR ")))")
            if hasStrays ?? true { return false }
            for (key, entityColumn, target) in table.sourceEntityColumnTargets
            where try entityColumnDisagrees(source, key: key, entityColumn: entityColumn, target: target, in: db) {
                return false
            }
            if let root = table.sourceRootNumber, try keysOutrunZMax(of: source, root: root, in: db) { return false }
        }
        return true
    }

    /// Rewrites the `Z_ENT`s and entity columns of the source table `table` continues; its
    /// columns still have their source names. Nothing when the plan renumbers nothing.
    static func renumberRows(of table: InPlacePlan.TablePlan, _ renumbering: [Int: Int], in db: Database) throws {
        guard let source = table.source, !renumbering.isEmpty else { return }
        let cases = renumbering.sorted { $0.key < $1.key }.map { "WHEN \($0.key) THEN \($0.value)" }
            .joined(separator: " ")
        let changed = list(Array(renumbering.keys))
        for column in ["Z_ENT"] + table.sourceEntityColumns {
            let quoted = column.quotedSQLIdentifier
            try db.execute(
                sql: """
                    UPDATE \(source.quotedSQLIdentifier) SET \(quoted) = CASE \(quoted) \(cases) END
                    WHERE \(quoted) IN (\(changed))
                    """)
        }
    }

    /// Throws ``InPlaceMigration/Rejected`` unless, in the renumbered store in `db`, every
    /// row's `Z_ENT` is one of its table's destination entities, every entity column holds the
    /// `Z_ENT` of the row its key names, and every root's `Z_MAX` covers its keys. A key naming
    /// no row is left to the step's validation, which names it.
    static func checkRenumbered(_ plan: InPlacePlan, in db: Database, destination: StoreLayout) throws {
        guard !plan.renumbering.isEmpty else { return }
        func reject(_ reason: String) -> InPlaceMigration.Rejected {
            InPlaceMigration.Rejected(differences: [], reason: "after renumbering entities, \(reason)")
        }
        for table in plan.tables where table.source != nil {
            let quoted = table.destination.name.quotedSQLIdentifier
            let numbers = list(table.destination.entityNumbers)
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(quoted) WHERE \"Z_ENT\" NOT IN (\(numbers)))")
                != false
            {
                throw reject("\(table.destination.name) holds a row of another entity")
            }
            guard case .entity(let rootName) = table.destination.kind, let root = destination.entity(named: rootName)
            else { continue }
            if try keysOutrunZMax(of: table.destination.name, root: root.number, in: db) {
                throw reject("the Z_MAX of \(rootName) is below its largest key")
            }
        }
        for entity in destination.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                guard case .foreignKey(let column, let entityColumn?, _) = relationship.storage,
                    let target = destination.entity(named: relationship.destination)
                else { continue }
                if try entityColumnDisagrees(
                    entity.tableName, key: column, entityColumn: entityColumn, target: target.tableName,
                    entities: entity.subentityNumbers, in: db)
                {
                    throw reject("\(entity.name).\(relationship.name)'s entity column disagrees with its rows")
                }
            }
        }
    }

    /// Whether a row of `table` (of one of `entities`, when given) holds in `entityColumn`
    /// another `Z_ENT` than the `target` row its `key` names has. A key naming no row isn't
    /// counted. Both checks ask it: of the source before the copy, of the result after.
    private static func entityColumnDisagrees(
        _ table: String, key: String, entityColumn: String, target: String, entities: [Int]? = nil, in db: Database
    ) throws -> Bool {
        let ofEntities = entities.map { "\"e\".\"Z_ENT\" IN (\(list($0))) AND " } ?? ""
        return try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (
                    SELECT 1 FROM \(table.quotedSQLIdentifier) AS "e"
                    JOIN \(target.quotedSQLIdentifier) AS "t" ON "t"."Z_PK" = "e".\(key.quotedSQLIdentifier)
                    WHERE \(ofEntities)"e".\(entityColumn.quotedSQLIdentifier) IS NOT "t"."Z_ENT")
                """) ?? true
    }

    /// Whether `table` holds a key above the `Z_MAX` of its root's `Z_PRIMARYKEY` row (`Z_ENT`
    /// `root`): new objects would be given keys already in use.
    private static func keysOutrunZMax(of table: String, root: Int, in db: Database) throws -> Bool {
        try Bool.fetchOne(
            db,
            sql: """
                SELECT COALESCE((SELECT MAX("Z_PK") FROM \(table.quotedSQLIdentifier)), 0)
                       > COALESCE((SELECT "Z_MAX" FROM "Z_PRIMARYKEY" WHERE "Z_ENT" = ?), 0)
                """,
            arguments: [root]) ?? true
    }

    private static func list(_ numbers: [Int]) -> String {
        numbers.sorted().map(String.init).joined(separator: ", ")
    }
}
