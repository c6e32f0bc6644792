import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

// A step run on the store itself, inside a transaction the caller owns: the upgrade's path for
// steps that change only the schema (Core Data's own lightweight migration does the same, in
// one transaction on the store).
extension MigrationStep {
    /// Runs the step on the store open in `db`, inside the caller's transaction, when it changes
    /// only the schema: an in-place plan (``InPlacePlan``) with no stage, whose rehearsal on an
    /// empty copy of the schema passes. Returns nil, having written nothing, otherwise.
    ///
    /// The caller owns the transaction: it commits once every step has run and the result is
    /// verified, or rolls back, and then the store is as it was (SQLite's journal makes the
    /// whole transaction atomic). Nothing here commits, syncs or changes the journal mode; the
    /// caller removes free pages once every step has run.
    ///
    /// - parameter storePath: The store's path, for errors.
    /// - returns: The step's report, its drops counted in the store before it ran.
    package func migrateSchemaOnly(in db: Database, storePath: String) throws -> StepReport? {
        let started = Date()
        // A stage is the app's code around the step: it takes the copy path, where a failed
        // statement it catches can't leave the store half changed.
        guard stage == nil else { return nil }
        let models = try resolvedMappingModels()
        guard models.count == 1 else { return nil }
        let sourceMetadata = try StoreMetadata.read(from: db, path: storePath)
        let layouts = try StepLayouts(
            source: sourceModel, destination: destinationModel, schema: SQLiteSchema.read(from: db),
            release: sourceMetadata.release)
        guard let plan = try inPlacePlan(in: db, models: models, layouts: layouts) else { return nil }
        let drops = try countedDrops(in: db, models: models, sourceLayout: layouts.source)
        let metadata = destinationMetadata(from: sourceMetadata, drops: drops)
        let (reports, objects): ([StepReport.EntityMappingReport], Int)
        do {
            (reports, objects) = try applyInPlace(
                plan, in: db, path: storePath, models: models, sourceLayout: layouts.source,
                destinationLayout: layouts.alteredDestination, metadata: metadata)
        } catch let rejected as InPlaceMigration.Rejected {
            // As the in-place step on a copy falls back to a rebuild: the caller rolls back and copies.
            logger.debug("schema-only step rejected", metadata: ["reason": "\(rejected)"])
            return nil
        } catch let error as DatabaseError where Self.fallsBackToACopy(error) {
            // An ALTER that SQLite refuses although the rehearsal passed: the same fallback.
            logger.debug("schema-only step failed", metadata: ["error": "\(error)"])
            return nil
        }
        var report = StepReport(
            from: sourceModel.name, to: destinationModel.name, kind: StepKind(running: models),
            mappingModels: models.map(\.name), entityMappings: reports, rows: reports.reduce(0) { $0 + $1.instances },
            objects: objects, seconds: Date().timeIntervalSince(started), strategy: .inPlace)
        report.drops = drops
        return report
    }

    /// Whether a statement's error means "not this way" rather than a failure every way would
    /// meet: the machine's conditions (interrupted, disk full, I/O, busy, out of memory) are
    /// reported as they are.
    static func fallsBackToACopy(_ error: DatabaseError) -> Bool {
        let reported: [ResultCode] = [
            .SQLITE_INTERRUPT, .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_BUSY, .SQLITE_NOMEM, .SQLITE_CORRUPT,
            .SQLITE_NOTADB, .SQLITE_LOCKED, .SQLITE_READONLY,
        ]
        return !reported.contains(error.resultCode)
    }

    /// Whether the step may change only the schema, judged from the two models alone (their
    /// layouts as a new store would have them): false when it surely rewrites rows (a stage,
    /// several mapping models, a mapping the in-place plan can't express). The store's own
    /// schema has the last word (``migrateSchemaOnly(in:storePath:)``); this only spares a
    /// transaction that would be rolled back.
    package func mayChangeOnlyTheSchema() throws -> Bool {
        guard stage == nil else { return false }
        let models = try resolvedMappingModels()
        guard models.count == 1 else { return false }
        return InPlacePlan.make(
            mapping: models[0], source: try StoreLayout(model: sourceModel),
            destination: try StoreLayout(model: destinationModel), allowsRenumbering: true) != nil
    }

    /// The destination's metadata: the target's hashes and identifiers; every other key as the
    /// source has it, the release and auto-vacuum level included, since an altered store keeps
    /// its file, so its forms and its pragma. A source without a release (a store Stepwise
    /// wrote before it named one) has the newest forms. A rebuild names its own release.
    func destinationMetadata(from sourceMetadata: StoreMetadata, drops: [DroppedData]) -> StoreMetadata {
        var metadata = StoreMetadata(model: destinationModel, uuid: sourceMetadata.storeUUID)
        metadata.additionalEntries.merge(sourceMetadata.additionalEntries) { _, source in source }
        metadata.additionalEntries[StoreMetadata.frameworkVersionKey] = .int(sourceMetadata.release.frameworkVersion)
        if drops.contains(where: { $0.kind == .cloudKitMetadata && ($0.count ?? 0) > 0 }) {
            metadata.additionalEntries[CoreDataPrivateTables.cloudKitZoneFetchMetadataKey] = .dictionary([:])
        }
        return metadata
    }

    /// An in-place plan's work in `db`, in the caller's transaction: the `ALTER`s, the derived
    /// values and their triggers, the stage's `didMigrate`, validation and the metadata. Shared
    /// by the in-place step on a copy and the schema-only step on the store itself.
    /// - returns: Each copied or transformed entity mapping's report, and the objects in the store.
    func applyInPlace(
        _ plan: InPlacePlan, in db: Database, path: String, models: [MappingModel], sourceLayout: StoreLayout,
        destinationLayout: StoreLayout, metadata: StoreMetadata
    ) throws -> ([StepReport.EntityMappingReport], Int) {
        func makeManager() -> MigrationManager {
            let manager = MigrationManager(
                db: db, sourceModel: sourceModel, destinationModel: destinationModel,
                sourceLayout: sourceLayout, destinationLayout: destinationLayout, policies: policies,
                logger: logger, progress: progress, externalData: externalData)
            manager.currentMappingModel = models[0]
            manager.keepsPrimaryKeys = true
            return manager
        }
        // The source's derivations go; the destination's are created below.
        _ = try DerivedValues.suspendTriggers(in: db)
        do {
            try InPlaceMigration.apply(plan, in: db, destination: destinationLayout)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // A uniqueness constraint the rows break, found when its index was built
            // at the end: the rebuild would end with the same rows. Name the clash.
            throw try makeManager().uniquenessError(in: destinationLayout) ?? error
        }
        let manager = makeManager()
        // Keys and required values the step kept are read again only when the app's code
        // could have written them (a didMigrate stage).
        if stage?.didMigrate == nil {
            manager.relationshipsWithKeptKeys = plan.relationshipsWithKeptKeys(
                source: sourceLayout, destination: destinationLayout)
            manager.requiredAttributesKnownFilled = plan.requiredAttributesKnownFilled(
                mapping: models[0], sourceModel: sourceModel, destinationModel: destinationModel,
                source: sourceLayout, destination: destinationLayout)
        }
        if let didMigrate = stage?.didMigrate {
            // The app's code may move values through a uniqueness constraint, as a
            // policy may in the rebuild: checked when it is done, not per statement.
            let uniqueness = try UniquenessCheckedAtEnd(db, layout: destinationLayout)
            try didMigrate(db, manager.destination)
            try uniqueness.restore(manager)
        }
        try DerivedValues.computeValues(destinationLayout, in: db)
        try DerivedValues.createTriggers(destinationLayout, in: db)
        try manager.validateDestination()
        try metadata.write(to: db, path: path)
        let rows = try Self.rowCounts(in: db, layout: destinationLayout)
        var reports: [StepReport.EntityMappingReport] = []
        for mapping in models[0].entityMappings where mapping.kind == .copy || mapping.kind == .transform {
            guard let name = mapping.destinationEntity, let entity = destinationLayout.entity(named: name)
            else { continue }
            reports.append(.init(name: mapping.name, instances: rows[entity.number] ?? 0, links: 0, setBased: true))
        }
        return (reports, rows.values.reduce(0, +))  // objectCount, from the counts already made
    }
}
