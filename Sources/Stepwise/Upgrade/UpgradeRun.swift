import Foundation
import Logging
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// One call of ``Upgrader/upgradeIfNeeded(storeAt:)`` that found work to do. Each phase lives
/// in the file named after it, and takes what the one before it made, never the ``Upgrader``.
/// The run keeps no phase state: each phase hands the next an ``UpgradeRunState`` value.
///
/// 0. In: the ``ModelHistory`` (every version, mapping and shipped record, read and checked
///    when the upgrader was made), its ``UpgradePlanner``, the policies, stages and options,
///    and the store's ``StoreFiles``.
/// 1. ``StoreTakeover``: the locks, then ``UpgradeRecovery``, which finishes or discards what
///    an earlier, interrupted run left (its ``UpgradeJournal``).
/// 2. `UpgradeRun+Start`, under the lock, decides once whether there is anything to do: the
///    main file's metadata (``UpToDateCheck``), then identification and planning in
///    ``UpgradePreparation``: the store's metadata and tables → a ``StoreIdentification`` and
///    the store's ``ObjectModel`` → an ``UpgradePlan`` whose ``PlannedStep``s hold their source
///    and destination models and mapping models → checked policies, layouts and drops: a
///    ``PreparedUpgrade``. The journal records one fingerprint per planned step. Or
///    `UpgradeRun+Resume`: an interrupted run's journal whose fingerprints match the plan made
///    again → its checkpoints are kept. Either gives an ``UpgradeRunState``.
/// 3. `UpgradeRun+Steps`: each ``PlannedStep`` runs into its own subdirectory, reading the
///    previous step's output; the journal keeps, per step, its `StepReport` and output
///    checksum (`UpgradeJournal.CompletedStep`): the checkpoint a crash resumes from.
/// 4. `UpgradeRun+Swap`: the last output and the target model → ``StoreVerification`` →
///    the commit point → ``JournaledSwap`` → the ``UpgradeReport`` the caller gets.
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

    /// Takes the lock and does the work: the phases in order, each handing the next its value.
    func run() throws -> UpgradeReport {
        // Both locks from before the copy to after the swap: a StoreAccess holder writing during
        // the run would lose its writes at the swap, and one reading across it would keep
        // reading a file that is no longer the store.
        let takeover = try StoreTakeover(files, options: options)
        defer { withExtendedLifetime(takeover) {} }
        logger.info("upgrade started", metadata: ["store": "\(files.store.path)", "target": "\(target)"])

        var resumed: UpgradeRunState?
        switch takeover.recovered {
        case .nothing:
            break
        case .finishedSwap(let journal):
            // An earlier run was interrupted after its commit point; this call finished it.
            if journal.purpose == .upgrade, journal.to == target {
                return report(from: journal, resumedSteps: Set(journal.completed.map(\.index)))
            }
        case .resumable(let journal):
            resumed = try resume(journal)
        }
        let state: UpgradeRunState
        if let resumed {
            state = resumed
        } else {
            // Cancelled while waiting for the lock: nothing was written yet.
            try cancellation?.check()
            try fileSystem.remove(workDirectory, site: "work.remove-stale")
            switch try start() {
            case .upToDate: return .upToDate(at: target)
            case .upgraded(let report): return report
            case .started(let started): state = started
            }
        }
        let stepsDone = try runSteps(state)
        let swapped = try verifyAndSwap(stepsDone)
        // `.finished` and the log line come from Upgrader.perform, the one place for every path.
        var report = report(from: swapped, resumedSteps: stepsDone.resumedSteps)
        report.copyReason = stepsDone.copyReason
        return report
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

    /// The caller's report of a swapped journal.
    /// - parameter resumedSteps: The steps an earlier run made (every one, when this call only
    ///   finished an interrupted swap).
    func report(from journal: UpgradeJournal, resumedSteps: Set<Int>) -> UpgradeReport {
        var report = UpgradeReport(
            from: journal.from ?? "?", to: journal.to ?? target, outcome: .upgraded,
            steps: journal.completed.map { step in
                // A resumed step didn't run now: its report says so, not the killed run's time.
                resumedSteps.contains(step.index) ? step.report.resumedFromCheckpoint() : step.report
            },
            backupURL: journal.keepBackup ? files.backupDirectory : nil,
            seconds: Date().timeIntervalSince(started))
        report.path = .copyAndSwap
        return report
    }
}
