import ArgumentParser
import Foundation

/// `stepwise-bench bench`: issue 12's benchmark, behind `Scripts/bench`. Prints one JSON line
/// per scenario on stdout; progress goes to stderr.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run Scripts/bench's scenarios: Stepwise against its baselines, alternating, median of 5.",
        discussion: "See Scripts/bench for what each scenario and baseline measures.")

    @Flag(help: "One tenth of the sizes (100k recipes instead of 1M).")
    var quick = false

    @Option(help: ArgumentHelp("Comma-separated scenarios to run (default: all).", valueName: "scenario,…"))
    var only: String?

    @Option(help: "Where seeds are cached and runs write (default: $TMPDIR/stepwise-bench).", completion: .directory)
    var dir: String?

    @Option(help: "Trials per side.")
    var trials = 5

    func validate() throws {
        for name in selectedNames where ScenarioName(rawValue: name) == nil {
            throw ValidationError(
                "unknown scenario '\(name)' (known: \(ScenarioName.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard trials >= 1 else { throw ValidationError("--trials must be at least 1.") }
    }

    private var selectedNames: [String] {
        only.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? []
    }

    func run() throws {
        let selected = selectedNames.isEmpty ? ScenarioName.allCases : selectedNames.compactMap(ScenarioName.init)
        let directory =
            dir.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("stepwise-bench")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let rows = quick ? 100_000 : 1_000_000
        let runner = ChildRunner(directory: directory)
        var paired: [ScenarioName: PairedTrials] = [:]
        for scenario in ScenarioName.allCases where selected.contains(scenario) {
            BenchLog.note("\(scenario.rawValue)…")
            let line: JSONLine
            switch scenario {
            case .launch:
                let seed = try RecipesSeed.ensure(rows: rows, in: directory)
                line = try LaunchScenario.run(
                    rows: rows, seed: seed, directory: directory, trials: trials, quick: quick)
            case .launchCLI:
                let seed = try RecipesSeed.ensure(rows: rows, in: directory)
                line = try LaunchCLIScenario.run(
                    rows: rows, seed: seed, directory: directory, trials: trials, quick: quick)
            case .lightweight, .chain, .custom, .relink:
                guard let child = scenario.child else { continue }
                let seed = try RecipesSeed.ensure(rows: rows, in: directory)
                let trials = try PairedTrials.run(scenario, child: child, seed: seed, trials: trials, runner: runner)
                paired[scenario] = trials
                line = trials.line(scenario, rows: rows)
            case .large:
                guard let child = scenario.child else { continue }
                let seed = try RecipesSeed.ensure(rows: rows * 10, in: directory)
                let trials = try PairedTrials.run(scenario, child: child, seed: seed, trials: trials, runner: runner)
                line = trials.line(scenario, rows: rows * 10)
            case .explicit:
                guard let child = scenario.child else { continue }
                let seed = try ExplicitHistory.ensureSeed(rows: rows, in: directory)
                let trials = try PairedTrials.run(scenario, child: child, seed: seed, trials: trials, runner: runner)
                line = trials.line(scenario, rows: rows)
            case .memory:
                line = try MemoryScenario.run(
                    small: rows / 2, large: rows * 5, directory: directory, runner: runner)
            case .disk:
                let seed = try RecipesSeed.ensure(rows: rows, in: directory)
                line = try DiskScenario.run(
                    rows: rows, seed: seed, lightweight: paired[.lightweight], custom: paired[.custom], runner: runner)
            case .matrix:
                // Rows per entity of each seeded store: the 1,000 (100 with --quick).
                guard let matrix = try MatrixScenario.run(rows: rows / 1_000, directory: directory, trials: trials)
                else { continue }
                line = matrix
            }
            // Unbuffered, so each line shows as soon as its scenario ends.
            FileHandle.standardOutput.write(Data((line.text + "\n").utf8))
        }
    }
}
