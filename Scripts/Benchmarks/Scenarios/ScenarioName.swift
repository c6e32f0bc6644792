import ArgumentParser
import Foundation

/// The scenarios of `Scripts/bench` (issue 12), in the order they run.
enum ScenarioName: String, CaseIterable, ExpressibleByArgument {
    case launch
    case launchCLI = "launch-cli"
    case lightweight, chain, large, custom, relink, explicit, memory, disk, matrix

    /// The target, as text for the JSON line.
    var target: String {
        switch self {
        case .launch: "ratio <= 1.5 and history_ratio (120 versions / 5) <= 1.2"
        case .launchCLI: "history_ratio (120 versions / 5) <= 1.5"
        case .lightweight: "ratio <= 1.5"
        case .chain: "ratio <= 1.5"
        case .large: "stepwise_s < 2 and extra_disk_ratio <= 0.2 (10M recipes)"
        case .custom: "ratio <= 1.5"
        case .relink: "ratio <= 2"
        case .explicit: "written_ratio_upgraded (bytes written over the whole run ÷ the upgraded store) <= 3"
        case .memory: "ratio (peak RSS 10x rows / 1x) <= 1.3 and peak_rss_mb <= 200"
        case .disk: "extra_disk_ratio <= 1.2"
        case .matrix: "stepwise_s < 30 (the whole matrix at 1,000 rows, 12 versions)"
        }
    }

    /// The scenarios whose two sides run in child processes (`bench-run`).
    var child: (any ChildScenario)? {
        switch self {
        case .lightweight: LightweightScenario()
        case .chain: ChainScenario()
        case .large: LargeScenario()
        case .custom: CustomScenario()
        case .relink: RelinkScenario()
        case .explicit: ExplicitHistoryScenario()
        case .launch, .launchCLI, .memory, .disk, .matrix: nil
        }
    }
}

/// A scenario whose Stepwise side and baseline each run in their own child process
/// (`stepwise-bench bench-run`), so the peak memory and disk of a run are that run's alone.
protocol ChildScenario: Sendable {
    /// Whether the baseline starts from a copy of the seed put in place before the clock
    /// starts (as Stepwise's side always does), or copies the seed itself, on the clock.
    var baselineCopiesSeed: Bool { get }

    /// Stepwise's side: upgrades the store at `store`, a fresh copy of the seed. Returns the
    /// steps that ran, for the log.
    func runStepwise(store: URL) throws -> [String]

    /// The baseline: leaves at `store` what Stepwise's side would. `seed` is the cached seed.
    /// Returns the Stepwise steps it ran, if any.
    func runBaseline(store: URL, seed: URL) throws -> [String]

    /// What both sides' results must agree on.
    var facts: StoreFacts { get throws }
}
