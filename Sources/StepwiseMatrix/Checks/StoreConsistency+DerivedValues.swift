import Foundation
import GRDB
import StepwiseMapping
import StepwiseStore

extension StoreConsistency {
    /// The rows whose derived values (``Derivation``) are not what Core Data's triggers would
    /// have left: a computed value that differs from the one its sources give now, or a
    /// `now()` attribute without a stamp. Empty when every derived value is current.
    ///
    /// Each column is recomputed inside a savepoint that is rolled back, and compared in SQL:
    /// the store is left as it was, and no rows are held in memory. `db` must be able to
    /// write, and have Core Data's trigger functions
    /// (`Configuration.registeringCoreDataTriggerFunctions(now:)`).
    package static func derivedValueProblems(in db: Database, layout: StoreLayout) throws -> [Problem] {
        var found: [Problem] = []
        for column in DerivedValues.columns(layout) {
            if column.isNow {
                found += try firstRow(
                    db, column, reason: "now() value is missing",
                    sql: """
                        SELECT "Z_PK", COUNT(*) OVER () FROM "main".\(column.table.quotedSQLIdentifier)
                        WHERE \(column.column.quotedSQLIdentifier) IS NULL AND "Z_ENT" IN (\(column.entityNumbers))
                        ORDER BY "Z_PK" LIMIT 1
                        """)
            } else if let statement = column.recomputeStatement {
                found += try recomputedDifferences(db, column, recompute: statement)
            }
        }
        return found
    }

    /// The rows of `column` that `recompute` would change.
    private static func recomputedDifferences(_ db: Database, _ column: DerivedValues.Column, recompute: String) throws
        -> [Problem]
    {
        let table = column.table.quotedSQLIdentifier
        let value = column.column.quotedSQLIdentifier
        let kept = "stepwise_derived_before".quotedSQLIdentifier
        var problems: [Problem] = []
        try db.inSavepoint {
            try db.execute(
                sql: """
                    CREATE TEMP TABLE \(kept) AS SELECT "Z_PK" AS "pk", \(value) AS "value" FROM "main".\(table)
                    WHERE "Z_ENT" IN (\(column.entityNumbers))
                    """)
            try db.execute(sql: recompute)
            problems = try firstRow(
                db, column, reason: "derived value differs from the one its sources give",
                sql: """
                    SELECT "t"."Z_PK", COUNT(*) OVER () FROM "main".\(table) AS "t"
                    JOIN "temp".\(kept) AS "k" ON "k"."pk" = "t"."Z_PK"
                    WHERE "t".\(value) IS NOT "k"."value" ORDER BY "t"."Z_PK" LIMIT 1
                    """)
            return .rollback
        }
        return problems
    }

    /// One problem naming the first row `sql` finds and how many there are, or none.
    private static func firstRow(_ db: Database, _ column: DerivedValues.Column, reason: String, sql: String) throws
        -> [Problem]
    {
        guard let row = try Row.fetchOne(db, sql: sql) else { return [] }
        let count: Int = row[1]
        return [
            Problem(
                entity: column.entity, property: column.attribute, primaryKey: row[0],
                reason: count == 1 ? reason : "\(reason) (\(count) rows)")
        ]
    }
}
