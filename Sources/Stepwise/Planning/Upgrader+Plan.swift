import Foundation
import StepwiseStore

extension Upgrader {
    /// What ``upgradeIfNeeded(storeAt:)`` would do to the store at `url`, without doing it:
    /// the version that wrote it, the plan to ``targetVersion``, and what each step drops,
    /// counted in the store.
    ///
    /// The store is read through a private copy (`StoreSnapshot`) that
    /// includes its `-wal`; the store itself is never opened. The plan comes from the same
    /// phase the upgrade runs, with the same refusals, so it is the plan an upgrade would run.
    ///
    /// ```swift
    /// let prepared = try upgrader.plan(forStoreAt: storeURL)
    /// for step in prepared.plan.steps { print(step.planned) }  // "Notes 1 → Notes 2 (inferred)"
    /// ```
    ///
    /// - parameter url: The store's main file.
    /// - returns: The identification, the plan (no steps when the store is at the target) and
    ///   the drops of each step.
    /// - throws: ``UpgradeError`` for a store no version matches, or newer than every known
    ///   version; ``UpgradeError`` for a store later than the target, no path, an unknown
    ///   target, two stages for one step, or an unregistered policy; ``/StepwiseStore/StoreError``
    ///   for a missing or unreadable store; ``/StepwiseModel/ModelError`` for a store not at the
    ///   target when the versions' order can't be told (``ModelHistory/order``).
    public func plan(forStoreAt url: URL) throws -> PreparedUpgrade {
        try plan(forStoreAt: url, refusingUnregisteredPolicies: true)
    }

    /// What ``upgradeIfNeeded(storeAt:)`` would do to the store at `url`, as
    /// ``plan(forStoreAt:)`` tells it, but, when `refusingUnregisteredPolicies` is false, with
    /// the policies the plan names and ``policies`` lacks listed in
    /// ``PreparedUpgrade/missingPolicies`` instead of thrown: so that a tool can show the whole
    /// path, mark the steps that can't run yet, and then refuse (`stepwise plan`). An upgrade
    /// still refuses such a plan before it touches anything.
    ///
    /// - parameters:
    ///   - url: The store's main file.
    ///   - refusingUnregisteredPolicies: Whether an unregistered policy is thrown
    ///     (``UpgradeError/Kind/unregisteredPolicy(name:mappingModel:entityMapping:)``), as by
    ///     ``plan(forStoreAt:)``, or listed.
    /// - returns: The identification, the plan, the drops of each step, and the missing policies.
    /// - throws: What ``plan(forStoreAt:)`` throws, but for unregistered policies when they are listed.
    public func plan(forStoreAt url: URL, refusingUnregisteredPolicies: Bool) throws -> PreparedUpgrade {
        if !mergedParts.isEmpty {
            return try forMergedStore(at: url).plan(
                forStoreAt: url, refusingUnregisteredPolicies: refusingUnregisteredPolicies)
        }
        guard let target = targetVersion else {
            throw UpgradeError(path: url.path, kind: .emptyHistory)
        }
        try checkStages()
        let snapshot = try StoreSnapshot(of: url)
        defer { snapshot.close() }
        let preparation = UpgradePreparation(
            history: history, planner: planner, policies: policies, target: target, storePath: url.path,
            logger: options.logger, dropsUnknownEntities: options.dropsUnknownEntities)
        do {
            var prepared = try snapshot.database.read { db in
                try preparation.prepare(
                    db, countingDrops: true, refusingUnregisteredPolicies: refusingUnregisteredPolicies)
            }
            if !prepared.isUpToDate {
                // The rule the run applies (UpgradePathChoice), on the store's own files.
                (prepared.path, prepared.copyReason, prepared.rowRewrites) = try UpgradePathChoice(
                    keepBackup: options.keepBackup, stages: stages, policies: policies
                )
                .predict(prepared.plan, files: StoreFiles(store: url))
            }
            return prepared
        } catch let error as StoreError where error.path != url.path {
            // An error about the private copy is an error about the store.
            throw StoreError(path: url.path, kind: error.kind)
        }
    }
}
