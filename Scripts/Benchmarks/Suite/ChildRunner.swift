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

    /// One run. The folder holds only the store (a copy of `seed`, put in place and synced
    /// before the child starts, when `placeSeed`), so the child's disk samples are the run's
    /// alone. Synced: an app's store is at rest on the disk, and an unsynced copy would make
    /// the first `fsync` of the run, Stepwise's or the baseline's, write the whole copy out
    /// (1.2 s of a 10M-recipe run, which its `ALTER`s alone take milliseconds of).
    func run(_ scenario: ScenarioName, side: BenchRunCommand.Side, seed: URL, placeSeed: Bool) throws -> ChildRunResult
    {
        let folder = directory.appendingPathComponent("run-\(scenario.rawValue)-\(side.rawValue)", isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Recipes.sqlite")
        if placeSeed {
            try FileManager.default.copyItem(at: seed, to: store)
            try Self.sync(store)
            try Self.sync(folder)
        }
        let output = try Subprocess.run(
            try Self.executable(),
            ["bench-run", scenario.rawValue, "--side", side.rawValue, "--store", store.path, "--seed", seed.path])
        guard let line = String(decoding: output, as: UTF8.self).split(separator: "\n").last else {
            throw BenchError("bench-run \(scenario) \(side) printed nothing")
        }
        return try JSONDecoder().decode(ChildRunResult.self, from: Data(line.utf8))
    }

    /// `fsync` of a file or folder.
    private static func sync(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchError("can't open \(url.path) to sync it (errno \(errno))") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw BenchError("fsync of \(url.path) failed (errno \(errno))") }
    }
}
