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
public struct MigrationStep: Sendable {
    /// The schema name the source is attached under.
    public static let sourceSchema = "src"

    public var sourceModel: ObjectModel
    public var destinationModel: ObjectModel
    /// The mapping models to run in order; empty means "infer one".
    public var mappingModels: [MappingModel]
    public var policies: PolicyRegistry
    /// Custom work around the step; its versions must be the step's.
    public var stage: MigrationStage?
    public var logger: Logger
    public var progress: (@Sendable (StepProgress) -> Void)?
    /// Set to stop the step early (``StepCancellation``): it then throws `CancellationError`
    /// and deletes what it wrote, as any failed step does.
    public var cancellation: StepCancellation?
    /// The file-system seam the step copies and removes files through (fault injection).
    package var fileSystem = FileSystem()

    public init(
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
    public enum SourceAccess: Sendable, Equatable {
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
    ///   ``/StepwiseStore/StoreError`` for unreadable stores.
    public func run(source: URL, destination: URL, access: SourceAccess) throws -> StepReport {
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
        let sourceLayout = try StoreLayout(model: sourceModel)
        let destinationLayout = try StoreLayout(model: destinationModel)
        var access = access
        if access == .readOnly, stage?.willMigrate != nil || !ImmutableStore.isAvailable {
            access = .copy
        }
        let workingSource = access == .copy ? try privateCopy(of: source, beside: destination) : source
        defer {
            if access == .copy { removeStoreFiles(at: workingSource) }
        }
        do {
            let (sourceMetadata, drops) = try prepareSource(
                workingSource, layout: sourceLayout, models: models, readOnly: access == .readOnly)
            var metadata = StoreMetadata(model: destinationModel, uuid: sourceMetadata.storeUUID)
            for (key, value) in sourceMetadata.additionalEntries where metadata.additionalEntries[key] == nil {
                metadata.additionalEntries[key] = value
            }
            if var report = try migrateInPlace(
                from: workingSource, to: destination, access: access, models: models,
                sourceLayout: sourceLayout,
                destinationLayout: destinationLayout, metadata: metadata, started: started)
            {
                report.drops = drops
                return report
            }
            try StoreCreator.createStore(at: destination, layout: destinationLayout, metadata: metadata)
            let (reports, objects) = try migrate(
                into: destination, from: workingSource, readOnly: access == .readOnly, models: models,
                sourceLayout: sourceLayout,
                destinationLayout: destinationLayout, metadata: metadata)
            return StepReport(
                from: sourceModel.name, to: destinationModel.name,
                kind: StepKind(running: models),
                mappingModels: models.map(\.name), entityMappings: reports,
                rows: reports.reduce(0) { $0 + $1.instances },
                objects: objects, seconds: Date().timeIntervalSince(started), inPlace: false, drops: drops)
        } catch {
            // Whatever is at `destination` now was written by this step (an existing file was
            // refused above), so it is safe to delete: a failed step leaves nothing behind.
            removeStoreFiles(at: destination)
            throw error
        }
    }

    /// Runs the step; `sourceIsPrivateCopy` and `consumingSource` are ``SourceAccess/privateCopy``
    /// and ``SourceAccess/consumableCopy``, neither is ``SourceAccess/copy``.
    public func run(
        source: URL, destination: URL, sourceIsPrivateCopy: Bool = false, consumingSource: Bool = false
    ) throws -> StepReport {
        let access: SourceAccess =
            consumingSource ? .consumableCopy : sourceIsPrivateCopy ? .privateCopy : .copy
        return try run(source: source, destination: destination, access: access)
    }

    /// The mapping models to run: the given ones, or the inferred one.
    func resolvedMappingModels() throws -> [MappingModel] {
        if !mappingModels.isEmpty { return mappingModels }
        return [try MappingInference.inferMapping(from: sourceModel, to: destinationModel)]
    }

    /// Copies the source's generation (its main file, `-wal` and `-journal`) beside the
    /// destination (same file system, private). Not checkpointed here: `prepareSource`
    /// folds the WAL in when it opens the copy.
    private func privateCopy(of source: URL, beside destination: URL) throws -> URL {
        try StoreFileCheck.check(source)
        let copy = StoreGeneration(
            mainFile: destination.deletingLastPathComponent()
                .appendingPathComponent(".stepwise-source-\(UUID().uuidString).sqlite"))
        do {
            try StoreGeneration(mainFile: source).copy(
                to: copy, checkpointing: nil, fileSystem: fileSystem, site: "step.private-copy")
        } catch {
            removeStoreFiles(at: copy.mainFile)
            throw error
        }
        return copy.mainFile
    }

    /// Folds the source's WAL in, runs `willMigrate`, then reads the source's metadata and
    /// counts what the step will drop (``DroppedData``) in the source as the mappings see it.
    /// A ``SourceAccess/readOnly`` source is only read: it has no WAL to fold in, and no
    /// `willMigrate` runs on it.
    private func prepareSource(
        _ url: URL, layout: StoreLayout, models: [MappingModel], readOnly: Bool
    ) throws -> (StoreMetadata, [DroppedData]) {
        let queue = readOnly ? try ImmutableStore.openQueue(at: url) : try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        if !readOnly {
            // A TRUNCATE checkpoint moves every committed WAL frame into the main file, so the
            // attached copy is read whole even if SQLite opens it without its WAL.
            try queue.writeWithoutTransaction { db in
                _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
            if let willMigrate = stage?.willMigrate {
                try queue.write { db in try willMigrate(db, ObjectContext(db, layout: layout)) }
            }
        }
        let drops = DroppedData.planned(by: models, from: sourceModel, to: destinationModel)
        return try queue.read { db in
            (
                try StoreMetadata.read(from: db, path: url.path),
                try DropCounter(layout: layout).counting(drops, in: db)
            )
        }
    }

    /// Runs every mapping model into the destination, then validates and writes metadata.
    private func migrate(
        into destination: URL, from source: URL, readOnly: Bool, models: [MappingModel], sourceLayout: StoreLayout,
        destinationLayout: StoreLayout, metadata: StoreMetadata
    ) throws -> (reports: [StepReport.EntityMappingReport], objects: Int) {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            SQLExpressionCompiler.registerFunctions(in: db)
        }
        let queue = try DatabaseQueue(path: destination.path, configuration: configuration)
        defer { try? queue.close() }
        var reports: [StepReport.EntityMappingReport] = []
        try interruptible(queue) {
            try rebuild(
                queue, from: source, readOnly: readOnly, models: models, sourceLayout: sourceLayout,
                destinationLayout: destinationLayout, metadata: metadata, reports: &reports)
        }
        // Back to WAL, Core Data's journal mode (recorded in the file's header), then make the
        // finished file durable on its own.
        let objects = try queue.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA main.journal_mode = WAL")
            return try Self.objectCount(in: db, layout: destinationLayout)
        }
        try queue.close()
        try fileSystem.sync(destination, site: "step.sync-output")
        return (reports, objects)
    }

    /// Runs `body` with `queue`'s statements interruptible by ``cancellation``.
    private func interruptible<T>(_ queue: DatabaseQueue, _ body: () throws -> T) throws -> T {
        guard let cancellation else { return try body() }
        return try cancellation.interrupting(queue, body)
    }

    /// The rebuild proper, in one transaction: every mapping model's passes, the stage's
    /// `didMigrate`, validation and the metadata.
    private func rebuild(
        _ queue: DatabaseQueue, from source: URL, readOnly: Bool, models: [MappingModel], sourceLayout: StoreLayout,
        destinationLayout: StoreLayout, metadata: StoreMetadata, reports: inout [StepReport.EntityMappingReport]
    ) throws {
        try queue.writeWithoutTransaction { db in
            // The destination is new, private, and deleted on any error, so durability only
            // matters once it is complete. An in-memory rollback journal instead of the WAL
            // StoreCreator left: every page is written once, into the main file, rather than
            // into the -wal and again by the checkpoint (which also held a second copy of the
            // store on disk). The journal stays small: SQLite journals only pages that existed
            // when the transaction began, and the new file held only its empty tables. It still
            // undoes a failed statement, which the set-based path relies on.
            _ = try String.fetchOne(db, sql: "PRAGMA main.journal_mode = MEMORY")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            if readOnly {
                try ImmutableStore.attach(source, as: Self.sourceSchema, in: db)
            } else {
                try db.execute(
                    sql: "ATTACH DATABASE ? AS \(Self.sourceSchema.quotedSQLIdentifier)", arguments: [source.path])
            }
            defer { try? db.execute(sql: "DETACH DATABASE \(Self.sourceSchema.quotedSQLIdentifier)") }
            try db.inTransaction {
                let manager = MigrationManager(
                    db: db, sourceModel: sourceModel, destinationModel: destinationModel, sourceLayout: sourceLayout,
                    destinationLayout: destinationLayout, policies: policies, logger: logger, progress: progress)
                manager.cancellation = cancellation
                var policiesByMapping: [(MappingModel, EntityMapping, EntityMigrationPolicy?)] = []
                for model in models {
                    manager.currentMappingModel = model
                    do {
                        let started = try startMappings(model, manager: manager)
                        policiesByMapping += started.map { (model, $0.0, $0.1) }
                        for (mapping, policy) in started {
                            try cancellation?.check()
                            let (instances, setBased) = try manager.createInstances(for: mapping, policy: policy)
                            try manager.runHook(of: mapping) {
                                try policy?.endInstanceCreation(for: mapping, manager: manager)
                            }
                            reports.append(
                                .init(name: mapping.name, instances: instances, links: 0, setBased: setBased))
                        }
                        for (mapping, policy) in started {
                            try cancellation?.check()
                            let links = try manager.createRelationships(for: mapping, policy: policy)
                            try manager.runHook(of: mapping) {
                                try policy?.endRelationshipCreation(for: mapping, manager: manager)
                            }
                            if let index = reports.lastIndex(where: { $0.name == mapping.name }) {
                                reports[index].links = links
                            }
                        }
                    } catch let error as MappingError {
                        throw error.adding(mappingModel: model.name)
                    }
                }
                try manager.completeInverses()
                if let didMigrate = stage?.didMigrate {
                    try didMigrate(db, manager.destination)
                }
                try manager.validateDestination()
                for (model, mapping, policy) in policiesByMapping {
                    try manager.runHook(of: mapping, in: model) {
                        try policy?.performCustomValidation(for: mapping, manager: manager)
                    }
                    try manager.runHook(of: mapping, in: model) { try policy?.end(mapping, manager: manager) }
                }
                try metadata.write(to: db, path: queue.path)
                return .commit
            }
        }
    }

    /// Tries the in-place path (``InPlacePlan``): alter a copy of the source (or, when the
    /// source is consumed, the source itself, moved to `destination`) instead of rebuilding.
    /// Returns nil, leaving nothing at `destination` and the source where it was, when the
    /// step needs rows rewritten or the altered schema wouldn't be exactly the destination's.
    ///
    /// **Without a rollback journal.** The plan is first rehearsed on an empty copy of the
    /// schema (``InPlaceMigration/rehearse(_:schemaOf:destination:)``), so the real run is only
    /// started once it is known to succeed; its file is then altered with `journal_mode = OFF`
    /// and `synchronous = OFF`. That is safe because the file is private and disposable until
    /// the caller records it: if anything fails or the process dies midway, the file is
    /// deleted (here, or by the upgrade's resume, which trusts only journaled, checksummed
    /// files), never repaired. A rollback journal would hold a copy of every page `DROP COLUMN`
    /// rewrites: as big as the table, for nothing. Durability comes from one `fsync` at the end.
    private func migrateInPlace(
        from source: URL, to destination: URL, access: SourceAccess, models: [MappingModel],
        sourceLayout: StoreLayout, destinationLayout: StoreLayout, metadata: StoreMetadata, started: Date
    ) throws -> StepReport? {
        guard models.count == 1, stage?.willMigrate == nil,
            let plan = InPlacePlan.make(mapping: models[0], source: sourceLayout, destination: destinationLayout)
        else { return nil }
        let consumingSource = access == .consumableCopy
        let sourceQueue = access == .readOnly ? try ImmutableStore.openQueue(at: source) : try readOnlyQueue(source)
        defer { try? sourceQueue.close() }
        let rehearsed = try sourceQueue.read { db in
            try InPlaceMigration.rehearse(plan, schemaOf: db, destination: destinationLayout)
        }
        guard rehearsed else {
            logger.debug("in-place step rejected by its rehearsal")
            return nil
        }
        // The working source was checkpointed by prepareSource (or, read only, has nothing in a
        // -wal or -journal), so its main file is whole.
        if consumingSource {
            try sourceQueue.close()
            try fileSystem.rename(source, to: destination, site: "step.in-place-take-source")
            removeStoreFiles(at: source)
        } else {
            // A read-only source (the original store) may in principle be written by a process
            // that ignores the upgrade's locks; such a write is caught before the swap, which
            // refuses a store whose files changed since the run began (``ImmutableStore``).
            try sourceQueue.close()
            // Not synced now: the copy is scratch until the step's single fsync at the end
            // (`step.in-place-sync`), and syncing it here would write every page twice.
            try fileSystem.copyFile(source, to: destination, site: "step.in-place-copy", syncing: false)
        }
        var configuration = Configuration()
        configuration.prepareDatabase { db in SQLExpressionCompiler.registerFunctions(in: db) }
        var reports: [StepReport.EntityMappingReport] = []
        var objects = 0
        do {
            let queue = try DatabaseQueue(path: destination.path, configuration: configuration)
            defer { try? queue.close() }
            let journalMode = try queue.writeWithoutTransaction { db in
                let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "delete"
                // A didMigrate stage is the app's code: it may catch a failed statement and go
                // on, which needs the statement undone. It gets a rollback journal.
                let scratch = stage?.didMigrate == nil ? "OFF" : "DELETE"
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = \(scratch)")
                try db.execute(sql: "PRAGMA synchronous = OFF")
                return mode
            }
            try interruptible(queue) {
                try queue.write { db in
                    try InPlaceMigration.apply(plan, in: db, destination: destinationLayout)
                    let manager = MigrationManager(
                        db: db, sourceModel: sourceModel, destinationModel: destinationModel,
                        sourceLayout: sourceLayout,
                        destinationLayout: destinationLayout, policies: policies, logger: logger, progress: progress)
                    manager.currentMappingModel = models[0]
                    manager.keepsPrimaryKeys = true
                    if let didMigrate = stage?.didMigrate {
                        try didMigrate(db, manager.destination)
                    }
                    try manager.validateDestination()
                    try metadata.write(to: db, path: destination.path)
                    let rows = try Self.rowCounts(in: db, layout: destinationLayout)
                    for mapping in models[0].entityMappings where mapping.kind == .copy || mapping.kind == .transform {
                        guard let name = mapping.destinationEntity, let entity = destinationLayout.entity(named: name)
                        else { continue }
                        reports.append(
                            .init(name: mapping.name, instances: rows[entity.number] ?? 0, links: 0, setBased: true))
                    }
                    objects = rows.values.reduce(0, +)  // objectCount, from the counts already made
                }
            }
            try queue.writeWithoutTransaction { db in
                // Back to the source's journal mode (a Core Data store is in WAL mode), which
                // is recorded in the file's header.
                let known = ["delete", "truncate", "persist", "memory", "wal"]
                let restored = known.contains(journalMode.lowercased()) ? journalMode.uppercased() : "DELETE"
                _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = \(restored)")
            }
            try queue.close()
            try fileSystem.sync(destination, site: "step.in-place-sync")
        } catch let rejected as InPlaceMigration.Rejected where !consumingSource {
            logger.debug("in-place step rejected", metadata: ["differences": "\(rejected.differences)"])
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
            seconds: Date().timeIntervalSince(started), inPlace: true)
    }

    /// A read-only connection to a step's private source, for schema reads.
    private func readOnlyQueue(_ url: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    /// Creates each entity mapping's lookup table and policy, and calls the policies' `begin`.
    private func startMappings(_ model: MappingModel, manager: MigrationManager) throws
        -> [(EntityMapping, EntityMigrationPolicy?)]
    {
        var started: [(EntityMapping, EntityMigrationPolicy?)] = []
        for mapping in model.entityMappings {
            try manager.createLookupTable(for: mapping)
            var policy: EntityMigrationPolicy?
            if let name = mapping.policyName, !name.isEmpty {
                guard let made = policies.makePolicy(named: name) else {
                    throw MappingError(.unknownPolicy(name), entityMapping: mapping.name)
                }
                policy = made
            }
            try manager.runHook(of: mapping) { try policy?.begin(mapping, manager: manager) }
            started.append((mapping, policy))
        }
        return started
    }

    /// The rows of each entity (by `Z_ENT`), one query per entity table: `COUNT(*)` where the
    /// table holds one entity (SQLite answers it from the table's narrowest index, without
    /// reading its rows), else grouped by `Z_ENT` (Core Data indexes `Z_ENT` in such tables).
    static func rowCounts(in db: Database, layout: StoreLayout) throws -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for table in layout.tables {
            guard case .entity = table.kind, !table.entityNumbers.isEmpty else { continue }
            let name = table.name.quotedSQLIdentifier
            if table.entityNumbers.count == 1 {
                counts[table.entityNumbers[0]] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(name)") ?? 0
                continue
            }
            for row in try Row.fetchAll(db, sql: "SELECT \"Z_ENT\", COUNT(*) FROM \(name) GROUP BY \"Z_ENT\"") {
                let number: Int = row[0] ?? 0
                counts[number, default: 0] += row[1] ?? 0
            }
        }
        return counts
    }

    /// The rows of every entity table of a store, every entity together.
    static func objectCount(in db: Database, layout: StoreLayout) throws -> Int {
        try rowCounts(in: db, layout: layout).values.reduce(0, +)
    }

    /// Deletes a store file and its companions, ignoring missing ones and failures: it only
    /// ever runs on the way out of an error, which matters more.
    func removeStoreFiles(at url: URL) {
        try? StoreGeneration(mainFile: url).remove(fileSystem: fileSystem, site: "step.remove-output")
    }
}
