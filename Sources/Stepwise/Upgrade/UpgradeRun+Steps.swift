import Foundation
import StepwiseMapping
import StepwiseModel

extension UpgradeRun {
    /// Runs the steps not yet completed, each into a fresh `step-<n>/` directory.
    ///
    /// Order per step, so that a crash at any point leaves a state the journal describes:
    /// 1. create `step-<n>/` (exclusive, private) and run the step into it; the step
    ///    checkpoints and syncs its file (`synchronous = FULL`);
    /// 2. sync the file and its directory again ourselves, then checksum it;
    /// 3. save the journal with the step completed (synced: see ``UpgradeJournal/save(in:fileSystem:)``);
    /// 4. only then delete the previous step's directory, no longer needed.
    /// A crash before 3 leaves an unjournaled directory, which the resume deletes.
    ///
    /// - returns: `state` with every step journaled (unchanged when a resumed run had them all).
    func runSteps(_ state: UpgradeRunState) throws -> UpgradeRunState {
        var state = state
        guard state.journal.state == .running else { return state }
        try runSteps(state.plan, originalCheck: state.originalCheck, journal: &state.journal)
        return state
    }

    private func runSteps(_ plan: UpgradePlan, originalCheck: IntegrityCheck?, journal: inout UpgradeJournal) throws {
        let count = plan.steps.count
        for (offset, planned) in plan.steps.enumerated() where offset >= journal.completed.count {
            let index = offset + 1
            try checkCancellation(&journal)
            let source = try sourceFile(forStep: index, journal: journal)
            let directory = workDirectory.appendingPathComponent("step-\(index)", isDirectory: true)
            let output = directory.appendingPathComponent(Self.stepFileName)
            emit(.stepStarted(index: index, count: count, step: planned))
            let report: StepReport
            do {
                try fileSystem.remove(directory, site: "step.remove-unfinished")
                try fileSystem.createDirectory(directory, site: "step.mkdir")
                report = try makeStep(planned, index: index, isLast: index == count).runReportingFileSystemErrors(
                    source: source, destination: output, access: sourceAccess(forStep: index, planned, journal))
                // Step 1 ran beside the damaged-store check of the original: nothing is
                // journaled before it has answered.
                do { try refuseIfDamaged(originalCheck) } catch { throw DamagedStore(error: error) }
                try checkDrops(report, index: index, count: count)
                // Ordering: the step's file and its directory entry reach the disk before the
                // journal that records it as a checkpoint.
                try fileSystem.sync(output, .ordering, site: "step.sync")
                try fileSystem.sync(directory, .ordering, site: "step.sync-directory")
                journal.completed.append(
                    UpgradeJournal.CompletedStep(
                        index: index, report: report, output: try FileChecksum.checkpoint(output, in: workDirectory)))
                try save(journal)
            } catch let crash as SimulatedCrash {
                throw crash
            } catch let damaged as DamagedStore {
                throw damaged.error
            } catch let cancelled as CancellationError {
                // As a failed step: its output goes, earlier checkpoints stay for a resume.
                try? fileSystem.remove(directory, site: "step.remove-failed")
                if journal.completed.count >= index { journal.completed.removeLast() }
                recordCancellation(in: &journal)
                throw cancelled
            } catch {
                // A step that read a damaged store failed because of it: say so instead.
                try refuseIfDamaged(originalCheck)
                // Discard this step's output; earlier checkpoints stay for a later resume.
                try? fileSystem.remove(directory, site: "step.remove-failed")
                var failure = UpgradeError(
                    .stepFailed(index: index, count: count, from: planned.from, to: planned.to, underlying: error),
                    storePath: files.store.path)
                if let refusal = error as? UpgradeError {
                    // Strict mode's refusal: already says which step and what it drops.
                    failure = refusal
                } else if let fileSystemError = error as? FileSystemError {
                    // Not the step's mapping at fault: report the call that failed, as it is.
                    failure = UpgradeError(fileSystemError, storePath: files.store.path)
                }
                if journal.completed.count >= index { journal.completed.removeLast() }
                recordFailure(failure, in: &journal)
                throw failure
            }
            if !readsOriginal(index, journal) {
                try fileSystem.remove(source.deletingLastPathComponent(), site: "step.remove-previous")
            }
            emit(.stepFinished(index: index, count: count, report: report))
            logger.info(
                "step finished",
                metadata: [
                    "step": "\(index)/\(count)", "from": "\(planned.from)", "to": "\(planned.to)",
                    "rows": "\(report.rows)",
                ])
        }
    }

    /// The damaged-store error, marked so the step's own error handling passes it through.
    private struct DamagedStore: Error {
        var error: any Error
    }

    /// Waits for the check of the original (``IntegrityCheck``) if the run has one; when
    /// the store is damaged, drops the work directory (nothing was committed, and there is no
    /// copy to resume from) and throws the check's error.
    private func refuseIfDamaged(_ originalCheck: IntegrityCheck?) throws {
        do {
            try originalCheck?.wait()
        } catch {
            try? fileSystem.remove(workDirectory, site: "work.remove-after-error")
            throw error
        }
    }

    /// Step 1 reads the copy, or the original itself; step n reads step n-1's output.
    private func sourceFile(forStep index: Int, journal: UpgradeJournal) throws -> URL {
        if readsOriginal(index, journal) { return files.store }
        let checkpoint = index == 1 ? journal.copy : journal.completed.last?.output
        guard let checkpoint else {
            throw UpgradeError(
                .verificationFailed("the journal has no checkpoint for step \(index)'s source"),
                storePath: files.store.path)
        }
        return workDirectory.appendingPathComponent(checkpoint.file)
    }

    private func readsOriginal(_ index: Int, _ journal: UpgradeJournal) -> Bool {
        index == 1 && journal.readsOriginal == true
    }

    /// What a step may do with its source:
    /// - the original (step 1, when the run copied nothing) is only read (``ImmutableStore``);
    /// - a stage's `willMigrate` writes to its source, so that step copies it first: the
    ///   checkpoint it reads stays intact for a resume;
    /// - step 1 may consume the copy of the original (an in-place step moves it into its own
    ///   directory): if it fails, or the process dies, the journal's copy checkpoint no longer
    ///   verifies and the next call copies the original again;
    /// - a later step reads an earlier step's checkpoint in place, kept for a resume, except
    ///   a step that rebuilds only the tables its mapping changes: it takes the checkpoint
    ///   (``MigrationStep/SourceAccess/checkpoint``). Copying it would write the whole store
    ///   again for each such step (16 explicit steps wrote 21 times the store). The price: a
    ///   crash during that step leaves no checkpoint to resume from, so the next call starts
    ///   over from the original, which was never touched (``resume(_:)`` trusts no
    ///   checkpoint whose file doesn't match it).
    private func sourceAccess(forStep index: Int, _ planned: PlannedStep, _ journal: UpgradeJournal)
        -> MigrationStep.SourceAccess
    {
        if readsOriginal(index, journal) { return .readOnly }
        if stages.stage(for: planned)?.willMigrate != nil { return .copy }
        return index == 1 ? .consumableCopy : .checkpoint
    }

    func makeStep(_ planned: PlannedStep, index: Int, isLast: Bool) throws -> MigrationStep {
        let relay = StepProgressRelay(step: index, emit: options.progress)
        let progress: (@Sendable (StepProgress) -> Void)? =
            options.progress == nil ? nil : { @Sendable event in relay.relay(event) }
        var step = MigrationStep(
            from: planned.source, to: planned.destination, mappingModels: planned.mappingModels,
            policies: policies,
            stage: stages.stage(for: planned), logger: logger, progress: progress)
        step.fileSystem = fileSystem
        step.cancellation = cancellation
        // Steps read copies in the work directory; the files of external values are beside the store.
        step.externalData = ExternalDataFolder(store: files.store)
        // Free pages a step leaves are overwritten by the next step's tables; the last step
        // removes those left over, so the upgraded store has none (``FreePages``).
        step.leavesNoFreePages = isLast
        return step
    }

    /// The stage registered for the planned step, if any (the planner kept it apart).
    /// Deletes everything in the work directory but `names`.
    func prune(keeping names: Set<String>) throws {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: workDirectory.path)) ?? []
        for entry in entries where !names.contains(entry) {
            try fileSystem.remove(workDirectory.appendingPathComponent(entry), site: "work.prune")
        }
    }

    static func topDirectory(of relativePath: String) -> String {
        String(relativePath.split(separator: "/").first ?? "")
    }
}
