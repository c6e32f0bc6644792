import Foundation
import Logging
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// One call of ``Upgrader/upgradeIfNeeded(storeAt:)`` that found work to do. Each phase lives
/// in the file named after it, and takes what the one before it made, never the ``Upgrader``:
///
/// 0. In: the ``ModelHistory`` (every version, mapping and shipped record, read and checked
///    when the upgrader was made), its ``UpgradePlanner``, the policies, stages and options,
///    and the store's ``StoreFiles``.
/// 1. ``UpgradeRecovery``: finish or discard what an earlier, interrupted run left
///    (its ``UpgradeJournal``).
/// 2. Identify and plan, in ``UpgradePreparation`` (called by `UpgradeRun+Start`): the store's
///    metadata and tables → a ``StoreIdentification`` and the store's ``ObjectModel`` → an
///    ``UpgradePlan`` whose ``PlannedStep``s hold their source and destination models and
///    mapping models → checked policies, layouts and drops: a ``PreparedUpgrade``. The journal
///    records one fingerprint per planned step. Or `UpgradeRun+Resume`: an interrupted run's
///    journal whose fingerprints match the plan made again → its checkpoints are kept.
/// 3. `UpgradeRun+Steps`: each ``PlannedStep`` runs into its own subdirectory, reading the
///    previous step's output; the journal keeps, per step, its `StepReport` and output
///    checksum (`UpgradeJournal.CompletedStep`): the checkpoint a crash resumes from.
/// 4. `UpgradeRun+Swap`: the last output and the target model → ``StoreVerification`` →
///    ``GenerationSwap`` (the commit point) → the ``UpgradeReport`` the caller gets.
final class UpgradeRun {
    /// The versions the run may go through.
    let history: ModelHistory
    /// The upgrader's planner: its stages' steps kept apart.
    let planner: UpgradePlanner
    let policies: PolicyRegistry
    let stages: [MigrationStage]
    let options: UpgradeOptions
    let files: StoreFiles
    let target: String
    let fileSystem: FileSystem
    let started = Date()
    var logger: Logger { options.logger }
    var workDirectory: URL { files.workDirectory }
    var swap: GenerationSwap { GenerationSwap(files: files, workDirectory: workDirectory, fileSystem: fileSystem) }

    /// Set when the async caller's task is cancelled; checked at step boundaries and inside
    /// each step, never past the commit point.
    let cancellation: StepCancellation?
    /// The plan, made once per run: by ``start()`` (``UpgradePreparation``) or ``resume(_:)``.
    var plan: UpgradePlan?
    /// Steps whose checkpoints came from an earlier run (1-based indexes).
    var resumedSteps: Set<Int> = []
    /// The damaged-store check of the original, running beside step 1 (``IntegrityCheck``).
    var pendingIntegrityCheck: IntegrityCheck?

    init(
        history: ModelHistory, planner: UpgradePlanner, policies: PolicyRegistry, stages: [MigrationStage],
        options: UpgradeOptions, files: StoreFiles, target: String, cancellation: StepCancellation? = nil
    ) {
        self.history = history
        self.planner = planner
        self.policies = policies
        self.stages = stages
        self.options = options
        self.files = files
        self.target = target
        self.cancellation = cancellation
        self.fileSystem = options.fileSystem
    }

    /// Whether the store is at `target` by the cheap test: its main file's metadata hashes
    /// (``StoreMetadata/readFromMainFile(at:)``), and no earlier run waiting to be finished.
    static func isUpToDate(_ files: StoreFiles, target: String, history: ModelHistory, fileSystem: FileSystem) throws
        -> Bool
    {
        guard let version = history.versions.version(named: target) else {
            throw UpgradeError(.unknownVersion(target, available: history.versions.names))
        }
        return isAtVersion(files, fileSystem: fileSystem) { history.hashes.isCompatible(version, withEntityHashes: $0) }
    }

    /// Whether the main file's metadata holds entity hashes that `matching` accepts, with no
    /// earlier run waiting to be finished: the cheap test, shared with
    /// `Upgrader.upToDateReport(storeAt:bundleAt:options:)`, which knows the target version only.
    static func isAtVersion(
        _ files: StoreFiles, fileSystem: FileSystem, matching: ([String: Data]) -> Bool
    ) -> Bool {
        guard !fileSystem.exists(files.workDirectory),
            let metadata = StoreMetadata.readFromMainFile(at: files.store)
        else { return false }
        return matching(metadata.versionHashes)
    }

    /// Takes the lock and does the work.
    func run() throws -> UpgradeReport {
        // Both locks from before the copy to after the swap: a StoreAccess holder writing during
        // the run would lose its writes at the swap, and one reading across it would keep
        // reading a file that is no longer the store.
        let takeover = try StoreTakeover(files, options: options)
        defer { withExtendedLifetime(takeover) {} }
        logger.info("upgrade started", metadata: ["store": "\(files.store.path)", "target": "\(target)"])

        var resumable: UpgradeJournal?
        switch takeover.recovered {
        case .nothing:
            break
        case .finishedSwap(let journal):
            // An earlier run was interrupted after its commit point; this call finished it.
            if journal.purpose == .upgrade, journal.to == target {
                return report(from: journal, resumedAll: true)
            }
        case .resumable(let journal):
            resumable = journal
        }
        // Another process may have finished the upgrade while this one waited for the lock.
        if resumable == nil,
            try Self.isUpToDate(files, target: target, history: history, fileSystem: fileSystem)
        {
            return .upToDate(at: target)
        }
        var journal: UpgradeJournal
        if let resumable, let resumed = try resume(resumable) {
            journal = resumed
        } else {
            // Cancelled while waiting for the lock: nothing was written yet.
            try cancellation?.check()
            try fileSystem.remove(workDirectory, site: "work.remove-stale")
            guard let started = try start() else { return .upToDate(at: target) }
            journal = started
        }
        try runSteps(&journal)
        try verifyAndSwap(&journal)
        // `.finished` and the log line come from Upgrader.perform, the one place for every path.
        return report(from: journal, resumedAll: false)
    }

    func emit(_ event: UpgradeEvent) {
        options.progress?(event)
    }

    /// Saves the journal durably, or throws.
    func save(_ journal: UpgradeJournal) throws {
        try journal.save(in: workDirectory, fileSystem: fileSystem)
    }

    /// Throws `CancellationError` if the caller cancelled, recording it in the journal first:
    /// the checkpoints stay, so the next call resumes, as after a crash.
    func checkCancellation(_ journal: inout UpgradeJournal) throws {
        guard let cancellation, cancellation.isCancelled else { return }
        recordCancellation(in: &journal)
        throw CancellationError()
    }

    func recordCancellation(in journal: inout UpgradeJournal) {
        journal.state = .failed
        journal.failure = "cancelled"
        try? save(journal)
        logger.notice("upgrade cancelled", metadata: ["completedSteps": "\(journal.completed.count)"])
    }

    /// Records a failure in the journal (best effort: the error being reported matters more).
    func recordFailure(_ error: any Error, in journal: inout UpgradeJournal) {
        journal.state = .failed
        journal.failure = "\(error)"
        try? save(journal)
    }

    func report(from journal: UpgradeJournal, resumedAll: Bool) -> UpgradeReport {
        UpgradeReport(
            from: journal.from ?? "?", to: journal.to ?? target, outcome: .upgraded,
            steps: journal.completed.map { step in
                // A resumed step didn't run now: its report says so, not the killed run's time.
                resumedAll || resumedSteps.contains(step.index) ? step.report.resumedFromCheckpoint() : step.report
            },
            backupURL: journal.keepBackup ? files.backupDirectory : nil,
            seconds: Date().timeIntervalSince(started))
    }
}
