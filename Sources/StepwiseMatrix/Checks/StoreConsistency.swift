import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Checks that a store's pages and links are sound: what every upgraded (or seeded) store
/// must pass whatever its data.
///
/// - `PRAGMA integrity_check` says `ok` (pages, records and every index against its table), or
///   `quick_check` (pages and records) when the caller asks for less;
/// - every to-one key names an existing row of the destination entity or a subentity, and its
///   `Z<n>_<NAME>` entity column, when there is one, holds that row's `Z_ENT`;
/// - every join-table row links existing rows of the right entities, and every hidden foreign
///   key of a to-many without inverse names an existing row of its owner;
/// - both keys of a one-to-one agree: when A's key names B, B's key names A;
/// - every derived value is current (``derivedValueProblems(in:layout:)``).
///
/// ```swift
/// let problems = try StoreConsistency.problems(inStoreAt: url, model: model)
/// #expect(problems.isEmpty, "\(problems)")
/// ```
package enum StoreConsistency {
    /// One thing found wrong.
    package struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The entity whose row is wrong; nil for a page-level problem.
        package var entity: String?
        /// The relationship concerned; nil for a page-level problem.
        package var property: String?
        /// The `Z_PK` of the first wrong row, when there is one.
        package var primaryKey: Int64?
        /// What is wrong.
        package var reason: String

        package var description: String {
            guard let entity else { return reason }
            let row = primaryKey.map { " (Z_PK \($0))" } ?? ""
            return "\(entity)\(row).\(property ?? "?"): \(reason)"
        }
    }

    /// The problems of the store at `url`, read as `model` lays it out; empty when sound.
    package static func problems(inStoreAt url: URL, model: ObjectModel) throws -> [Problem] {
        try problems(inStoreAt: url, layout: StoreLayout(model: model))
    }

    /// The problems of the store at `url`, read as `layout` says; empty when sound. For a
    /// caller that checks many stores of one version and lays it out once. When
    /// `integrity_check` fails, that is the only problem returned: rows read from damaged
    /// pages would say nothing reliable.
    ///
    /// - parameters:
    ///   - fullPageCheck: `integrity_check` when true (the default), else `quick_check`, which
    ///     skips comparing each index with its table (``UpgradeMatrix`` explains when that is enough).
    ///   - keysAreKnownSound: Asked once the pages are found sound; when it says yes, the keys
    ///     and join rows aren't checked. The matrix says yes for a store whose rows are
    ///     identical to those of a store that passed (keys are rows' values; pages aren't).
    package static func problems(
        inStoreAt url: URL, layout: StoreLayout, fullPageCheck: Bool = true,
        keysAreKnownSound: () throws -> Bool = { false }
    ) throws -> [Problem] {
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        if let problem = try queue.read({ db in try pageProblem(in: db, full: fullPageCheck) }) { return [problem] }
        let found = try keysAreKnownSound() ? [] : queue.read { db in try keyProblems(in: db, layout: layout) }
        return try found + queue.writeWithoutTransaction { db in try derivedValueProblems(in: db, layout: layout) }
    }

    /// What SQLite's page check finds wrong; nil when sound.
    private static func pageProblem(in db: Database, full: Bool) throws -> Problem? {
        let problems = try PageCheck.problems(in: db, full: full)
        guard !problems.isEmpty else { return nil }
        return Problem(reason: "\(PageCheck.pragma(full: full)): \(problems.joined(separator: "; "))")
    }

    /// Dangling to-one keys, wrong entity columns, join rows linking missing objects and
    /// one-to-ones that don't point back.
    private static func keyProblems(in db: Database, layout: StoreLayout) throws -> [Problem] {
        var found: [Problem] = []
        for entity in layout.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                guard let target = layout.entity(named: relationship.destination) else { continue }
                switch relationship.storage {
                case .foreignKey(let column, let entityColumn, _):
                    found += try toOneProblems(
                        db, entity, relationship, target, column: column, entityColumn: entityColumn, layout: layout)
                case .joinTable(let table, let sourceColumn, let destinationColumn, _):
                    found += try joinTableProblems(
                        db, entity, relationship, target, table: table, sourceColumn: sourceColumn,
                        destinationColumn: destinationColumn)
                case .inverseForeignKey(_, let column, _) where relationship.hasHiddenForeignKey:
                    // No to-one side checks a hidden key: each one must name an existing owner.
                    found += try toOneProblems(
                        db, target, relationship, entity, column: column, entityColumn: nil, layout: layout)
                case .inverseForeignKey:
                    continue  // checked from the to-one side
                }
            }
        }
        return found
    }

    private static func toOneProblems(
        _ db: Database, _ entity: EntityLayout, _ relationship: RelationshipLayout, _ target: EntityLayout,
        column: String, entityColumn: String?, layout: StoreLayout
    ) throws -> [Problem] {
        let table = entity.tableName.quotedSQLIdentifier
        let targetTable = target.tableName.quotedSQLIdentifier
        let key = column.quotedSQLIdentifier
        let kinds = numbers(entity)
        func problem(_ reason: String, _ primaryKey: Int64) -> Problem {
            Problem(entity: entity.name, property: relationship.name, primaryKey: primaryKey, reason: reason)
        }
        if let dangling = try DanglingKeyCheck.firstDanglingKey(
            db, column: column, of: entity, pointingTo: target, layout: layout)
        {
            let key = dangling.key.map(String.init) ?? "?"
            return [problem("points to \(target.name) Z_PK \(key), which doesn't exist", dangling.primaryKey)]
        }
        if let entityColumn,
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT "e"."Z_PK", "e".\(entityColumn.quotedSQLIdentifier), "t"."Z_ENT" FROM \(table) AS "e"
                    JOIN \(targetTable) AS "t" ON "t"."Z_PK" = "e".\(key)
                    WHERE "e"."Z_ENT" IN (\(kinds)) AND "e".\(entityColumn.quotedSQLIdentifier) IS NOT "t"."Z_ENT"
                    LIMIT 1
                    """)
        {
            return [
                problem(
                    "its entity column says Z_ENT \(row[1] as Int64? ?? -1), the row is Z_ENT \(row[2] as Int64? ?? -1)",
                    row[0])
            ]
        }
        // A one-to-one keeps a key on both sides; they must name each other.
        guard let inverseName = relationship.inverse,
            let inverse = target.relationship(named: inverseName), inverse.isToMany == false,
            let inverseColumn = inverse.foreignKeyColumn
        else { return [] }
        if let primaryKey = try Int64.fetchOne(
            db,
            sql: """
                SELECT "e"."Z_PK" FROM \(table) AS "e" JOIN \(targetTable) AS "t" ON "t"."Z_PK" = "e".\(key)
                WHERE "e"."Z_ENT" IN (\(kinds)) AND "t".\(inverseColumn.quotedSQLIdentifier) IS NOT "e"."Z_PK"
                LIMIT 1
                """)
        {
            return [problem("its \(target.name) doesn't point back through '\(inverseName)'", primaryKey)]
        }
        return []
    }

    private static func joinTableProblems(
        _ db: Database, _ entity: EntityLayout, _ relationship: RelationshipLayout, _ target: EntityLayout,
        table: String, sourceColumn: String, destinationColumn: String
    ) throws -> [Problem] {
        func missing(_ layout: EntityLayout, _ column: String) -> String {
            """
            NOT EXISTS (SELECT 1 FROM \(layout.tableName.quotedSQLIdentifier) AS "r"
                        WHERE "r"."Z_PK" = "j".\(column.quotedSQLIdentifier) AND "r"."Z_ENT" IN (\(numbers(layout))))
            """
        }
        let rows = "FROM \(table.quotedSQLIdentifier) AS \"j\""
        if let key = try Int64.fetchOne(
            db,
            sql:
                "SELECT \"j\".\(sourceColumn.quotedSQLIdentifier) \(rows) WHERE \(missing(entity, sourceColumn)) LIMIT 1"
        ) {
            return [
                Problem(
                    entity: entity.name, property: relationship.name, primaryKey: key,
                    reason: "\(table) links a \(entity.name) that doesn't exist")
            ]
        }
        if let key = try Int64.fetchOne(
            db,
            sql:
                "SELECT \"j\".\(sourceColumn.quotedSQLIdentifier) \(rows) WHERE \(missing(target, destinationColumn)) LIMIT 1"
        ) {
            return [
                Problem(
                    entity: entity.name, property: relationship.name, primaryKey: key,
                    reason: "\(table) links it to a \(target.name) that doesn't exist")
            ]
        }
        return []
    }

    private static func numbers(_ entity: EntityLayout) -> String {
        entity.subentityNumbers.map(String.init).joined(separator: ", ")
    }
}
