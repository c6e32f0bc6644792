import Foundation

/// `launch-cli`: what a fleet script or CI gate pays to run `stepwise upgrade` on a store that
/// is already up to date (issue 45).
///
/// - Stepwise: `stepwise upgrade STORE --models Launch.xcdatamodeld --progress none`, a process
///   of its own, on an up-to-date copy of the seed, with the 5-version bundle.
/// - Baseline: the `sqlite3` shell reading `Z_METADATA` from the same store, a process too: the
///   floor of a process that opens the store and reads its version.
/// - History: the same command with a 120-version bundle whose current version is identical
///   (``RecipesVariants/launch(count:)``) ÷ the 5-version one. The command takes the launch
///   path, which reads only the current version, so the length of the history costs next to
///   nothing.
///
/// The three sides alternate, each sample several runs back to back, as in ``LaunchScenario``.
enum LaunchCLIScenario {
    static func run(rows: Int, seed: URL, directory: URL, trials: Int, quick: Bool) throws -> JSONLine {
        let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("stepwise")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else {
            throw BenchError("launch-cli: \(tool.path) is missing: Scripts/bench builds it beside stepwise-bench")
        }
        guard let sqlite3 = SQLiteShell.path else {
            throw BenchError("the sqlite3 shell is missing: install Debian package sqlite3")
        }
        let folder = directory.appendingPathComponent("launch-cli", isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let short = try LaunchScenario.writeBundle(count: 5, in: folder)
        let long = try LaunchScenario.writeBundle(count: 120, in: folder)
        let storeFolder = folder.appendingPathComponent("store", isDirectory: true)
        try FileManager.default.createDirectory(at: storeFolder, withIntermediateDirectories: true)
        let store = storeFolder.appendingPathComponent("Recipes.sqlite")
        try FileManager.default.copyItem(at: seed, to: store)

        func upgrade(_ bundle: URL) throws {
            let output = try Subprocess.run(
                tool.path, ["upgrade", store.path, "--models", bundle.path, "--progress", "none", "--json"])
            guard String(decoding: output, as: UTF8.self).contains(#""outcome":"upToDate""#)
                || String(decoding: output, as: UTF8.self).contains(#""outcome" : "upToDate""#)
            else { throw BenchError("launch-cli: the store wasn't found up to date") }
        }
        let sides: [(name: String, call: () throws -> Void)] = [
            ("stepwise", { try upgrade(short) }),
            (
                "baseline",
                {
                    try Subprocess.run(
                        sqlite3, ["-init", "/dev/null", "-readonly", store.path, "SELECT count(*) FROM Z_METADATA"])
                }
            ),
            ("stepwise, 120 versions", { try upgrade(long) }),
        ]
        let budget = quick ? 0.3 : 1.0
        let iterations = try sides.map { try LaunchScenario.calls(lasting: budget, $0.call) }
        var samples: [[Double]] = Array(repeating: [], count: sides.count)
        for trial in 1...trials {
            for (index, side) in sides.enumerated() {
                samples[index].append(try LaunchScenario.time(iterations[index], side.call))
            }
            BenchLog.note(
                String(
                    format: "launch-cli trial %d/%d: stepwise %.1f ms, baseline %.1f ms, 120 versions %.1f ms", trial,
                    trials, samples[0][trial - 1] * 1e3, samples[1][trial - 1] * 1e3, samples[2][trial - 1] * 1e3))
        }
        let medians = samples.map(Statistics.median)
        let ratio = medians[0] / medians[1]
        let historyRatio = medians[2] / medians[0]
        var line = JSONLine()
        line.add("scenario", ScenarioName.launchCLI.rawValue)
        line.add("rows", rows)
        line.add("stepwise_s", medians[0], digits: 6)
        line.add("baseline_s", medians[1], digits: 6)
        line.add("ratio", ratio, digits: 3)
        line.add("peak_rss_mb", nil as Double?)
        line.add("extra_disk_ratio", nil as Double?)
        line.add("target", ScenarioName.launchCLI.target)
        line.add("meets", historyRatio <= 1.5)
        line.add("stepwise_120_versions_s", medians[2], digits: 6)
        line.add("history_ratio", historyRatio, digits: 3)
        line.add("calls_per_sample", iterations.map(Double.init), digits: 0)
        return line
    }
}
