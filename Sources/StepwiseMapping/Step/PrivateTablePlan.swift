import StepwiseModel
import StepwiseStore

/// What a step does to Core Data's private tables (``/StepwiseStore/CoreDataPrivateTables``):
/// worked out from the step's mappings and layouts alone, before any row is read.
///
/// Persistent history and CloudKit mirroring go through every step, the way Core Data's own
/// migrator (`_NSSQLiteStoreMigrator`, its lightweight in-place migration) carries them:
/// - **Entity numbers** stored in them (`ACHANGE.ZENTITY`, `ZENTITYID` of the CloudKit tables)
///   follow the destination's numbering: Core Data runs `UPDATE OR FAIL ACHANGE SET ZENTITY =
///   (CASE WHEN ZENTITY = <old> THEN <new> …)` and `UPDATE ANSCKRECORDMETADATA SET ZENTITYID =
///   <new> WHERE ZENTITYID = <old>` for every renumbered entity.
/// - **Update masks** (`ACHANGE.ZCOLUMNS`, ``/StepwiseStore/HistoryChangeMask``) of an entity
///   whose properties change are rewritten for the destination's properties, by name: Core
///   Data's `NSPersistentHistoryMigrateUpdates(…, ZCOLUMNS)` on `ZCHANGETYPE = 1` rows.
/// - **A removed entity** (one no mapping carries): Core Data truncates the history up to the
///   last transaction that changed it (`SELECT MAX(ZTRANSACTIONID) FROM ACHANGE WHERE ZENTITY
///   IN (…)`, then `DELETE FROM ATRANSACTION WHERE Z_PK <= …` and `DELETE FROM ACHANGE WHERE
///   ZTRANSACTIONID <= …`, logging "Persistent History (…) has to be truncated due to the
///   following entities being removed"), unless the app opted into partial history
///   (`NSPersistentHistoryAllowPartialHistoryMigration`), and deletes its CloudKit record
///   metadata (`DELETE FROM ANSCKRECORDMETADATA WHERE ZENTITYID IN (…)`). Stepwise does the
///   same, and names both drops (``DroppedData/Kind/persistentHistory``,
///   ``DroppedData/Kind/cloudKitMetadata``).
///
/// Core Data's in-place migrator never changes a primary key. A rebuilding step does (it
/// numbers each table's rows densely from 1), so it also rewrites the primary keys stored in
/// these tables (``PrivateTableKeys``).
struct PrivateTablePlan: Sendable {
    /// Where the objects of one carried source entity go.
    struct Carried: Sendable, Hashable {
        /// The source `Z_ENT`.
        var sourceNumber: Int
        /// The destination `Z_ENT` the first mapping carrying it makes; nil when only a policy
        /// carries it (objects the policy associated are still followed).
        var destinationNumber: Int?
        /// The `Z_ENT` of the destination's root (its `Z_PRIMARYKEY` row holds `Z_MAX`).
        var destinationRootNumber: Int?
    }

    /// One source entity whose update masks change, and the masks before and after.
    struct MaskChange: Sendable, Hashable {
        var sourceNumber: Int
        var source: HistoryChangeMask
        var destination: HistoryChangeMask
    }

    /// Concrete source entities some mapping carries, by source `Z_ENT`.
    var carried: [Int: Carried]
    /// Concrete source entities no mapping carries (``EntityMapping/carriesSourceRows``, the
    /// entities whose rows the step drops), by source `Z_ENT`, with their names.
    var removed: [Int: String]
    /// Source entities whose ``/StepwiseStore/HistoryChangeMask`` differs in the destination.
    var maskChanges: [MaskChange]

    /// The plan of a step running `models` (in order) from `source` to `destination`.
    init(models: [MappingModel], source: StoreLayout, destination: StoreLayout) {
        let mappings = models.flatMap(\.entityMappings)
        var carried: [Int: Carried] = [:]
        var removed: [Int: String] = [:]
        var maskChanges: [MaskChange] = []
        for entity in source.entities where !entity.isAbstract {
            let carrying = mappings.filter { $0.sourceEntity == entity.name && $0.carriesSourceRows }
            guard !carrying.isEmpty else {
                removed[entity.number] = entity.name
                continue
            }
            let target = carrying.lazy.compactMap { $0.destinationEntity.flatMap(destination.entity(named:)) }.first
            carried[entity.number] = Carried(
                sourceNumber: entity.number, destinationNumber: target?.number,
                destinationRootNumber: target.flatMap { destination.entity(named: $0.rootName)?.number })
            guard let target else { continue }
            let before = HistoryChangeMask(entity: entity, in: source)
            let after = HistoryChangeMask(entity: target, in: destination)
            if before != after {
                maskChanges.append(MaskChange(sourceNumber: entity.number, source: before, destination: after))
            }
        }
        self.carried = carried
        self.removed = removed
        self.maskChanges = maskChanges
    }

    /// The removed entities' numbers, ascending, as an SQL list: `3, 7`.
    var removedNumberList: String {
        removed.keys.sorted().map(String.init).joined(separator: ", ")
    }
}
