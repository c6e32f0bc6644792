import Foundation

/// Trials that kill an upgrade's child process at a random moment of a phase, then check the
/// store as the kill left it and after the next upgrade: the loop the crash test's kinds of
/// store share (the one transaction, external files).
///
/// Trial `n` targets `targets[n % targets.count]`: the child runs until it reports the phase,
/// then is killed after a random part of how long the phase took in an uninterrupted run.
struct PhaseKillTrials {
    /// The kinds of outcome, as the check after the kill names them ("old", "new").
    typealias Outcome = String

    /// For messages: "one-transaction", "external".
    var name: String
    var targets: [CrashPhase]
    /// How long each phase took in the uninterrupted run (``CrashChild/phaseDurations``).
    var durations: [CrashPhase: Double]
    /// A fresh store for trial `n`, in a folder of its own (removed after the trial).
    var makeStore: (_ trial: Int) throws -> URL
    /// Starts the upgrade of `store` in a child process.
    var startChild: (_ store: URL) throws -> CrashChild
    /// Right after the kill: what the store holds; throws when it is neither old nor new.
    var checkAfterKill: (_ store: URL) throws -> Outcome
    /// The next upgrade, and what must hold after it; throws when it doesn't.
    var checkRecovered: (_ store: URL) throws -> Void

    /// Runs `count` trials, saying each failure; returns the failures and each outcome's count.
    func run(count: Int, random: inout SplitMix64, say: (String) -> Void) throws -> (
        failures: Int, outcomes: [Outcome: Int]
    ) {
        var failures = 0
        var outcomes: [Outcome: Int] = [:]
        for trial in 0..<count {
            let target = targets[trial % targets.count]
            let store = try makeStore(trial)
            let child = try startChild(store)
            _ = child.wait(for: target, timeout: 600)
            let delay = random.nextDouble() * (durations[target] ?? 0)
            usleep(UInt32(delay * 1_000_000))
            child.kill()
            do {
                outcomes[try checkAfterKill(store), default: 0] += 1
                try checkRecovered(store)
            } catch {
                failures += 1
                say(
                    "  \(name) trial \(trial) (killed in \(child.currentPhase?.rawValue ?? "start") after \(String(format: "%.3f", delay)) s): FAILED: \(error)"
                )
            }
            try? FileManager.default.removeItem(at: store.deletingLastPathComponent())
        }
        return (failures, outcomes)
    }
}

extension CrashChild {
    /// How long each phase the child reported took, up to the next one it reported.
    var phaseDurations: [CrashPhase: Double] {
        let phases = self.phases
        var durations: [CrashPhase: Double] = [:]
        for (index, entry) in phases.enumerated() where index + 1 < phases.count {
            durations[entry.phase] = phases[index + 1].seconds - entry.seconds
        }
        return durations
    }
}
