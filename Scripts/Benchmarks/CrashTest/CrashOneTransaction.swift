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
        var durations: [CrashPhase: Double] = [:]
        let phases = timing.phases
        for (index, entry) in phases.enumerated() where index + 1 < phases.count {
            durations[entry.phase] = phases[index + 1].seconds - entry.seconds
        }
        say(
            "crash-test: Bench 2 → Bench 3 in one transaction; uninterrupted upgrade \(format(phases.last?.seconds ?? 0)) s"
        )
        let targets: [CrashPhase] = [.plan, .verify, .cleanup]
        for phase in targets { say("  \(phase.rawValue): \(format(durations[phase] ?? 0)) s") }
        var failures = 0
        var outcomes: [CrashCheck.State: Int] = [:]
        for trial in 0..<count {
            let target = targets[trial % targets.count]
            let store = try copy(atBench2, into: work, as: "one-transaction-trial-\(trial)")
            let child = try CrashChild(store: store)
            _ = child.wait(for: target, timeout: 600)
            let delay = random.nextDouble() * (durations[target] ?? 0)
            usleep(UInt32(delay * 1_000_000))
            child.kill()
            do {
                outcomes[try check.stateAfterKill(store), default: 0] += 1
                try check.recover(store)
            } catch {
                failures += 1
                say(
                    "  one-transaction trial \(trial) (killed in \(child.currentPhase?.rawValue ?? "start") after \(format(delay)) s): FAILED: \(error)"
                )
            }
            try? FileManager.default.removeItem(at: store.deletingLastPathComponent())
        }
        say(
            "one transaction: \(count) trials, \(outcomes[.old] ?? 0) old stores and \(outcomes[.new] ?? 0) new after the kill, \(failures) failures"
        )
        return failures
    }
}
