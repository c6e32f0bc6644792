import GRDB

/// Whether any to-one key of a table may point at no row of its target table, answered
/// without a lookup per row where the keys allow it. Pass 3 of a step and the verification
/// before the swap ask it first, and run their exact query, which names the first offending
/// row, only when the answer is yes.
///
/// 1. **Dense keys.** When the target's primary keys are every integer from their minimum to
///    their maximum (`COUNT(*) = MAX - MIN + 1`: a store Stepwise just wrote, or one nothing
///    was deleted from), a key points at a row exactly when it is an integer in that range:
///    two bounds, checked by one pass over the key column's index, without touching the target.
/// 2. **Otherwise**, the distinct keys are read in order from that index and each is looked up
///    once, in order, so the target's pages are read one after the other, not at random.
///
/// Both answer the same question as a lookup per row, so the answer is the same.
///
/// ``firstDanglingKey(_:column:of:pointingTo:layout:)`` is the exact question, asked by pass 3
/// of a step, the verification before the swap, and the matrix's consistency check.
package enum DanglingKeyCheck {
    /// A key that points at no row of its target.
    package struct DanglingKey: Sendable, Equatable {
        /// The `Z_PK` of the first row holding such a key.
        package var primaryKey: Int64
        /// The key it holds.
        package var key: Int64?
        /// How many rows hold such a key.
        package var count: Int
    }

    /// The first row of `holder` (its `Z_ENT` values) whose non-null `column` is not the `Z_PK`
    /// of a `target` row (its `Z_ENT` values), with the number of such rows; nil when every
    /// key points at a target. A to-one's key is held by its entity's rows; the hidden key of a
    /// to-many without inverse by its destination's.
    ///
    /// ``anyKeyMayDangle(_:table:column:targetTable:targetEntityNumbers:)`` answers first when
    /// every row of the holder's table is a `holder`, so a sound store costs no lookup per row.
    package static func firstDanglingKey(
        _ db: Database, column: String, of holder: EntityLayout, pointingTo target: EntityLayout, layout: StoreLayout
    ) throws -> DanglingKey? {
        let holdsEveryRow = Set(layout.table(named: holder.tableName)?.entityNumbers ?? [])
            .isSubset(of: holder.subentityNumbers)
        let targetsEveryRow = Set(layout.table(named: target.tableName)?.entityNumbers ?? [])
            .isSubset(of: target.subentityNumbers)
        if holdsEveryRow,
            try !anyKeyMayDangle(
                db, table: holder.tableName, column: column, targetTable: target.tableName,
                targetEntityNumbers: targetsEveryRow ? nil : target.subentityNumbers)
        {
            return nil
        }
        let key = column.quotedSQLIdentifier
        let list = { (entity: EntityLayout) in entity.subentityNumbers.map(String.init).joined(separator: ", ") }
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT "e"."Z_PK", "e".\(key), COUNT(*) OVER () FROM "main".\(holder.tableName.quotedSQLIdentifier) AS "e"
                    WHERE "e"."Z_ENT" IN (\(list(holder))) AND "e".\(key) IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM "main".\(target.tableName.quotedSQLIdentifier) AS "t"
                                      WHERE "t"."Z_PK" = "e".\(key) AND "t"."Z_ENT" IN (\(list(target))))
                    ORDER BY "e"."Z_PK" LIMIT 1
                    """)
        else { return nil }
        // A key that isn't an integer (a damaged or hand-written row) is reported as nil.
        let value: DatabaseValue = row[1]
        return DanglingKey(primaryKey: row[0], key: Int64.fromDatabaseValue(value), count: row[2])
    }

    /// Whether a non-null `column` of `table` holds something other than the `Z_PK` of a row
    /// of `targetTable` (whose `Z_ENT` is in `targetEntityNumbers`, unless nil: every row).
    ///
    /// Every row of `table` is checked: the caller makes sure they are all of the entity the
    /// key belongs to.
    package static func anyKeyMayDangle(
        _ db: Database, table: String, column: String, targetTable: String, targetEntityNumbers: [Int]?
    ) throws -> Bool {
        let key = column.quotedSQLIdentifier
        let source = "\"main\".\(table.quotedSQLIdentifier)"
        let target = "\"main\".\(targetTable.quotedSQLIdentifier)"
        let targetCondition =
            targetEntityNumbers.map { " AND \"t\".\"Z_ENT\" IN (\($0.map(String.init).joined(separator: ", ")))" } ?? ""
        if targetEntityNumbers == nil,
            let bounds = try Row.fetchOne(db, sql: "SELECT MIN(\"Z_PK\"), MAX(\"Z_PK\"), COUNT(*) FROM \(target)"),
            let low = bounds[0] as Int64?, let high = bounds[1] as Int64?, let count = bounds[2] as Int64?,
            case let (span, overflow) = high.subtractingReportingOverflow(low), !overflow, span < Int64.max,
            span + 1 == count
        {
            return try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM \(source) WHERE \(key) IS NOT NULL
                                   AND (typeof(\(key)) != 'integer' OR \(key) < ? OR \(key) > ?))
                    """,
                arguments: [low, high]) ?? true
        }
        return try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (
                    SELECT 1 FROM (SELECT DISTINCT \(key) AS "stepwise_key" FROM \(source) WHERE \(key) IS NOT NULL)
                    WHERE NOT EXISTS (SELECT 1 FROM \(target) AS "t" WHERE "t"."Z_PK" = "stepwise_key"\(targetCondition)))
                """) ?? true
    }
}
