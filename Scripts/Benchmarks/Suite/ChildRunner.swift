import Foundation

/// Runs `stepwise-bench bench-run` for one side of a scenario in a fresh folder.
struct ChildRunner {
    /// Where each run's folder is made (and removed after).
    var directory: URL

    /// This executable, to run as the child.
    static func executable() throws -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        guard let path = Bundle.main.executablePath else {
            throw BenchError("can't find the stepwise-bench executable")
        }
        return path
    }

    /// One run. The folder holds only the store (a copy of `seed`, put in place before the
    /// child starts, when `placeSeed`), so the child's disk samples are the run's alone.
    func run(_ scenario: ScenarioName, side: BenchRunCommand.Side, seed: URL, placeSeed: Bool) throws -> ChildRunResult
    {
        let folder = directory.appendingPathComponent("run-\(scenario.rawValue)-\(side.rawValue)", isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Recipes.sqlite")
        if placeSeed { try FileManager.default.copyItem(at: seed, to: store) }
        let output = try Subprocess.run(
            try Self.executable(),
            ["bench-run", scenario.rawValue, "--side", side.rawValue, "--store", store.path, "--seed", seed.path])
        guard let line = String(decoding: output, as: UTF8.self).split(separator: "\n").last else {
            throw BenchError("bench-run \(scenario) \(side) printed nothing")
        }
        return try JSONDecoder().decode(ChildRunResult.self, from: Data(line.utf8))
    }
}
