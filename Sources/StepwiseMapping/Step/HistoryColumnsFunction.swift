import Foundation
import GRDB
import StepwiseStore

/// `stepwise_history_columns(mask, entity)`: an update's `ACHANGE.ZCOLUMNS` rewritten for the
/// destination's properties (``/StepwiseStore/HistoryChangeMask/remapping(_:from:)``), where
/// `entity` is the change's *source* `Z_ENT`.
///
/// Core Data does this during its migrations with its own SQL function,
/// `NSPersistentHistoryMigrateUpdates`, in `UPDATE OR FAIL ACHANGE SET ZCOLUMNS =
/// NSPersistentHistoryMigrateUpdates(…, ZCOLUMNS) WHERE ZENTITY = … AND ZCHANGETYPE = 1`, for
/// each entity whose properties changed: it reads the mask as a set of property names with the
/// source entity and writes those names' bits with the destination entity. A step does the
/// same row by row inside SQLite, so no history is ever held in memory. Masks of entities
/// whose properties didn't change come back as they are.
enum HistoryColumnsFunction {
    /// The function's SQL name.
    static let name = "stepwise_history_columns"

    /// Adds the function to `db`, for the entities of `changes`.
    static func register(_ changes: [PrivateTablePlan.MaskChange], in db: Database) {
        let masks = Dictionary(
            changes.map { ($0.sourceNumber, ($0.source, $0.destination)) }, uniquingKeysWith: { first, _ in first })
        db.add(
            function: DatabaseFunction(name, argumentCount: 2, pure: true) { values in
                guard let entity = Int.fromDatabaseValue(values[1]), let (source, destination) = masks[entity] else {
                    return values[0]
                }
                let bytes = Data.fromDatabaseValue(values[0]).map { [UInt8]($0) } ?? []
                return Data(destination.remapping(bytes, from: source))
            })
    }

    /// The SQL that gives a change's new mask: the function on updates, the old value on
    /// inserts and deletes (they have none). `row` is the alias of the change's row.
    static func expression(row: String) -> String {
        let changeType = "\(row).\("ZCHANGETYPE".quotedSQLIdentifier)"
        let mask = "\(row).\("ZCOLUMNS".quotedSQLIdentifier)"
        let entity = "\(row).\("ZENTITY".quotedSQLIdentifier)"
        return "CASE WHEN \(changeType) = 1 THEN \(name)(\(mask), \(entity)) ELSE \(mask) END"
    }
}
