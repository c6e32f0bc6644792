import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore

extension UpgradeRun {
    /// The copy of the original store, step 0's output.
    static let copyDirectory = "step-0"
    /// The name of the store file inside each step's directory.
    static let stepFileName = "store.sqlite"

    /// What ``start()`` found under the lock.
    enum StartOutcome {
        /// The store is at the target already: nothing was written, no work directory is left.
        case upToDate
        /// The plan is made and journaled; the steps come next.
        case started(UpgradeRunState)
        /// Every step changed only the schema, and ran in one transaction on the store itself,
        /// committed (`UpgradeRun+OneTransaction`): nothing else to do.
        case upgraded(UpgradeReport)
    }

    /// Starts a fresh run, under the lock: decides whether there is anything to do (the one
    /// decision that counts: ``UpToDateCheck`` on the main file, then identification), checks
    /// space, copies the store if it must, checks it, prepares the plan
    /// (``UpgradePreparation``: the run's only planning) and saves the first journal.
    ///
    /// Nothing may touch the original before the swap, and SQLite may checkpoint or change a
    /// file it opens normally. So either:
    /// - the store has rows in its `-wal` (or a hot `-journal`): it is copied with them and
    ///   the copy checkpointed before anything reads it, so rows that live only in the WAL are
    ///   migrated; step 1 reads the copy;
    /// - or its main file is the whole store: everything, step 1 included, reads the original
    ///   through an immutable read-only connection (``ImmutableStore``), which writes,
    ///   creates and locks nothing. No copy: the run needs one store's worth of disk less.
    ///   A write by a process that ignores the upgrade's locks is caught before the commit
    ///   point (``checkNobodyElseUsesTheStore(_:)``).
    func start() throws -> StartOutcome {
        // Another process may have finished the upgrade while this one waited for the lock.
        if try UpToDateCheck.isAtTarget(files, target: target, history: history, fileSystem: fileSystem) {
            return .upToDate
        }
        try StoreFileCheck.check(files.store)
        // Before anything is read: a plan made from the store is only reused while the store is
        // the one it was made from (this fingerprint still matches the journal's, below).
        let beforePlanning = UpgradeJournal.Fingerprint(of: files)
        let copyReason: String
        var preparedOnOriginal: PreparedUpgrade?
        switch try upgradeWithoutACopy(fingerprint: beforePlanning) {
        case .upgraded(let report): return .upgraded(report)
        case .needsCopy(let reason, let prepared): (copyReason, preparedOnOriginal) = (reason, prepared)
        }
        logger.debug("the upgrade takes the copy path", metadata: ["reason": "\(copyReason)"])
        try checkFreeSpace()
        var journal = UpgradeJournal(state: .copying, original: UpgradeJournal.Fingerprint(of: files))
        // Changed since it was planned from (by a process that ignores the locks): plan again,
        // from what the journal's fingerprint describes, so the check before the swap holds.
        if journal.original != beforePlanning { preparedOnOriginal = nil }
        journal.keepBackup = options.keepBackup
        try fileSystem.createDirectory(workDirectory, site: "work.mkdir")
        var originalCheck: IntegrityCheck?
        do {
            try save(journal)
            let readsOriginal = ImmutableStore.isAvailable && files.generation.hasNothingToFoldIn
            let input = readsOriginal ? files.store : try copyStore()
            let full = options.verification == .full
            if readsOriginal {
                // Answers by step 1's end at the latest (runSteps), before anything is journaled.
                originalCheck = IntegrityCheck.start(onOriginal: input, full: full, storePath: files.store.path)
            } else {
                try IntegrityCheck.run(on: input, isOriginal: false, full: full, storePath: files.store.path)
            }
            // Planned once: the one-transaction attempt's plan is from the same original, unchanged.
            let prepared = try (readsOriginal ? preparedOnOriginal : nil) ?? prepare(input, isOriginal: readsOriginal)
            if prepared.isUpToDate {
                try originalCheck?.wait()
                // Matched by its tables, or its main file's metadata lagged its WAL: nothing to do.
                try fileSystem.remove(workDirectory, site: "work.remove-up-to-date")
                return .upToDate
            }
            let plan = prepared.plan
            try checkDrops(prepared.drops, of: plan)
            if prepared.identification.matchedBy == .modelCache {
                try keepModelCache(readFrom: input, isOriginal: readsOriginal)
            }
            journal.state = .running
            journal.from = plan.from
            journal.to = plan.to
            journal.plan = plan.steps.map { $0.fingerprint(policies: policies) }
            journal.readsOriginal = readsOriginal
            journal.externalDataColumns = try ExternalDataCleanup.columns(of: plan)
            journal.copy = readsOriginal ? nil : try FileChecksum.checkpoint(input, in: workDirectory)
            try save(journal)
            emit(.planned(from: plan.from, to: plan.to, steps: plan.steps))
            return .started(
                UpgradeRunState(
                    plan: plan, journal: journal, resumedSteps: [], originalCheck: originalCheck,
                    copyReason: copyReason))
        } catch let crash as SimulatedCrash {
            throw crash
        } catch {
            // Nothing was committed and the original is untouched: drop the work directory.
            // A damaged store is the reason to give, whatever else failed reading it.
            try? fileSystem.remove(workDirectory, site: "work.remove-after-error")
            try originalCheck?.wait()
            throw error
        }
    }

    /// The one-transaction path (`UpgradeRun+OneTransaction`), when the plan allows it: planned
    /// from the original, read through an immutable connection. Nil, having changed nothing,
    /// when the copy path must run; it plans again, and reports any error planning met here,
    /// the damaged-store check first.
    private func upgradeWithoutACopy(fingerprint: UpgradeJournal.Fingerprint) throws -> OneTransactionOutcome {
        let choice = UpgradePathChoice(keepBackup: options.keepBackup, stages: stages, policies: policies)
        if let reason = choice.reasonToCopy(files) { return .needsCopy(reason: reason) }
        guard let prepared = try? prepare(files.store, isOriginal: true), !prepared.isUpToDate else {
            return .needsCopy(reason: "the store must be identified again with its pages checked")
        }
        if let reason = try choice.reasonToCopy(prepared.plan) { return .needsCopy(reason: reason, prepared: prepared) }
        // Strict mode's refusal comes from the copy path, which reports a damaged store first
        // (its page check is awaited on every way out); nothing was written.
        do { try checkDrops(prepared.drops, of: prepared.plan) } catch {
            return .needsCopy(reason: "strict mode refuses a drop")
        }
        return try upgradeInOneTransaction(prepared, fingerprint: fingerprint)
    }

    /// Needs room for the copy and one step's output (``UpgradeSpaceEstimate``: a clone of
    /// the store doesn't count as a copy).
    func checkFreeSpace() throws {
        let needed = UpgradeSpaceEstimate(files.generation, in: files.directory, fileSystem: fileSystem).neededBytes
        guard let available = fileSystem.freeSpace(at: files.directory) else { return }
        if available < needed {
            throw UpgradeError(
                .insufficientSpace(neededBytes: needed, availableBytes: available), storePath: files.store.path)
        }
    }

    /// Copies the store's generation into `step-0/` and folds its WAL into the main file
    /// (``StoreGeneration/copy(to:checkpointing:syncing:fileSystem:site:)``).
    private func copyStore() throws -> URL {
        let directory = workDirectory.appendingPathComponent(Self.copyDirectory, isDirectory: true)
        let copy = StoreGeneration(mainFile: directory.appendingPathComponent(Self.stepFileName))
        try fileSystem.createDirectory(directory, site: "copy.mkdir")
        emit(.copying(bytes: files.generation.dataBytes(fileSystem: fileSystem)))
        // Ordering: the copy reaches the disk before the journal that records it as step 1's source.
        try files.generation.copy(
            to: copy, checkpointing: .init(file: "copy.sync", directory: "copy.sync-directory"), syncing: .ordering,
            fileSystem: fileSystem, site: "copy.file")
        return copy.mainFile
    }

    /// Identifies what the run reads before step 1 and plans from it
    /// (``UpgradePreparation``), counting drops in strict mode.
    private func prepare(_ input: URL, isOriginal: Bool) throws -> PreparedUpgrade {
        let preparation = UpgradePreparation(
            history: history, planner: planner, policies: policies, target: target, storePath: files.store.path,
            logger: logger, dropsUnknownEntities: options.dropsUnknownEntities)
        let queue: DatabaseQueue
        do {
            queue = try ReadOnlyStore.openQueue(at: input, immutable: isOriginal)
        } catch {
            throw StoreError(path: files.store.path, wrapping: error)
        }
        defer { try? queue.close() }
        return try queue.read { db in try preparation.prepare(db, countingDrops: options.strict) }
    }
}
