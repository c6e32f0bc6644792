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
            guard
                String(decoding: output, as: UTF8.self).contains(#""outcome":"upToDate""#)
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
        let (medians, iterations) = try LaunchScenario.alternate(
            sides, budget: budget, trials: trials, label: "launch-cli")
        return LaunchScenario.line(
            .launchCLI, rows: rows, medians: medians, iterations: iterations, meets: { _, history in history <= 1.5 })
    }
}
