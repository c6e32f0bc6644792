import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore

// The path without a copy: every step changes only the schema, so the whole upgrade is one
// SQLite transaction on the store itself, as Core Data's own lightweight migration is. SQLite's
// journal makes it atomic: a crash, a power cut or a failure leaves the old store, a commit the
// new one, never a mix. No work directory, no journal of ours, no swap.
extension UpgradeRun {
    /// What the one-transaction path did.
    enum OneTransactionOutcome {
        /// Committed: the store is at the target.
        case upgraded(UpgradeReport)
        /// Nothing changed; the copy path must run, for this reason (``UpgradeReport/copyReason``).
        /// `prepared`: the plan made from the original, when one was, which the copy path reuses
        /// when it reads the original too (the store is as it was).
        case needsCopy(reason: String, prepared: PreparedUpgrade? = nil)
    }

    /// Upgrades the store in one transaction when every step turns out to change only the
    /// schema; ``OneTransactionOutcome/needsCopy(reason:)``, with the store as it was, when one
    /// doesn't (the copy path takes over).
    ///
    /// The order:
    /// 1. wait for connections outside ``StoreAccess`` (the access lock this run holds keeps the
    ///    others out): the store must not change under a reader;
    /// 2. open the store, `synchronous = FULL` and `cell_size_check = ON`, and begin an
    ///    immediate transaction;
    /// 3. with ``UpgradeOptions/Verification/full``, check every page (`integrity_check`): in
    ///    WAL mode on a thread of its own, reading the main file, which nothing writes until the
    ///    transaction commits (a WAL transaction writes only the `-wal`); otherwise first, on
    ///    this connection. At the `quick` level, see "Which pages are checked" below;
    /// 4. run each step (`MigrationStep.migrateSchemaOnly(in:storePath:)`), then verify the
    ///    result in the transaction (``StoreVerification``), then wait for the page check;
    /// 5. honour a cancellation for the last time, and commit: **the commit point**. SQLite
    ///    syncs the `-wal` (or the journal and the file) before it returns.
    /// Any error before 5 rolls the transaction back: the main file was never written.
    ///
    /// **Which pages are checked.** At the `quick` level, the pages the transaction's statements
    /// load, as SQLite loads them, rather than a `quick_check` of every page first. SQLite checks
    /// each b-tree page's header, and with `cell_size_check` its cells, when a statement first
    /// reads it; what it finds is `SQLITE_CORRUPT`, which rolls the transaction back and is
    /// reported as the damaged store it is (``damagedStore(_:)``), never as a failed step. What
    /// SQLite reaches only through a pointer (a free-list page it reuses, an overflow chain it
    /// frees, the pointer map `incremental_vacuum` follows) it trusts, as it does on every write
    /// an app makes, and as Core Data's own lightweight migration does on this same store. A
    /// page no statement reaches is neither read nor written: it is the same byte for byte
    /// after the commit. Reading every page anyway costs what the store costs, not what the
    /// change does: `quick_check` reads 2.4 GB in 5.6 s on the 2-core test machine, tens of
    /// seconds at 10 GB, past a launch watchdog, which would kill the app before the commit on
    /// every launch. The copy path keeps its `quick_check` of every page: it makes a new store
    /// out of all of them. ``UpgradeOptions/Verification/full`` checks every page here too.
    /// - parameter fingerprint: The store's files before `prepared` was made from them.
    func upgradeInOneTransaction(_ prepared: PreparedUpgrade, fingerprint: UpgradeJournal.Fingerprint) throws
        -> OneTransactionOutcome
    {
        let plan = prepared.plan
        guard let targetModel = plan.steps.last?.destination, let sourceModel = plan.steps.first?.source else {
            return .needsCopy(reason: "the plan has no step", prepared: prepared)
        }
        try StoreAccessGate.waitForBareConnections(files, timeout: options.lockTimeoutSeconds, emit: emit)
        // The plan was made from an unlocked read, and a connection outside StoreAccess may have
        // written (or crashed, leaving frames in the -wal) before it closed: the plan, and (with
        // the full verification) the page check of the main file alone, hold only for the files
        // as they were then.
        guard UpgradeJournal.Fingerprint(of: files) == fingerprint, files.generation.hasNothingToFoldIn else {
            return .needsCopy(reason: "the store changed while the upgrade waited for its other connections")
        }
        var configuration = Configuration.forStoreWrites
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Every page the transaction loads has its cells checked (see "Which pages are checked").
            try db.execute(sql: "PRAGMA cell_size_check = ON")
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: files.store.path, configuration: configuration)
        } catch {
            throw StoreError(path: files.store.path, wrapping: error)
        }
        defer { try? queue.close() }
        emit(.planned(from: plan.from, to: plan.to, steps: plan.steps))
        var reports: [StepReport] = []
        var sourceChanged = false
        let committed = try interruptible(queue) {
            try queue.writeWithoutTransaction { db -> Bool in
                let inWAL = try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal"
                var committed = false
                try db.inTransaction(.immediate) {
                    // The version the plan starts from, read again inside the transaction.
                    let metadata = try StoreMetadata.read(from: db, path: files.store.path)
                    guard sourceModel.isCompatible(withEntityHashes: metadata.versionHashes) else {
                        sourceChanged = true
                        return .rollback
                    }
                    let pageCheck = try checkPages(db, concurrently: inWAL)
                    do {
                        reports = try runStepsInTransaction(plan, db)
                        if reports.count < plan.steps.count {
                            try pageCheck?.wait()
                            return .rollback
                        }
                        // As the copy path's last step does (FreePages): no free page may keep a
                        // dropped value. `incremental_vacuum` runs inside the transaction.
                        try FreePages.removeAll(in: db)
                        emit(.verifying(options.verification))
                        try StoreVerification(
                            level: options.verification, scope: .init(reports), layouts: history.layouts,
                            hashes: history.hashes
                        )
                        .verify(db, path: files.store.path, model: targetModel)
                        try pageCheck?.wait()
                    } catch let cancelled as CancellationError {
                        // Not worth a whole integrity_check's wait: the rollback leaves the store as it was.
                        throw cancelled
                    } catch {
                        // A step that read a damaged store failed because of it: say so instead.
                        try pageCheck?.wait()
                        throw damagedStore(error) ?? error
                    }
                    // The last chance to stop: the commit is the commit point.
                    try cancellation?.check()
                    committed = true
                    return .commit
                }
                return committed
            }
        }
        guard committed else {
            // The transaction ran (and SQLite created and removed a -wal): the copy path plans again.
            if sourceChanged { return .needsCopy(reason: "the store is no longer at '\(plan.from)'") }
            let step = plan.steps[reports.count]
            return .needsCopy(reason: "step '\(step.from)' → '\(step.to)' rewrites rows")
        }
        // Past the commit point: the store is upgraded whatever happens next. Closing checkpoints
        // the -wal into the main file; a failure to close only leaves that to the next connection.
        do { try queue.close() } catch {
            logger.notice("closing the store after the commit failed", metadata: ["error": "\(error)"])
        }
        emit(.swapped)
        var report = UpgradeReport(
            from: plan.from, to: plan.to, outcome: .upgraded, steps: reports, backupURL: nil,
            seconds: Date().timeIntervalSince(started))
        report.path = .oneTransaction
        return .upgraded(report)
    }

    /// With ``UpgradeOptions/Verification/full``, starts the `integrity_check` of every page
    /// (``IntegrityCheck``): on a thread of its own when the store is in WAL mode, where the
    /// main file doesn't change until the commit; otherwise now, on `db`, before any step
    /// writes. Nil at the `quick` level, where SQLite checks the pages the transaction loads
    /// (see "Which pages are checked" on ``upgradeInOneTransaction(_:fingerprint:)``).
    private func checkPages(_ db: Database, concurrently: Bool) throws -> IntegrityCheck? {
        guard options.verification == .full else { return nil }
        if concurrently {
            return IntegrityCheck.start(onOriginal: files.store, full: true, storePath: files.store.path)
        }
        let problems: [String]
        do {
            problems = try PageCheck.problems(in: db, full: true)
        } catch {
            // A page too damaged to list problems for (a zeroed root) fails the check outright.
            throw damagedStore(error) ?? error
        }
        guard problems.isEmpty else { throw IntegrityCheck.damaged(problems, full: true, storePath: files.store.path) }
        return nil
    }

    /// The damaged-store refusal for an error SQLite raised on a damaged page the transaction
    /// loaded (`SQLITE_CORRUPT`, `SQLITE_NOTADB`), wherever it surfaced: raw, as a
    /// ``StoreError`` (the metadata's reads and writes), or inside a step's
    /// ``UpgradeError/Kind/stepFailed(index:count:from:to:underlying:)``. Nil for any other
    /// error. (``StoreVerification`` lets damage through unwrapped.)
    private func damagedStore(_ error: any Error) -> StoreError? {
        switch error {
        case is DatabaseError, is StoreError:
            let wrapped = StoreError(path: files.store.path, wrapping: error)
            return wrapped.isDamagedStore ? wrapped : nil
        case let error as UpgradeError:
            guard case .stepFailed(_, _, _, _, let underlying) = error.kind else { return nil }
            return damagedStore(underlying)
        default:
            return nil
        }
    }

    /// Each step on `db`, reporting as it goes; stops at the first step that rewrites rows,
    /// returning fewer reports than steps.
    private func runStepsInTransaction(_ plan: UpgradePlan, _ db: Database) throws -> [StepReport] {
        let count = plan.steps.count
        var reports: [StepReport] = []
        for (offset, planned) in plan.steps.enumerated() {
            let index = offset + 1
            try cancellation?.check()
            emit(.stepStarted(index: index, count: count, step: planned))
            let report: StepReport
            do {
                guard
                    let ran = try makeStep(planned, index: index, isLast: index == count).migrateSchemaOnly(
                        in: db, storePath: files.store.path)
                else { return reports }
                report = ran
            } catch let error as CancellationError {
                throw error
            } catch let error as UpgradeError {
                throw error
            } catch {
                throw UpgradeError(
                    .stepFailed(index: index, count: count, from: planned.from, to: planned.to, underlying: error),
                    storePath: files.store.path)
            }
            try checkDrops(report, index: index, count: count)
            reports.append(report)
            emit(.stepFinished(index: index, count: count, report: report))
        }
        return reports
    }

    /// Runs `body`, interrupting SQLite when the caller cancels (``StepCancellation``).
    private func interruptible<T>(_ queue: DatabaseQueue, _ body: () throws -> T) throws -> T {
        guard let cancellation else { return try body() }
        return try cancellation.interrupting(queue, body)
    }
}
