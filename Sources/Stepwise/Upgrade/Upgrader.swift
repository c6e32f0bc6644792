import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// Upgrades a store to the current model version, step by step, crash-safely: the one call
/// an app makes at launch.
///
/// ```swift
/// import Stepwise
///
/// let upgrader = try Upgrader(
///     bundleAt: Bundle.main.url(forResource: "Model", withExtension: "momd")!,
///     policies: myPolicies,
///     options: UpgradeOptions(keepBackup: true))
/// let report = try await upgrader.upgradeIfNeeded(storeAt: storeURL)
/// if !report.upToDate {
///     print("upgraded \(report.from) → \(report.to) in \(report.steps.count) steps")
/// }
/// ```
///
/// **Up to date** costs one metadata read: no lock, no copy, no schema scan. The model files
/// were all read when the upgrader was made (``ModelHistory``).
///
/// **Otherwise**, under a cross-process lock: the store and its `-wal` are copied into a
/// work directory beside it, the copy is identified and the path planned, each step writes
/// a new file in its own subdirectory and is recorded, with a checksum, in a journal; the
/// result is verified and swapped in. The original is not touched until the swap, and the
/// swap moves whole generations (store, `-wal`, `-shm`) so a store never meets a stale WAL.
/// A crash anywhere is repaired by the next call: it resumes at the first unfinished step,
/// or finishes an interrupted swap. A failure leaves the original byte-identical.
///
/// The app must call this before it opens the store, and no other process may have the
/// store open meanwhile: the lock coordinates upgraders, not SQLite connections.
public struct Upgrader: Sendable {
    /// The versions, mapping models and shipped records, read and checked when the upgrader
    /// was made.
    public let history: ModelHistory
    /// The models merged into the store's model, one history each, when there are several
    /// (``init(bundlesAt:policies:stages:options:)``): each store's own path is worked out from
    /// its metadata (``MergedHistory``), and ``history`` holds only their current versions.
    var mergedParts: [ModelHistory] = []
    /// The entity migration policies that mapping models name.
    public var policies: PolicyRegistry
    /// Custom work around particular steps (Core Data's staged migration), each carrying its
    /// versions. Two stages for one step are refused when an upgrade is planned.
    public var stages: [MigrationStage]
    public var options: UpgradeOptions

    /// An upgrader for a history.
    ///
    /// - parameters:
    ///   - history: The versions, mapping models and shipped records.
    ///   - policies: The entity migration policies the mapping models name.
    ///   - stages: Custom work around particular steps.
    ///   - options: How the upgrades run; ``UpgradeOptions/targetVersion`` defaults to the
    ///     history's current version.
    public init(
        history: ModelHistory, policies: PolicyRegistry = PolicyRegistry(), stages: [MigrationStage] = [],
        options: UpgradeOptions = UpgradeOptions()
    ) {
        self.history = history
        self.policies = policies
        self.stages = stages
        self.options = options
    }

    /// An upgrader for versions and mappings given in code: ``init(history:policies:stages:options:)``
    /// with ``ModelHistory/init(versions:mappings:shipped:)``.
    ///
    /// - throws: ``/StepwiseModel/ModelError`` for a shipped record whose model can't be read.
    public init(
        history versions: VersionHistory, mappings: [MappingDirectory.StepKey: [MappingModel]] = [:],
        shipped: [ShippedVersion] = [], policies: PolicyRegistry = PolicyRegistry(), stages: [MigrationStage] = [],
        options: UpgradeOptions = UpgradeOptions()
    ) throws {
        self.init(
            history: try ModelHistory(versions: versions, mappings: mappings, shipped: shipped), policies: policies,
            stages: stages, options: options)
    }

    /// An upgrader for a model bundle, its mapping models and its shipped records:
    /// ``init(history:policies:stages:options:)`` with ``ModelHistory/init(bundleAt:mappingsAt:)``.
    ///
    /// Every version, mapping model and shipped record is read here, so a broken one is
    /// reported when the app makes the upgrader, not by the first store that needs it.
    ///
    /// - parameters:
    ///   - bundleURL: The model bundle: the compiled `.momd` folder an app ships
    ///     (`Bundle.main.url(forResource: "Model", withExtension: "momd")`), or the source
    ///     `.xcdatamodeld` (a single `.mom` or `.xcdatamodel` is a one-version bundle). Its
    ///     current version is the target unless ``UpgradeOptions/targetVersion`` says otherwise.
    ///   - mappingsURL: The folder of mapping files; defaults to `<Name>.mappings` beside the
    ///     bundle, and may be missing when every step can be inferred.
    ///   - policies: The entity migration policies the mapping models name.
    ///   - stages: Custom work around particular steps.
    ///   - options: How the upgrades run.
    /// - throws: What ``ModelHistory/init(bundleAt:mappingsAt:)`` throws.
    public init(
        bundleAt bundleURL: URL, mappingsAt mappingsURL: URL? = nil, policies: PolicyRegistry = PolicyRegistry(),
        stages: [MigrationStage] = [], options: UpgradeOptions = UpgradeOptions()
    ) throws {
        let history = try ModelHistory(bundleAt: bundleURL, mappingsAt: mappingsURL)
        self.init(
            history: try options.configuration.map { try history.restricted(toConfiguration: $0) } ?? history,
            policies: policies, stages: stages, options: options)
    }

    /// The planner this upgrader uses. Steps with a registered stage are never merged with
    /// their neighbours, so the stage's hooks run on exactly the versions they were written for.
    package var planner: UpgradePlanner {
        history.planner(stepsKeptApart: Set(stages.map(\.step)))
    }

    /// The version upgrades go to.
    public var targetVersion: String? {
        options.targetVersion ?? history.currentVersion
    }

    /// Upgrades the store at `url` to ``targetVersion`` if it isn't there already, on the
    /// calling thread.
    ///
    /// This is ``upgradeIfNeeded(storeAt:)`` for code that can't `await` (a command-line
    /// tool, a test, a synchronous launch path). It blocks for as long as the upgrade takes,
    /// so don't call it on the main thread of an app.
    ///
    /// - returns: ``UpgradeReport/noStore(at:)`` when there is no store at `url` (an app's first
    ///   launch: create it at ``targetVersion``), ``UpgradeReport/upToDate(at:)`` when nothing
    ///   was needed, else what ran.
    /// - throws: ``UpgradeError`` when the store is newer than every known version, matches
    ///   none, or is inconsistent; ``UpgradeError`` when no chain of mappings reaches the
    ///   target; ``UpgradeError`` for a failed step, a failed verification, a lock timeout,
    ///   too little disk space or a file-system error; ``/StepwiseStore/StoreError`` for an unreadable store;
    ///   ``/StepwiseModel/ModelError`` for a store not at the target when the versions' order
    ///   can't be told (``ModelHistory/order``). In every case the store is as it was before the call.
    public func upgradeIfNeededSynchronously(storeAt url: URL) throws -> UpgradeReport {
        try perform(StoreFiles(store: url), cancellation: nil)
    }

    /// Upgrades the store at `url` to ``targetVersion`` if it isn't there already: the one
    /// call an app makes at launch, before it opens the store.
    ///
    /// The work runs on a thread of its own rather than on Swift's cooperative pool, because
    /// it blocks on SQLite and the file system for as long as the upgrade takes.
    ///
    /// ```swift
    /// let report = try await upgrader.upgradeIfNeeded(storeAt: storeURL)
    /// switch report.outcome {
    /// case .noStore: break  // first launch: create the store at the current version
    /// case .upToDate: break
    /// case .upgraded: print(report)  // "upgraded Notes 1 → Notes 3 in 2 step(s), 0.41 s"
    /// }
    /// ```
    ///
    /// **Cancellation.** Cancelling the task stops the upgrade at the next step boundary, row
    /// batch (every `StepCancellation/rowInterval` rows) or SQL statement, and throws
    /// `CancellationError`. The store is left byte-identical; the steps completed so far stay
    /// checkpointed, and the next call resumes after them. Once the swap has begun (the commit
    /// point), the upgrade finishes instead. A task cancelled before the call starts never
    /// takes the lock.
    ///
    /// - parameter url: The store's main file. Its `-wal` and `-shm` go with it.
    /// - returns: What happened: see ``upgradeIfNeededSynchronously(storeAt:)``.
    /// - throws: `CancellationError` when the task was cancelled, and otherwise the errors of
    ///   ``upgradeIfNeededSynchronously(storeAt:)``.
    public func upgradeIfNeeded(storeAt url: URL) async throws -> UpgradeReport {
        try await Self.onThreadOfItsOwn { cancellation in
            try self.perform(StoreFiles(store: url), cancellation: cancellation)
        }
    }

    /// Runs `work` on a new thread (``WorkerThread``, with its explicit stack), off Swift's cooperative pool, because it blocks on SQLite
    /// and the file system; cancelling the calling task cancels the `StepCancellation` it's given.
    static func onThreadOfItsOwn(
        _ work: @escaping @Sendable (StepCancellation) throws -> UpgradeReport
    ) async throws -> UpgradeReport {
        try Task.checkCancellation()
        let cancellation = StepCancellation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                WorkerThread.start("Stepwise upgrade") {
                    continuation.resume(with: Result { try work(cancellation) })
                }
            }
        } onCancel: {
            cancellation.cancel()
        }
    }

    /// The upgrade's progress as an asynchronous sequence that ends with
    /// ``UpgradeEvent/finished(_:)`` on every path (no store, up to date, upgraded, resumed, or
    /// an interrupted swap finished), or throws the upgrade's error.
    ///
    /// Nothing happens until the sequence is iterated: the upgrade starts with the first
    /// `next()`. Leaving the loop early, or cancelling the iterating task, cancels the upgrade
    /// as ``upgradeIfNeeded(storeAt:)`` describes.
    ///
    /// ```swift
    /// for try await event in upgrader.events(upgradingStoreAt: storeURL) {
    ///     print(event)  // "step 2/3: Recipes 2 → Recipes 3 (explicit)", …, "finished: …"
    /// }
    /// ```
    public func events(upgradingStoreAt url: URL) -> UpgradeEvents {
        UpgradeEvents(upgrader: self, store: url)
    }

    /// Whether ``upgradeIfNeededSynchronously(storeAt:)`` has work to do, by the check it starts with:
    /// one immutable read of the main file's metadata, with no lock, no copy and no file
    /// created. Use it to show "Upgrading your data…" only when an upgrade will run.
    ///
    /// `true` means the call will take the careful path (the lock, a copy that includes the
    /// `-wal`, or recovery of an interrupted upgrade). That path may still find nothing to do:
    /// a store matched by its tables rather than its hashes, or one whose `-wal` holds a newer
    /// migration than its main file.
    ///
    /// `false` for a missing store: there is nothing to upgrade.
    /// - throws: The errors ``upgradeIfNeededSynchronously(storeAt:)`` throws before it takes the lock:
    ///   ``/StepwiseStore/StoreError`` for an unreadable store, ``UpgradeError`` for an unknown
    ///   target version, ``UpgradeError`` for an empty history.
    public func needsUpgrade(storeAt url: URL) throws -> Bool {
        let files = StoreFiles(store: url)
        return try UpgradeError.reportingFileSystemErrors(of: files) {
            try startingCheck(files, knownNotAtTarget: nil).outcome == .upgraded
        }
    }

    /// The target, and whether there is work to do: none for a missing store (nothing is
    /// created beside it) or one already at the target (``UpgradeReport/Outcome/upgraded`` means
    /// an upgrade will run). A store that needs one is refused here if it is unreadable,
    /// before a lock file is created beside it.
    ///
    /// - parameter knownNotAtTarget: The version the caller's own read of the metadata found the
    ///   store not at, moments ago (the launch call's ``UpToDateCheck``); for that target the
    ///   read isn't made again. It is only ever a hint: the run decides again under the lock.
    private func startingCheck(_ files: StoreFiles, knownNotAtTarget: String?) throws -> (
        target: String, outcome: UpgradeReport.Outcome
    ) {
        guard let target = targetVersion else {
            throw UpgradeError(path: files.store.path, kind: .emptyHistory)
        }
        // A first launch: the app creates its store at the target version.
        if files.isMissing { return (target, .noStore) }
        if knownNotAtTarget != target,
            try UpToDateCheck.isAtTarget(files, target: target, history: history, fileSystem: options.fileSystem)
        {
            return (target, .upToDate)
        }
        try checkStages()
        if !options.fileSystem.exists(files.workDirectory) {
            // With a work directory, a crash may have left the store mid-swap: recovery must run.
            try StoreFileCheck.check(files.store)
        }
        return (target, .upgraded)
    }

    /// Refuses two stages for one step, and a stage naming a version the history lacks: either
    /// would leave the stage's handlers silently unrun.
    func checkStages() throws {
        var seen: Set<MappingDirectory.StepKey> = []
        for stage in stages {
            for name in [stage.from, stage.to] where history.versions.version(named: name) == nil {
                throw UpgradeError(.unknownVersion(name, available: history.versions.names))
            }
            guard seen.insert(stage.step).inserted else {
                throw UpgradeError(.duplicateStage(from: stage.from, to: stage.to))
            }
        }
    }

    /// Every upgrade, synchronous or not, runs here, and this is the one place that emits
    /// ``UpgradeEvent/finished(_:)``: whichever path ends the call (no store, up to date, an
    /// upgrade run, a resumed one, or recovery finishing an interrupted swap), the report goes
    /// out once.
    ///
    /// - parameter knownNotAtTarget: See ``startingCheck(_:knownNotAtTarget:)``.
    func perform(_ files: StoreFiles, cancellation: StepCancellation?, knownNotAtTarget: String? = nil) throws
        -> UpgradeReport
    {
        if !mergedParts.isEmpty {
            return try forMergedStore(at: files.store).perform(files, cancellation: cancellation)
        }
        let started = Date()
        var report: UpgradeReport
        do {
            report = try UpgradeError.reportingFileSystemErrors(of: files) {
                switch try startingCheck(files, knownNotAtTarget: knownNotAtTarget) {
                case (let target, .noStore):
                    return .noStore(at: target)
                case (let target, .upToDate):
                    return .upToDate(at: target)
                case (let target, .upgraded):
                    let run = UpgradeRun(
                        history: history, planner: planner, policies: policies, stages: stages, options: options,
                        files: files, target: target, cancellation: cancellation)
                    var report = try run.run()
                    // Up to date after all (another process upgraded it while this one waited for
                    // the lock): the time is the wait.
                    if report.upToDate { report.seconds = Date().timeIntervalSince(started) }
                    return report
                }
            }
        } catch let error as UpgradeError where error.isRunFailure {
            throw error.naming(leftoversOf: files, fileSystem: options.fileSystem)
        }
        options.progress?(.finished(report))
        if report.outcome == .upgraded {
            options.logger.info(
                "upgrade finished",
                metadata: ["store": "\(files.store.path)", "from": "\(report.from)", "to": "\(report.to)"])
        }
        return report
    }

    /// Puts back the store kept by the last upgrade that ran with
    /// ``UpgradeOptions/keepBackup``, with its `-wal` and `-shm`, for a user who must return
    /// to the previous app version. The upgraded store, and everything written to it since,
    /// is discarded. The swap is the same crash-safe one the upgrade uses.
    ///
    /// It needs no model history: the backup is the store as it was.
    ///
    /// ```swift
    /// let version = try Upgrader.rollback(storeAt: storeURL)  // "Notes 2"
    /// ```
    ///
    /// - parameters:
    ///   - url: The store's main file.
    ///   - options: Only ``UpgradeOptions/lockTimeout``, ``UpgradeOptions/progress`` and
    ///     ``UpgradeOptions/logger`` are used.
    /// - returns: The version of the restored store, as recorded in the backup.
    /// - throws: ``UpgradeError`` with ``UpgradeError/Kind/noBackup(backupDirectory:)`` when there
    ///   is none, or for a lock timeout or a failed file-system call.
    @discardableResult
    public static func rollback(storeAt url: URL, options: UpgradeOptions = UpgradeOptions()) throws -> String? {
        let files = StoreFiles(store: url)
        return try UpgradeError.reportingFileSystemErrors(of: files) {
            try StoreRollback(files: files, options: options).run()
        }
    }

    /// What ``discardInterruptedUpgrade(storeAt:options:)`` did.
    public enum DiscardOutcome: Sendable, Equatable {
        /// There was no work folder beside the store.
        case nothingToDiscard
        /// The work folder, and the checkpoints in it, were deleted.
        case discarded(bytes: Int64)
        /// The interrupted upgrade had passed its commit point: the swap was finished
        /// instead, and the store is now at `version`.
        case finishedSwap(version: String?)
    }

    /// Deletes what a failed or cancelled upgrade kept beside the store for the next call to
    /// resume from: the work folder named by ``UpgradeError/leftoverWorkDirectory``, about
    /// the size of the store.
    ///
    /// The store itself is not changed, except in one case: an upgrade interrupted past its
    /// commit point is finished rather than discarded, because the swap only moves forward.
    /// Like an upgrade, it waits for the upgrade and access locks. It needs no model history.
    ///
    /// ```swift
    /// do {
    ///     try await upgrader.upgradeIfNeeded(storeAt: storeURL)
    /// } catch let error as UpgradeError where error.leftoverWorkDirectory != nil {
    ///     try Upgrader.discardInterruptedUpgrade(storeAt: storeURL)  // start from scratch next time
    /// }
    /// ```
    ///
    /// - parameters:
    ///   - url: The store's main file.
    ///   - options: Only ``UpgradeOptions/lockTimeout``, ``UpgradeOptions/progress`` and
    ///     ``UpgradeOptions/logger`` are used.
    /// - throws: ``UpgradeError`` for a lock timeout or a failed file-system call.
    @discardableResult
    public static func discardInterruptedUpgrade(storeAt url: URL, options: UpgradeOptions = UpgradeOptions()) throws
        -> DiscardOutcome
    {
        let files = StoreFiles(store: url)
        return try UpgradeError.reportingFileSystemErrors(of: files) {
            try UpgradeDiscard(files: files, options: options).run()
        }
    }
}
