import Foundation
import StepwiseMapping
import StepwiseStore

/// Which ``UpgradePath`` an upgrade takes, and why, as far as it can be told before a step runs:
/// the one home of the rule, used by the run (`UpgradeRun+OneTransaction`) and by
/// ``Upgrader/plan(forStoreAt:)``.
///
/// One transaction on the store is Core Data's own way for a lightweight migration: it alters
/// the store in place, in one transaction. Stepwise takes it when nothing needs the copy:
/// - no backup: a backup *is* the store as it was, so it must stay whole beside the new one;
/// - nothing to fold in: rows in the `-wal` (or a hot `-journal`) are folded into a copy, so the
///   original's files stay as they are until the swap;
/// - no external files: the files of external values are cleaned up after a journaled swap
///   (`ExternalDataCleanup`), which the one transaction has no journal for;
/// - every step schema-only: no stage (the app's code), one mapping model, a mapping the
///   in-place plan expresses (`MigrationStep.mayChangeOnlyTheSchema()`). The store's own schema
///   has the last word when the step runs; a step that turns out to rewrite rows rolls the
///   transaction back, and the copy path runs.
struct UpgradePathChoice {
    var keepBackup: Bool
    var stages: [MigrationStage]
    var policies: PolicyRegistry

    /// Why the options or the store's files rule one transaction out; nil when nothing does.
    func reasonToCopy(_ files: StoreFiles) -> String? {
        if keepBackup { return "the upgrade keeps a backup, which is the store as it was" }
        if !files.generation.hasNothingToFoldIn { return "the store has rows in its -wal or a hot -journal" }
        // The full page check reads the original while the transaction writes (ImmutableStore),
        // and the copy path this run would fall back to reads it too.
        if !ImmutableStore.isAvailable { return "this SQLite can't read a store through an immutable connection" }
        return nil
    }

    /// Why the plan rules one transaction out; nil when every step may change only the schema.
    /// Stops at the first step that rewrites rows: at launch, the later steps' models needn't
    /// be laid out.
    func reasonToCopy(_ plan: UpgradePlan) throws -> String? {
        if try ExternalDataCleanup.columns(of: plan) != nil { return Self.externalFiles }
        for planned in plan.steps {
            if let reason = try rowRewrite(planned) { return Self.copyReason(planned, reason) }
        }
        return nil
    }

    /// Why the step rewrites rows ("has a stage (app code)", "rewrites rows"); nil when it may
    /// change only the schema, judged from its models (the store's own schema has the last
    /// word when it runs). On the copy path such a step alters the previous step's output in
    /// place, so a chain whose schema-only steps follow rebuilt ones rebuilds once, then alters.
    func rowRewrite(_ planned: PlannedStep) throws -> String? {
        if stages.stage(for: planned) != nil {
            return "has a stage (app code)"
        }
        let step = MigrationStep(
            from: planned.source, to: planned.destination, mappingModels: planned.mappingModels, policies: policies)
        return try step.mayChangeOnlyTheSchema() ? nil : "rewrites rows"
    }

    /// The path and its reason for `plan` on the store `files`, before any step runs, and why
    /// each step rewrites rows (``rowRewrite(_:)``, in step order).
    func predict(_ plan: UpgradePlan, files: StoreFiles) throws -> (
        path: UpgradePath, copyReason: String?, rowRewrites: [String?]
    ) {
        guard !plan.steps.isEmpty else { return (.oneTransaction, nil, []) }
        let rowRewrites = try plan.steps.map(rowRewrite)
        if let reason = reasonToCopy(files) { return (.copyAndSwap, reason, rowRewrites) }
        if try ExternalDataCleanup.columns(of: plan) != nil {
            return (.copyAndSwap, Self.externalFiles, rowRewrites)
        }
        for (planned, reason) in zip(plan.steps, rowRewrites) {
            if let reason { return (.copyAndSwap, Self.copyReason(planned, reason), rowRewrites) }
        }
        return (.oneTransaction, nil, rowRewrites)
    }

    private static let externalFiles = "the store keeps values in external files"

    private static func copyReason(_ planned: PlannedStep, _ reason: String) -> String {
        "step '\(planned.from)' → '\(planned.to)' \(reason)"
    }
}
