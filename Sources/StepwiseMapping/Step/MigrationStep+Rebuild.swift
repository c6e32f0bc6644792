import Foundation
import GRDB
import Logging
import StepwiseModel
import StepwiseStore

// The rebuild (``StepStrategy/rebuild``): a new store written by the three passes, in one transaction.
extension MigrationStep {
    /// Runs the rebuild (``StepStrategy/rebuild``): creates a new store at `destination` in
    /// the destination version's newest forms and runs every mapping model into it
    /// (``migrate(into:from:readOnly:models:sourceLayout:destinationLayout:metadata:)``).
    ///
    /// - parameter metadata: The destination's metadata as an in-place step would keep it;
    ///   the rebuild names its own release and auto-vacuum level.
    func rebuildStore(
        from source: URL, to destination: URL, access: SourceAccess, models: [MappingModel], layouts: StepLayouts,
        metadata: StoreMetadata, started: Date
    ) throws -> StepReport {
        var metadata = metadata
        // A rebuilt file has the newest forms whatever release wrote the source, so it names
        // the release of those forms (``StepLayouts``): dropping the key made the next
        // upgrade take it for a store of unknown release.
        metadata.additionalEntries[StoreMetadata.frameworkVersionKey] = .int(
            CoreDataRelease.newest.frameworkVersion)
        metadata.additionalEntries[StoreMetadata.autoVacuumLevelKey] = StoreMetadata.newStoreAutoVacuumLevel
        let destinationLayout = layouts.rebuiltDestination
        try StoreCreator.createStore(at: destination, layout: destinationLayout, metadata: metadata)
        let (reports, objects) = try migrate(
            into: destination, from: source, readOnly: access == .readOnly, models: models,
            sourceLayout: layouts.source, destinationLayout: destinationLayout, metadata: metadata)
        return StepReport(
            from: sourceModel.name, to: destinationModel.name, kind: StepKind(running: models),
            mappingModels: models.map(\.name), entityMappings: reports, rows: reports.reduce(0) { $0 + $1.instances },
            objects: objects, seconds: Date().timeIntervalSince(started), strategy: .rebuild)
    }

    /// Runs every mapping model into the destination, then validates and writes metadata.
    func migrate(
        into destination: URL, from source: URL, readOnly: Bool, models: [MappingModel], sourceLayout: StoreLayout,
        destinationLayout: StoreLayout, metadata: StoreMetadata
    ) throws -> (reports: [StepReport.EntityMappingReport], objects: Int) {
        let queue = try DatabaseQueue(path: destination.path, configuration: .forMigrationStep)
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
        // Ordering: the new file reaches the disk before the journal records the step.
        try fileSystem.sync(destination, .ordering, site: "step.sync-output")
        return (reports, objects)
    }

    /// Runs `body` with `queue`'s statements interruptible by ``cancellation``.
    func interruptible<T>(_ queue: DatabaseQueue, _ body: () throws -> T) throws -> T {
        guard let cancellation else { return try body() }
        return try cancellation.interrupting(queue, body)
    }

    /// The rebuild proper, in one transaction: every mapping model's passes, the stage's
    /// `didMigrate`, validation, the uniqueness constraints (``UniquenessCheckedAtEnd``), Core
    /// Data's private tables (``PrivateTableCopy``) and the metadata.
    func rebuild(
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
                // Derived values are computed once the rows are written, not row by row.
                let derivedTriggers = try DerivedValues.suspendTriggers(in: db)
                // Uniqueness is checked when the step ends, as Core Data's save checks it.
                let uniqueness = try UniquenessCheckedAtEnd(db, layout: destinationLayout)
                let manager = MigrationManager(
                    db: db, sourceModel: sourceModel, destinationModel: destinationModel, sourceLayout: sourceLayout,
                    destinationLayout: destinationLayout, policies: policies, logger: logger, progress: progress,
                    externalData: externalData)
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
                            if manager.mappingModelHasPolicies,
                                policy == nil || policy?.createsRelationshipsByDefault == true
                            {
                                // Set-based links write one end of a one-to-one; the policies
                                // still to run in stage 2 see both, as Core Data keeps them.
                                try manager.completeInverses(oneToOnesOnly: true)
                            }
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
                // Before validation, which checks a required derived attribute has a value.
                try DerivedValues.computeValues(destinationLayout, in: db)
                try DerivedValues.restore(derivedTriggers, in: db)
                try manager.validateDestination()
                for (model, mapping, policy) in policiesByMapping {
                    try manager.runHook(of: mapping, in: model) {
                        try policy?.performCustomValidation(for: mapping, manager: manager)
                    }
                    try manager.runHook(of: mapping, in: model) { try policy?.end(mapping, manager: manager) }
                }
                try uniqueness.restore(manager)
                let privateTables = PrivateTablePlan(
                    models: models, source: sourceLayout, destination: destinationLayout)
                var metadata = metadata
                if try PrivateTableCopy.run(privateTables, manager: manager) > 0 {
                    metadata.additionalEntries[CoreDataPrivateTables.cloudKitZoneFetchMetadataKey] = .dictionary([:])
                }
                try metadata.write(to: db, path: queue.path)
                return .commit
            }
        }
    }

    /// Creates each entity mapping's lookup table and policy, and calls the policies' `begin`.
    func startMappings(_ model: MappingModel, manager: MigrationManager) throws
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
}
