import Foundation
import GRDB
import Logging
import StepwiseModel
import StepwiseStore

// The partial rebuild: a copy of the source in which only the mapped tables are rebuilt.
extension MigrationStep {
    /// Runs the partial rebuild (``StepStrategy/partialRebuild``) with the plan
    /// ``chooseStrategy(among:source:access:models:layouts:)`` made and rehearsed: in a copy of
    /// the source (or the source itself, taken when ``SourceAccess`` allows), rebuild only the
    /// tables real mappings write, and keep the plain copies' tables as they are. Returns nil,
    /// leaving nothing at `destination` and the source where it was, when the result is
    /// refused while it runs (the step then rebuilds the whole store); with a taken source,
    /// which can't be read again, that failure is thrown instead.
    ///
    /// **Durability and failure.** As for the in-place path, the file is private and
    /// disposable until the caller records it: it is written with `synchronous = OFF` and
    /// synced once at the end; on any failure it is deleted, never repaired. Unlike the
    /// in-place path it keeps a rollback journal (in memory): the passes rely on a failed
    /// statement being undone. That journal stays small, because SQLite journals only pages
    /// that existed when the transaction began and are then changed: the kept tables aren't
    /// changed, and a rebuilt table's pages are new.
    func migratePartially(
        _ plan: PartialRebuildPlan, from source: URL, to destination: URL, access: SourceAccess,
        models: [MappingModel], sourceLayout: StoreLayout, destinationLayout: StoreLayout, metadata: StoreMetadata,
        started: Date
    ) throws -> StepReport? {
        // A source the caller is done with, or may give up (``SourceAccess/checkpoint``), is
        // taken: the step then writes only the tables it rebuilds. Any other is copied, not
        // synced now: the copy is scratch until the step's single fsync at the end.
        let consumingSource = access == .consumableCopy || access == .checkpoint
        if consumingSource {
            try fileSystem.rename(source, to: destination, site: "step.partial-take-source")
            // As for an in-place step: both directories of the rename synced before the
            // journal vouches for the output (the runner syncs the destination's).
            try fileSystem.sync(
                source.deletingLastPathComponent(), .ordering, site: "step.partial-sync-source-directory")
            removeStoreFiles(at: source)
        } else {
            try fileSystem.copyFile(source, to: destination, site: "step.partial-copy", syncing: nil)
        }
        var reports: [StepReport.EntityMappingReport] = []
        var objects = 0
        do {
            let queue = try DatabaseQueue(path: destination.path, configuration: .forMigrationStep)
            defer { try? queue.close() }
            let journalMode = try useScratchJournal("MEMORY", on: queue)
            // The replaced tables' pages are freed unzeroed: the next step's tables overwrite
            // them, and the run's last step removes what is left (``FreePages``).
            try queue.writeWithoutTransaction { db in try FreePages.freeWithoutZeroing(in: db) }
            try interruptible(queue) {
                try queue.writeWithoutTransaction { db in
                    try db.inTransaction {
                        // The source's derivations go, before a moved table takes them along;
                        // the destination's are created once every row is written.
                        _ = try DerivedValues.suspendTriggers(in: db)
                        try PartialRebuild.prepare(plan, in: db, destination: destinationLayout)
                        reports = try runPartialPasses(
                            plan, models[0], in: db, sourceLayout: plan.movedSource(sourceLayout),
                            destinationLayout: destinationLayout)
                        try PartialRebuild.finish(plan, in: db, destination: destinationLayout)
                        try DerivedValues.computeValues(destinationLayout, in: db)
                        try DerivedValues.createTriggers(destinationLayout, in: db)
                        try metadata.write(to: db, path: destination.path)
                        objects = try Self.objectCount(in: db, layout: destinationLayout)
                        return .commit
                    }
                }
            }
            if leavesNoFreePages {
                try removeFreePages(of: queue)
            }
            try restoreJournal(of: queue, to: journalMode)
            try queue.close()
            // Ordering: the rebuilt file reaches the disk before the journal records the step.
            try fileSystem.sync(destination, .ordering, site: "step.partial-sync")
        } catch {
            // Whatever is at `destination` was written by this step. With the source intact, a
            // rejected result falls back to the whole rebuild; a taken source can't be read
            // again, so the error goes up and the caller starts over from an earlier file.
            removeStoreFiles(at: destination)
            if !consumingSource, error is InPlaceMigration.Rejected {
                logger.debug("partial rebuild rejected", metadata: ["error": "\(error)"])
                return nil
            }
            throw error
        }
        var report = StepReport(
            from: sourceModel.name, to: destinationModel.name, kind: StepKind(running: models),
            mappingModels: models.map(\.name), entityMappings: reports, rows: reports.reduce(0) { $0 + $1.instances },
            objects: objects, seconds: Date().timeIntervalSince(started), strategy: .partialRebuild)
        report.keptTables = plan.keptTables.sorted()
        return report
    }

    /// Core Data's three stages over the partial plan, uniqueness checked at the end
    /// (``UniquenessCheckedAtEnd``): the kept mappings' rows are associated
    /// with themselves (their keys don't change) instead of being made again, and only their
    /// relationship mappings whose links live in rebuilt tables run in stage 2.
    private func runPartialPasses(
        _ plan: PartialRebuildPlan, _ model: MappingModel, in db: Database, sourceLayout: StoreLayout,
        destinationLayout: StoreLayout
    ) throws -> [StepReport.EntityMappingReport] {
        // Uniqueness is checked when the step ends, as in a whole rebuild; only the rebuilt
        // tables' constraints, since no row of a kept table is written.
        let uniqueness = try UniquenessCheckedAtEnd(
            db, layout: destinationLayout, tables: Set(plan.rebuiltTables.map(\.name)))
        let manager = MigrationManager(
            db: db, sourceModel: sourceModel, destinationModel: destinationModel, sourceLayout: sourceLayout,
            destinationLayout: destinationLayout, policies: policies, logger: logger, progress: progress,
            sourceSchema: "main", externalData: externalData)
        manager.cancellation = cancellation
        manager.currentMappingModel = model
        var reports: [StepReport.EntityMappingReport] = []
        var started: [(EntityMapping, EntityMigrationPolicy?)] = []
        do {
            // No policy runs here (``PartialRebuildPlan`` refuses a mapping model that names
            // one), so there is no `begin` to call: every mapping gets its associations first,
            // since a mapping's pass 1 may look up a later one's, then stage 1 runs in order.
            var keptRows: [String: Int] = [:]
            for mapping in model.entityMappings {
                if plan.keptMappings.contains(mapping.name) {
                    keptRows[mapping.name] = try manager.associateInPlace(mapping)
                } else {
                    _ = try manager.createLookupTable(for: mapping)
                }
            }
            for mapping in model.entityMappings {
                if let rows = keptRows[mapping.name] {
                    reports.append(.init(name: mapping.name, instances: rows, links: 0, setBased: true))
                } else {
                    try cancellation?.check()
                    let (instances, setBased) = try manager.createInstances(for: mapping, policy: nil)
                    reports.append(.init(name: mapping.name, instances: instances, links: 0, setBased: setBased))
                }
                started.append((linksInRebuiltTables(of: mapping, plan: plan, destination: destinationLayout), nil))
            }
            for (mapping, policy) in started where !mapping.relationshipMappings.isEmpty || policy != nil {
                try cancellation?.check()
                let links = try manager.createRelationships(for: mapping, policy: policy)
                try manager.runHook(of: mapping) { try policy?.endRelationshipCreation(for: mapping, manager: manager) }
                if let index = reports.lastIndex(where: { $0.name == mapping.name }) { reports[index].links = links }
            }
        } catch let error as MappingError {
            throw error.adding(mappingModel: model.name)
        }
        // After stage 2, whose relationship mappings may read a kept table's keys as the
        // source's (they are, until moved), and before the inverses are completed from them.
        for remap in plan.remappedForeignKeys {
            try manager.moveKeys(remap)
        }
        try manager.completeInverses()
        if let didMigrate = stage?.didMigrate {
            try didMigrate(db, manager.destination)
        }
        try manager.validateDestination()
        for (mapping, policy) in started {
            try manager.runHook(of: mapping, in: model) {
                try policy?.performCustomValidation(for: mapping, manager: manager)
            }
            try manager.runHook(of: mapping, in: model) { try policy?.end(mapping, manager: manager) }
        }
        try uniqueness.restore(manager)
        try manager.flushPrimaryKeys()
        return reports
    }

    /// A mapping reduced, for stage 2, to the relationship mappings whose links live in
    /// rebuilt tables: a link stored in a kept table is already there (``PartialRebuildPlan``
    /// checked that the mapping's expression for it is the default one), and its key was moved
    /// to the new rows' if need be (``ForeignKeyRemap``).
    private func linksInRebuiltTables(of mapping: EntityMapping, plan: PartialRebuildPlan, destination: StoreLayout)
        -> EntityMapping
    {
        var reduced = mapping
        guard let entity = mapping.destinationEntity.flatMap({ destination.entity(named: $0) }) else { return mapping }
        reduced.relationshipMappings = mapping.relationshipMappings.filter { propertyMapping in
            switch entity.relationship(named: propertyMapping.name)?.storage {
            case .foreignKey, nil: !plan.keptTables.contains(entity.tableName)
            case .inverseForeignKey(let table, _, _), .joinTable(let table, _, _, _): !plan.keptTables.contains(table)
            }
        }
        return reduced
    }
}

extension MigrationManager {
    /// Records that each source row of a kept mapping is its own destination row (the same
    /// `Z_PK`): the association pass 1 would have made, for the other mappings to look up. It
    /// is a temporary view of the kept table, not a table: nothing is written for the rows
    /// that stay where they are. Returns the number of rows.
    func associateInPlace(_ mapping: EntityMapping) throws -> Int {
        guard let name = mapping.destinationEntity, let entity = destinationLayout.entity(named: name) else { return 0 }
        let table = LookupTable(
            index: lookupTables.count, mapping: mapping,
            sourceTable: mapping.sourceEntity.flatMap { sourceLayout.entity(named: $0)?.tableName },
            mappingModel: currentMappingModel?.name)
        let kept = "\"main\".\(entity.tableName.quotedSQLIdentifier)"
        // A lone entity's rows are all of its table, whatever their Z_ENT, as Core Data reads them.
        let ownRows = entity.ownRowsCondition() ?? "1"
        try db.execute(
            sql: """
                CREATE TEMP VIEW \(table.name.quotedSQLIdentifier) ("source_pk", "destination_pk", "destination_entity")
                AS SELECT "Z_PK", "Z_PK", \(entity.number) FROM \(kept) WHERE \(ownRows)
                """)
        lookupTables.append(table)
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(kept) WHERE \(ownRows)") ?? 0
    }
}

extension MigrationManager {
    /// Moves a kept table's foreign keys to the new keys of the rows they point at, which were
    /// rebuilt one per source row. Only rows whose key changed are written: none, when the
    /// source's keys were dense and came out the same.
    func moveKeys(_ remap: ForeignKeyRemap) throws {
        guard !remap.entityNumbers.isEmpty, !remap.targetMappings.isEmpty else { return }
        let associations = try remap.targetMappings.map { name in
            "SELECT \"source_pk\", \"destination_pk\" FROM \(try lookupTable(for: name).qualifiedName)"
        }.joined(separator: " UNION ALL ")
        let table = "\"main\".\(remap.table.quotedSQLIdentifier)"
        let column = remap.column.quotedSQLIdentifier
        try db.execute(
            sql: """
                UPDATE \(table) SET \(column) =
                    (SELECT "m"."destination_pk" FROM (\(associations)) AS "m" WHERE "m"."source_pk" = \(table).\(column))
                WHERE "Z_ENT" IN (\(remap.entityNumbers.map(String.init).joined(separator: ", ")))
                  AND \(column) IN (SELECT "source_pk" FROM (\(associations)) WHERE "source_pk" != "destination_pk")
                """)
    }
}
