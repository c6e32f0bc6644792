import Foundation
import GRDB
import Logging
import StepwiseModel
import StepwiseStore

/// Carries a store from one model version to the next, writing a new destination file:
/// the work of Core Data's `migrateStore(from:…to:…)` for one mapping.
///
/// ```swift
/// let step = MigrationStep(from: v1, to: v2, mappingModels: [recipes1to2], policies: policies)
/// let report = try step.run(source: oldStore, destination: newStore)
/// ```
///
/// **The source is never modified.** Unless told it already works on a private copy, the
/// step copies the source (and its `-wal`, so rows that live only in the WAL are migrated)
/// beside the destination, checkpoints the copy, and reads that; or, for a source with
/// nothing to fold in, reads it through a read-only connection (``SourceAccess/readOnly``).
///
/// **What runs.** With no mapping model given, the mapping is inferred (``MappingInference``).
/// The step then chooses its ``StepStrategy`` in one place
/// (``chooseStrategy(among:source:access:models:layouts:)``): a mapping that only renames, adds
/// or drops alters a copy of the source in place; one that mixes plain copies with real
/// mappings, and names no policy, rebuilds only the mapped tables in such a copy (the report's
/// ``StepReport/keptTables`` lists the others); anything else builds a new file. The report's
/// ``StepReport/strategy`` says which.
/// Each mapping model then runs pass 1 (instances) and pass 2 (relationships) for all its
/// entity mappings; several mapping models run in sequence into the same destination. Then
/// the stage's `didMigrate`, then pass 3 (validation), then the destination metadata is
/// written: the destination version's hashes, identifiers and name, the source's store UUID
/// and the source's other metadata keys.
///
/// **Transactions.** All the work is one transaction on the destination, with the source
/// attached as `src`. The destination file is new and private to the step, so durability
/// only matters at the end: it is written with `synchronous = OFF`, then checkpointed and
/// synced with `synchronous = FULL` before ``run(source:destination:access:)``
/// returns. On any error the destination and the private copy are deleted.
package struct MigrationStep: Sendable {
    /// The schema name the source is attached under.
    package static let sourceSchema = "src"

    package var sourceModel: ObjectModel
    package var destinationModel: ObjectModel
    /// The mapping models to run in order; empty means "infer one".
    package var mappingModels: [MappingModel]
    package var policies: PolicyRegistry
    /// Custom work around the step; its versions must be the step's.
    package var stage: MigrationStage?
    package var logger: Logger
    package var progress: (@Sendable (StepProgress) -> Void)?
    /// Set to stop the step early (``StepCancellation``): it then throws `CancellationError`
    /// and deletes what it wrote, as any failed step does.
    package var cancellation: StepCancellation?
    /// The file-system seam the step copies and removes files through (fault injection).
    package var fileSystem = FileSystem()
    /// Whether a step mixing plain copies with real mappings may rebuild only the mapped
    /// tables (``PartialRebuildPlan``). Tests of the whole-store rebuild turn it off.
    package var allowsPartialRebuild = true
    /// Whether the step's file ends with no free page, where the step altered a copy of its
    /// source (``FreePages``). The step runner turns it off for every step but the run's
    /// last: the next step builds its tables in those free pages, which overwrites them.
    package var leavesNoFreePages = true
    /// Where the source's external-storage values that live in files are read from
    /// (``/StepwiseStore/ExternalDataFolder``); nil for the folder beside `source`. An upgrade
    /// reading copies names the folder beside the original store.
    package var externalData: ExternalDataFolder?

    package init(
        from sourceModel: ObjectModel, to destinationModel: ObjectModel, mappingModels: [MappingModel] = [],
        policies: PolicyRegistry = PolicyRegistry(), stage: MigrationStage? = nil,
        logger: Logger = SilentLogger.logger,
        progress: (@Sendable (StepProgress) -> Void)? = nil
    ) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        self.mappingModels = mappingModels
        self.policies = policies
        self.stage = stage
        self.logger = logger
        self.progress = progress
    }

    /// How a step may use its source file.
    package enum SourceAccess: Sendable, Equatable {
        /// Somebody else's store: the step copies it (and its `-wal`) first, and reads the copy.
        case copy
        /// A checkpointed copy nobody else uses (the step runner's own intermediate file): read
        /// in place. `willMigrate` stages write to it.
        case privateCopy
        /// A private copy, as ``privateCopy``, that the caller is done with once the step has
        /// run (the step runner's copy of the original store, which it deletes afterwards): an
        /// in-place step moves the file to the destination and alters it there instead of
        /// copying it. On failure the source may be gone; the caller must be able to make it
        /// again.
        case consumableCopy
        /// A private copy, as ``privateCopy``, that the caller keeps to resume from (the step
        /// runner's previous checkpoint). An in-place step copies it. A step that rebuilds only
        /// what it maps takes it, moving it to the destination: copying it would write the
        /// whole store again at every step, for one or two tables rebuilt. If that step fails,
        /// or the process dies during it, the checkpoint is gone; the caller must start over
        /// from an earlier one.
        case checkpoint
        /// A store that must not change and has nothing to fold in: no `-wal` and no hot
        /// `-journal` (the caller checked). Read in place through a read-only connection
        /// (`mode=ro`), never copied whole; an in-place step copies it to the destination. A
        /// `willMigrate` stage, which writes to the source, makes the step fall back to
        /// ``copy``, and so does an SQLite built without URI filenames (a read-only `ATTACH`
        /// needs one).
        case readOnly
    }

    /// Runs the step.
    ///
    /// - parameters:
    ///   - source: The store at ``sourceModel``'s version. Never modified unless `access`
    ///     says it is a private copy.
    ///   - destination: Where to write the new store; nothing may exist there.
    ///   - access: How the step may use `source` (``SourceAccess``).
    /// - throws: ``MappingError`` naming the mapping, entity, property and source row;
    ///   ``/StepwiseStore/StoreError`` for unreadable stores, or a file the step can't write.
    package func run(source: URL, destination: URL, access: SourceAccess = .copy) throws -> StepReport {
        do {
            return try runReportingFileSystemErrors(source: source, destination: destination, access: access)
        } catch let error as FileSystemError {
            // A package type: an app sees the failed call as an error about that file.
            throw StoreError(path: error.path, wrapping: error)
        }
    }

    /// ``run(source:destination:access:)``, throwing a failed file-system call as the
    /// `FileSystemError` it is, call site included: the upgrader reports it as an
    /// `UpgradeError` naming the store.
    package func runReportingFileSystemErrors(
        source: URL, destination: URL, access: SourceAccess = .copy
    ) throws -> StepReport {
        if externalData == nil {
            // The files of a store's external values sit beside it (ExternalDataFolder); name
            // that folder before anything reads a copy of the store elsewhere.
            var step = self
            step.externalData = ExternalDataFolder(store: source)
            return try step.runReportingFileSystemErrors(source: source, destination: destination, access: access)
        }
        let started = Date()
        // Refuse an existing destination before anything else: on failure the step deletes
        // what it wrote at `destination`, which must never be somebody else's file.
        try StoreGeneration(mainFile: destination).refuseExisting()
        if let stage, stage.from != sourceModel.name || stage.to != destinationModel.name {
            throw MappingError(
                .invalidValue(
                    "the stage is for '\(stage.from)' → '\(stage.to)', not this step's '\(sourceModel.name)' → '\(destinationModel.name)'"
                ))
        }
        try cancellation?.check()
        let models = try resolvedMappingModels()
        // Both versions must be laid out before anything is copied: a model Core Data's layout
        // can't hold is refused here, leaving nothing behind. The layouts the step uses are
        // made again once the source's schema can be read (``StepLayouts``).
        _ = try StoreLayout(model: sourceModel)
        _ = try StoreLayout(model: destinationModel)
        var access = access
        if access == .readOnly, stage?.willMigrate != nil || !ImmutableStore.isAvailable {
            access = .copy
        }
        let workingSource = access == .copy ? try privateCopy(of: source, beside: destination) : source
        defer {
            if access == .copy { removeStoreFiles(at: workingSource) }
        }
        do {
            let (sourceMetadata, layouts, drops) = try prepareSource(
                workingSource, models: models, readOnly: access == .readOnly)
            // As the source has it but the target's hashes; a rebuild names its own release (rebuildStore).
            let metadata = destinationMetadata(from: sourceMetadata, drops: drops)
            var report = try run(
                StepStrategy.allCases[...], from: workingSource, to: destination, access: access, models: models,
                layouts: layouts, metadata: metadata, started: started)
            report.drops = drops
            return report
        } catch {
            // Whatever is at `destination` now was written by this step (an existing file was
            // refused above), so it is safe to delete: a failed step leaves nothing behind.
            removeStoreFiles(at: destination)
            throw error
        }
    }

    /// Runs the strategy ``chooseStrategy(among:source:access:models:layouts:)`` picks among
    /// `candidates`. A strategy refused while it runs, with the source intact, gives way to the
    /// next one in order of preference; the rebuild, last, is never refused.
    private func run(
        _ candidates: ArraySlice<StepStrategy>, from source: URL, to destination: URL, access: SourceAccess,
        models: [MappingModel], layouts: StepLayouts, metadata: StoreMetadata, started: Date
    ) throws -> StepReport {
        let chosen = try chooseStrategy(
            among: candidates, source: source, access: access, models: models, layouts: layouts)
        switch chosen {
        case .inPlace(let plan):
            if let report = try migrateInPlace(
                plan, from: source, to: destination, access: access, models: models, sourceLayout: layouts.source,
                destinationLayout: layouts.alteredDestination, metadata: metadata, started: started)
            {
                return report
            }
        case .partialRebuild(let plan):
            if let report = try migratePartially(
                plan, from: source, to: destination, access: access, models: models, sourceLayout: layouts.source,
                destinationLayout: layouts.alteredDestination, metadata: metadata, started: started)
            {
                return report
            }
        case .rebuild:
            return try rebuildStore(
                from: source, to: destination, access: access, models: models, layouts: layouts, metadata: metadata,
                started: started)
        }
        let later = candidates.drop { $0 != chosen.strategy }.dropFirst()
        return try run(
            later, from: source, to: destination, access: access, models: models, layouts: layouts,
            metadata: metadata, started: started)
    }

    /// The mapping models to run: the given ones, or the inferred one.
    func resolvedMappingModels() throws -> [MappingModel] {
        if !mappingModels.isEmpty {
            // Mappings made in code may name a whole composite too (see the loaders').
            return mappingModels.map {
                $0.expandingCompositeMappings(source: sourceModel, destination: destinationModel)
            }
        }
        return [try MappingInference.inferMapping(from: sourceModel, to: destinationModel)]
    }
}
