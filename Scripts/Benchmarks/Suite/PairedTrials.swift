import Foundation

/// A child scenario's trials: Stepwise and its baseline alternating (S, B, S, B, …) so that
/// both see the same machine state (page cache, other load) over the run, and both results
/// checked against each other after every trial.
struct PairedTrials {
    var stepwise: [ChildRunResult] = []
    var baseline: [ChildRunResult] = []

    static func run(
        _ scenario: ScenarioName, child: any ChildScenario, seed: URL, trials: Int, runner: ChildRunner
    ) throws -> PairedTrials {
        var result = PairedTrials()
        for trial in 1...trials {
            let stepwise = try runner.run(scenario, side: .stepwise, seed: seed, placeSeed: true)
            let baseline = try runner.run(scenario, side: .baseline, seed: seed, placeSeed: !child.baselineCopiesSeed)
            try OutcomeCheck.same(stepwise.facts, baseline.facts, scenario: scenario)
            if trial == 1 {
                BenchLog.note("\(scenario.rawValue) steps: \(stepwise.steps.joined(separator: ", "))")
                if !baseline.steps.isEmpty {
                    BenchLog.note("\(scenario.rawValue) baseline steps: \(baseline.steps.joined(separator: ", "))")
                }
            }
            BenchLog.note(
                String(
                    format: "%@ trial %d/%d: stepwise %.3f s, baseline %.3f s", scenario.rawValue, trial, trials,
                    stepwise.seconds, baseline.seconds))
            result.stepwise.append(stepwise)
            result.baseline.append(baseline)
        }
        return result
    }

    /// The scenario's JSON line.
    func line(_ scenario: ScenarioName, rows: Int) -> JSONLine {
        let stepwiseSeconds = Statistics.median(stepwise.map(\.seconds))
        let baselineSeconds = Statistics.median(baseline.map(\.seconds))
        let ratio = stepwiseSeconds / baselineSeconds
        var line = JSONLine()
        line.add("scenario", scenario.rawValue)
        line.add("rows", rows)
        line.add("stepwise_s", stepwiseSeconds)
        line.add("baseline_s", baselineSeconds)
        line.add("ratio", ratio, digits: 3)
        line.add("peak_rss_mb", stepwise.compactMap(\.peakRSSMegabytes).max(), digits: 1)
        line.add("extra_disk_ratio", extraDiskRatio, digits: 3)
        line.add("target", scenario.target)
        if scenario == .explicit {
            let written = writtenRatio
            line.add("written_ratio", written, digits: 3)
            line.add("written_ratio_upgraded", writtenRatioToUpgraded, digits: 3)
            line.add("baseline_written_ratio", baselineWrittenRatio, digits: 3)
            // Against the upgraded store: the source store is below the floor when the
            // steps make the tables grow (README, "explicit counts bytes").
            line.add("meets", writtenRatioToUpgraded.map { $0 <= 3 })
        } else if scenario == .large {
            // Absolute: what a launch waits for, and the disk a device must have free.
            line.add("meets", stepwiseSeconds < 2 && (extraDiskRatio ?? 0) <= 0.2)
        } else {
            line.add("meets", ratio <= scenario.ratioLimit)
        }
        line.add("stepwise_runs_s", stepwise.map(\.seconds))
        line.add("baseline_runs_s", baseline.map(\.seconds))
        line.add("baseline_peak_rss_mb", baseline.compactMap(\.peakRSSMegabytes).max(), digits: 1)
        // The floor's own extra disk: what the same SQL on the store needs (its -wal), beside Stepwise's.
        line.add("baseline_extra_disk_ratio", baseline.compactMap(\.extraDiskRatio).max(), digits: 3)
        return line
    }

    /// The most bytes one of Stepwise's runs wrote, ÷ the store's size.
    var writtenRatio: Double? {
        stepwise.compactMap { run in
            run.writtenBytes.flatMap { run.storeBytes > 0 ? Double($0) / Double(run.storeBytes) : nil }
        }.max()
    }

    /// The most bytes one of Stepwise's runs wrote, ÷ the upgraded store's size.
    var writtenRatioToUpgraded: Double? {
        stepwise.compactMap { run in
            run.writtenBytes.flatMap { written in run.upgradedBytes.map { Double(written) / Double(max($0, 1)) } }
        }.max()
    }

    /// The most bytes one of the baseline's runs wrote (its `cp` and `sqlite3` included: a
    /// reaped child's writes count in its parent's `/proc/self/io`), ÷ the source store's size
    /// (the seed Stepwise's runs started from).
    var baselineWrittenRatio: Double? {
        guard let source = stepwise.map(\.storeBytes).max(), source > 0 else { return nil }
        return baseline.compactMap(\.writtenBytes).max().map { Double($0) / Double(source) }
    }

    /// The largest peak extra disk of Stepwise's runs, ÷ the store's size.
    var extraDiskRatio: Double? { stepwise.compactMap(\.extraDiskRatio).max() }
}

/// The outcome checks: a fast result must also be the right one.
enum OutcomeCheck {
    static func same(_ stepwise: [String: Int], _ expected: [String: Int], scenario: ScenarioName) throws {
        guard stepwise == expected else {
            let differing = Set(stepwise.keys).union(expected.keys).sorted().filter { stepwise[$0] != expected[$0] }
            let detail = differing.map {
                "\($0): stepwise \(stepwise[$0].map(String.init) ?? "-"), expected \(expected[$0].map(String.init) ?? "-")"
            }
            throw BenchError(
                "\(scenario): Stepwise's result differs from the baseline's: \(detail.joined(separator: "; "))")
        }
    }
}

extension ScenarioName {
    /// The largest ratio that meets the target.
    var ratioLimit: Double {
        switch self {
        case .launch, .custom, .lightweight, .chain: 1.5
        case .memory: 1.3
        case .relink: 2
        case .explicit, .matrix, .launchCLI, .large: .infinity
        case .disk: 1.2
        }
    }
}
