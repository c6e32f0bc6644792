import Foundation
import GRDB
import Logging
import StepwiseModel
import StepwiseStore

// Reading the step's source: its private copy, the WAL folded in, `willMigrate`, the metadata
// and drop counts, and removing what a failed step wrote.
extension MigrationStep {
    /// Copies the source's generation (its main file, `-wal` and `-journal`) beside the
    /// destination (same file system, private). Not checkpointed here: `prepareSource`
    /// folds the WAL in when it opens the copy.
    func privateCopy(of source: URL, beside destination: URL) throws -> URL {
        try StoreFileCheck.check(source)
        let copy = StoreGeneration(
            mainFile: destination.deletingLastPathComponent()
                .appendingPathComponent(".stepwise-source-\(UUID().uuidString).sqlite"))
        do {
            // Ordering, like every sync in a step: the step's files reach the disk before the
            // journal records the step (UpgradeRun.runSteps).
            try StoreGeneration(mainFile: source).copy(
                to: copy, checkpointing: nil, syncing: .ordering, fileSystem: fileSystem, site: "step.private-copy")
        } catch {
            removeStoreFiles(at: copy.mainFile)
            throw error
        }
        return copy.mainFile
    }

    /// Folds the source's WAL in, lays out the step (``StepLayouts``), runs `willMigrate`, then
    /// reads the source's metadata and counts what the step will drop (``DroppedData``) in the
    /// source as the mappings see it, Core Data's private tables included
    /// (``DropCounter/privateTableDrops(for:in:)``). A ``SourceAccess/readOnly`` source is only
    /// read: it has no WAL to fold in, and no `willMigrate` runs on it.
    func prepareSource(
        _ url: URL, models: [MappingModel], readOnly: Bool
    ) throws -> (StoreMetadata, StepLayouts, [DroppedData]) {
        let queue =
            readOnly
            ? try ImmutableStore.openQueue(at: url)
            : try DatabaseQueue(path: url.path, configuration: .forStoreWrites)
        defer { try? queue.close() }
        if !readOnly {
            // A TRUNCATE checkpoint moves every committed WAL frame into the main file, so the
            // attached copy is read whole even if SQLite opens it without its WAL.
            try queue.writeWithoutTransaction { db in
                _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        let layouts = try queue.read { db in
            try StepLayouts(
                source: sourceModel, destination: destinationModel, schema: SQLiteSchema.read(from: db),
                release: StoreMetadata.read(from: db, path: url.path).release)
        }
        if !readOnly, let willMigrate = stage?.willMigrate {
            try queue.write { db in
                // The stage reads a copy; its external values' files are beside the original.
                var context = ObjectContext(db, layout: layouts.source)
                context.externalData = externalData
                try willMigrate(db, context)
            }
        }
        return try queue.read { db in
            (
                try StoreMetadata.read(from: db, path: url.path), layouts,
                try countedDrops(in: db, models: models, sourceLayout: layouts.source)
            )
        }
    }

    /// What the step drops, counted in the source open in `db` as the mappings see it, Core
    /// Data's private tables included: shared by the step on a copy and the schema-only step.
    func countedDrops(in db: Database, models: [MappingModel], sourceLayout: StoreLayout) throws -> [DroppedData] {
        let counter = DropCounter(layout: sourceLayout)
        let counted = try counter.counting(
            DroppedData.planned(by: models, from: sourceModel, to: destinationModel), in: db)
        return counted + (try counter.privateTableDrops(for: counted, in: db))
    }

    /// Deletes a store file and its companions, ignoring missing ones and failures: it only
    /// ever runs on the way out of an error, which matters more.
    func removeStoreFiles(at url: URL) {
        try? StoreGeneration(mainFile: url).remove(fileSystem: fileSystem, site: "step.remove-output")
    }
}
