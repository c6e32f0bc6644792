import Foundation
import GRDB
import StepwiseStore

// The one place a step chooses how it writes its output (``StepStrategy``).
extension MigrationStep {
    /// A chosen ``StepStrategy`` with the plan it runs, so the plan the choice made (and
    /// rehearsed) is the one carried out, not worked out again.
    enum ChosenStrategy {
        /// Alter a copy of the source with this plan (``migrateInPlace(_:from:to:access:models:sourceLayout:destinationLayout:metadata:started:)``).
        case inPlace(InPlacePlan)
        /// Rebuild only this plan's tables in a copy of the source
        /// (``migratePartially(_:from:to:access:models:sourceLayout:destinationLayout:metadata:started:)``).
        case partialRebuild(PartialRebuildPlan)
        /// Build a new file (``rebuildStore(from:to:access:models:layouts:metadata:started:)``).
        case rebuild

        /// The strategy, without its plan: what the report says.
        var strategy: StepStrategy {
            switch self {
            case .inPlace: .inPlace
            case .partialRebuild: .partialRebuild
            case .rebuild: .rebuild
            }
        }
    }

    /// Chooses the step's strategy: the first of `candidates`, in ``StepStrategy``'s order of
    /// preference (its `allCases`), whose plan can be made for the step's mapping and passes
    /// its rehearsal on the source's schema; ``StepStrategy/rebuild`` when none does, which is
    /// always right.
    ///
    /// Reads the source's schema only (through a read-only connection, immutable for a
    /// ``SourceAccess/readOnly`` source), and only for a strategy whose plan could be made.
    ///
    /// - parameters:
    ///   - candidates: The strategies still open: all of them at first; after a strategy was
    ///     refused while it ran, with the source intact, those after it.
    ///   - source: The working source (prepared: checkpointed, or read-only with nothing to
    ///     fold in).
    func chooseStrategy(
        among candidates: ArraySlice<StepStrategy> = StepStrategy.allCases[...], source: URL,
        access: SourceAccess, models: [MappingModel], layouts: StepLayouts
    ) throws -> ChosenStrategy {
        for candidate in candidates {
            switch candidate {
            case .inPlace:
                if let plan = try inPlacePlan(source: source, access: access, models: models, layouts: layouts) {
                    return .inPlace(plan)
                }
            case .partialRebuild:
                if let plan = try partialRebuildPlan(source: source, access: access, models: models, layouts: layouts) {
                    return .partialRebuild(plan)
                }
            case .rebuild:
                return .rebuild
            }
        }
        return .rebuild
    }

    /// The in-place plan (``InPlacePlan``), when the step has one mapping model and no
    /// `willMigrate` stage (which writes to the source, and would be lost), the plan can be
    /// made, and its rehearsal on an empty copy of the source's schema gives exactly the
    /// destination's, with every row's entity number one the plan can move.
    private func inPlacePlan(source: URL, access: SourceAccess, models: [MappingModel], layouts: StepLayouts)
        throws -> InPlacePlan?
    {
        // The plan is made from the layouts alone first: the source is opened only when it can be.
        guard let plan = unrehearsedInPlacePlan(models: models, layouts: layouts) else { return nil }
        let rehearsed = try readSourceSchema(source, access: access) { db in
            try rehearses(plan, in: db, layouts: layouts)
        }
        return rehearsed ? plan : nil
    }

    /// ``inPlacePlan(source:access:models:layouts:)`` for a source open in `db`: the store
    /// itself, inside the transaction of a schema-only step (`MigrationStep+SchemaOnly`).
    func inPlacePlan(in db: Database, models: [MappingModel], layouts: StepLayouts) throws -> InPlacePlan? {
        guard let plan = unrehearsedInPlacePlan(models: models, layouts: layouts),
            try rehearses(plan, in: db, layouts: layouts)
        else { return nil }
        return plan
    }

    private func rehearses(_ plan: InPlacePlan, in db: Database, layouts: StepLayouts) throws -> Bool {
        guard
            try InPlaceMigration.rehearse(plan, schemaOf: db, destination: layouts.alteredDestination)
                && InPlaceRenumbering.sourceFits(plan, in: db)
        else {
            logger.debug("in-place step rejected by its rehearsal or its rows' entity numbers")
            return false
        }
        return true
    }

    private func unrehearsedInPlacePlan(models: [MappingModel], layouts: StepLayouts) -> InPlacePlan? {
        guard models.count == 1, stage?.willMigrate == nil else { return nil }
        return InPlacePlan.make(
            mapping: models[0], source: layouts.source, destination: layouts.alteredDestination,
            allowsRenumbering: layouts.sourceHasNewestForms)
    }

    /// The partial-rebuild plan (``PartialRebuildPlan``), when it is allowed
    /// (``allowsPartialRebuild``), the step has one mapping model and no `willMigrate` stage,
    /// the plan can be made, the source holds nothing the rebuilt tables wouldn't carry, and
    /// the plan's rehearsal on the source's schema passes.
    private func partialRebuildPlan(
        source: URL, access: SourceAccess, models: [MappingModel], layouts: StepLayouts
    ) throws -> PartialRebuildPlan? {
        guard allowsPartialRebuild, models.count == 1, stage?.willMigrate == nil,
            let plan = PartialRebuildPlan.make(
                mapping: models[0], source: layouts.source, destination: layouts.alteredDestination)
        else { return nil }
        let usable = try readSourceSchema(source, access: access) { db in
            try !PartialRebuild.sourceHasUncarriedContent(db)
                && PartialRebuild.rehearse(plan, schemaOf: db, destination: layouts.alteredDestination)
        }
        guard usable else {
            logger.debug("partial rebuild rejected by its rehearsal")
            return nil
        }
        return plan
    }

    /// Runs `check` on a read-only connection to `source`. The connection is closed before
    /// this returns: a strategy that passes goes on to copy or move the file. A failed close
    /// after a passed check is thrown (the file is about to be used); after a failed check it
    /// doesn't matter.
    private func readSourceSchema(
        _ source: URL, access: SourceAccess, _ check: (Database) throws -> Bool
    ) throws -> Bool {
        let queue = try ReadOnlyStore.openQueue(at: source, immutable: access == .readOnly)
        defer { try? queue.close() }
        let passed = try queue.read(check)
        if passed { try queue.close() }
        return passed
    }
}
