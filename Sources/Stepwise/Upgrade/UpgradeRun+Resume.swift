import Foundation
import StepwiseMapping
import StepwiseModel

extension UpgradeRun {
    /// Picks up an interrupted run's checkpoints when the plan is still the same (same
    /// versions, same mappings). Returns nil (the caller starts over) when it isn't, or
    /// when the latest checkpoint no longer matches its checksum: a half-written step is
    /// never trusted. Throws what planning from scratch would throw too (no path, an
    /// unregistered policy): the checkpoints stay for a build that can run them.
    func resume(_ journal: UpgradeJournal) throws -> UpgradeRunState? {
        guard let from = journal.from, journal.to == target else { return nil }
        // A run from the store's cached model re-reads it from the archive it kept.
        let planner = planner.startingFrom(modelCache: keptModelCache(named: from))
        // A version this build doesn't know (or a kept cached model that can't be read):
        // identifying the store afresh decides.
        guard planner.version(named: from) != nil else { return nil }
        let plan = try planner.plan(from: from, to: target)
        guard plan.steps.map({ $0.fingerprint(policies: policies) }) == journal.plan else { return nil }
        // The same refusal as a fresh run's: a resumed plan's later step may name a policy
        // this build doesn't register.
        try UpgradePreparation.checkPolicies(of: plan, in: policies)
        var journal = journal
        var keep: Set<String>
        // The last output may already have moved to incoming/ (verified) just before a crash.
        let movedFinal = journal.completed.last.map { $0.output.renamed(to: "incoming/\(files.name)") }
        if journal.completed.count == journal.plan.count, let final = journal.final ?? movedFinal,
            FileChecksum.verify(final, in: workDirectory)
        {
            journal.state = .verified
            journal.final = final
            keep = ["incoming"]
        } else if let last = journal.completed.last, FileChecksum.verify(last.output, in: workDirectory) {
            journal.state = .running
            journal.final = nil
            keep = [Self.topDirectory(of: last.output.file)]
        } else if journal.completed.isEmpty, let copy = journal.copy, FileChecksum.verify(copy, in: workDirectory) {
            journal.state = .running
            keep = [Self.topDirectory(of: copy.file)]
        } else {
            return nil
        }
        // Anything else in the work directory is a step that never finished: delete it.
        try prune(keeping: keep.union([UpgradeJournal.fileName, Self.modelCacheFileName]))
        journal.failure = nil
        try save(journal)
        emit(.resuming(completedSteps: journal.completed.count))
        emit(.planned(from: from, to: target, steps: plan.steps))
        logger.notice("resuming an interrupted upgrade", metadata: ["completedSteps": "\(journal.completed.count)"])
        // Nothing to wait for: a copy was checked before it was journaled, and a run that read
        // the original journaled no step before that check had answered (runSteps).
        return UpgradeRunState(
            plan: plan, journal: journal, resumedSteps: Set(journal.completed.map(\.index)), originalCheck: nil,
            copyReason: "it resumes an interrupted upgrade from its checkpoints")
    }
}
