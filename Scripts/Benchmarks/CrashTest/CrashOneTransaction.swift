import Foundation
import Stepwise

// The crash test's trials of the path without a copy (issue 46): a store at Bench 2, whose one
// step to Bench 3 (a rename and an optional attribute) changes only the schema, is upgraded in
// one SQLite transaction on the store itself. A kill before the commit must leave Bench 2 byte
// for byte (the main file is never written before it: a WAL transaction writes only the -wal);
// after it, Bench 3 whole, from the -wal if the checkpoint into the main file was cut short.
extension CrashTestCommand {
    /// `count` kills spread over plan (the transaction's steps), verify (verification, the page
    /// check and the commit) and cleanup (closing, which checkpoints the -wal into the main file).
    /// Returns the number of failed trials.
    func oneTransactionTrials(count: Int, from original: URL, in work: URL, random: inout SplitMix64) throws -> Int {
        let atBench2 = try copy(original, into: work, as: "bench-2-original")
        _ = try CrashHistory.upgrader(to: "Bench 2").upgradeIfNeededSynchronously(storeAt: atBench2)
        let check = CrashCheck(rows: options.rows, original: atBench2, oldVersion: "Bench 2")
        let timingStore = try copy(atBench2, into: work, as: "bench-2-timing")
        let timing = try CrashChild(store: timingStore)
        guard timing.waitForExit() == 0 else { throw BenchError("the uninterrupted one-transaction upgrade failed") }
        try check.recover(timingStore)
        let durations = timing.phaseDurations
        say(
            "crash-test: Bench 2 → Bench 3 in one transaction; uninterrupted upgrade \(format(timing.phases.last?.seconds ?? 0)) s"
        )
        let targets: [CrashPhase] = [.plan, .verify, .cleanup]
        for phase in targets { say("  \(phase.rawValue): \(format(durations[phase] ?? 0)) s") }
        let trials = PhaseKillTrials(
            name: "one-transaction", targets: targets, durations: durations,
            makeStore: { trial in try copy(atBench2, into: work, as: "one-transaction-trial-\(trial)") },
            startChild: { store in try CrashChild(store: store) },
            checkAfterKill: { store in try check.stateAfterKill(store).rawValue },
            checkRecovered: { store in try check.recover(store) })
        let (failures, outcomes) = try trials.run(count: count, random: &random, say: say)
        say(
            "one transaction: \(count) trials, \(outcomes["old"] ?? 0) old stores and \(outcomes["new"] ?? 0) new after the kill, \(failures) failures"
        )
        return failures
    }
}
