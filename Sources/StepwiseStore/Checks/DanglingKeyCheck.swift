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
package enum DanglingKeyCheck {
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
