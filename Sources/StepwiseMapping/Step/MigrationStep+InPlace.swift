import Foundation
import GRDB
import Logging
import StepwiseModel
import StepwiseStore

// The in-place path: `ALTER TABLE` on a copy (or the consumed source) instead of a rebuild.
extension MigrationStep {
    /// Runs the in-place strategy (``StepStrategy/inPlace``) with the plan
    /// ``chooseStrategy(among:source:access:models:layouts:)`` made and rehearsed: alter a copy
    /// of the source (or, when the source is consumed, the source itself, moved to
    /// `destination`) instead of rebuilding. Returns nil, leaving nothing at `destination` and
    /// the source where it was, when SQLite refuses the plan although its rehearsal passed (the
    /// step then takes the next strategy); with a consumed source, which can't be read again,
    /// that failure is thrown instead.
    ///
    /// **Without a rollback journal.** The plan was rehearsed on an empty copy of the
    /// schema (``InPlaceMigration/rehearse(_:schemaOf:destination:)``), so the real run is only
    /// started once it is known to succeed; its file is then altered with `journal_mode = OFF`
    /// and `synchronous = OFF`. That is safe because the file is private and disposable until
    /// the caller records it: if anything fails or the process dies midway, the file is
    /// deleted (here, or by the upgrade's resume, which trusts only journaled, checksummed
    /// files), never repaired. A rollback journal would hold a copy of every page `DROP COLUMN`
    /// rewrites: as big as the table, for nothing. Durability comes from one `fsync` at the end.
    func migrateInPlace(
        _ plan: InPlacePlan, from source: URL, to destination: URL, access: SourceAccess, models: [MappingModel],
        sourceLayout: StoreLayout, destinationLayout: StoreLayout, metadata: StoreMetadata, started: Date
    ) throws -> StepReport? {
        let consumingSource = access == .consumableCopy
        // The working source was checkpointed by prepareSource (or, read only, has nothing in a
        // -wal or -journal), so its main file is whole.
        if consumingSource {
            try fileSystem.rename(source, to: destination, site: "step.in-place-take-source")
            // The rename is durable only once both directories are synced: the runner syncs
            // the destination's when the step ends; the source's is synced here. Otherwise a
            // power loss could bring the source's name back over a file this step has since
            // altered, while the journal vouches for the step's output (found by Scripts/power-loss).
            try fileSystem.sync(
                source.deletingLastPathComponent(), .ordering, site: "step.in-place-sync-source-directory")
            removeStoreFiles(at: source)
        } else {
            // A read-only source (the original store) may in principle be written by a process
            // that ignores the upgrade's locks; such a write is caught before the swap, which
            // refuses a store whose files changed since the run began (``ImmutableStore``).
            // Not synced now: the copy is scratch until the step's single fsync at the end
            // (`step.in-place-sync`), and syncing it here would write every page twice.
            try fileSystem.copyFile(source, to: destination, site: "step.in-place-copy", syncing: nil)
        }
        var reports: [StepReport.EntityMappingReport] = []
        var objects = 0
        do {
            let queue = try DatabaseQueue(path: destination.path, configuration: .forMigrationStep)
            defer { try? queue.close() }
            // A didMigrate stage is the app's code: it may catch a failed statement and go on,
            // which needs the statement undone. It gets a rollback journal.
            let journalMode = try useScratchJournal(stage?.didMigrate == nil ? "OFF" : "DELETE", on: queue)
            try interruptible(queue) {
                try queue.write { db in
                    (reports, objects) = try applyInPlace(
                        plan, in: db, path: destination.path, models: models, sourceLayout: sourceLayout,
                        destinationLayout: destinationLayout, metadata: metadata)
                }
            }
            if leavesNoFreePages {
                try removeFreePages(of: queue)
            }
            try restoreJournal(of: queue, to: journalMode)
            try queue.close()
            // Ordering: the altered file reaches the disk before the journal records the step.
            try fileSystem.sync(destination, .ordering, site: "step.in-place-sync")
        } catch let rejected as InPlaceMigration.Rejected where !consumingSource {
            logger.debug("in-place step rejected", metadata: ["reason": "\(rejected)"])
            removeStoreFiles(at: destination)
            return nil
        } catch let error as DatabaseError where !consumingSource {
            // An ALTER that SQLite refuses although the rehearsal passed, with the source
            // still intact: rebuild instead. (A consumed source can't be read again: the
            // error goes to the caller, which starts over from the original.)
            logger.debug("in-place step failed", metadata: ["error": "\(error)"])
            removeStoreFiles(at: destination)
            return nil
        }
        return StepReport(
            from: sourceModel.name, to: destinationModel.name, kind: StepKind(running: models),
            mappingModels: models.map(\.name),
            entityMappings: reports, rows: reports.reduce(0) { $0 + $1.instances },
            objects: objects,
            seconds: Date().timeIntervalSince(started), strategy: .inPlace)
    }
}
