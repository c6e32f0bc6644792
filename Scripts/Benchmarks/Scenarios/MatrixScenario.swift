import Foundation

/// `matrix` (issue 25): `stepwise matrix --rows 1000` on the newest 12 versions of Wire's
/// `zmessaging` history (``MatrixHistory``, 66 pairs), against the floor of that work
/// (``MatrixBaseline``: seed each version once, then per pair one copy and one `INSERT …
/// SELECT` upgrade). Each side runs in its own child process (`bench-matrix`), alternating;
/// the times are medians, the peak memory the largest of the matrix's runs.
///
/// The target is absolute: the whole matrix in under 30 s. Without the corpus the scenario is
/// skipped with a note.
enum MatrixScenario {
    /// The issue's target, in seconds.
    static let targetSeconds = 30.0

    static func run(rows: Int, directory: URL, trials: Int) throws -> JSONLine? {
        guard let bundle = try MatrixHistory.ensureBundle(in: directory) else {
            BenchLog.note("matrix: skipped, no corpus beside the package (../shared/corpus)")
            return nil
        }
        var stepwise: [MatrixRunResult] = []
        var baseline: [MatrixRunResult] = []
        for trial in 1...trials {
            let matrix = try runChild(.stepwise, bundle: bundle, rows: rows, directory: directory)
            let floor = try runChild(.baseline, bundle: bundle, rows: rows, directory: directory)
            guard matrix.facts["unreachable"] == 0 else {
                throw BenchError("matrix: \(matrix.facts["unreachable"] ?? -1) pairs are unreachable")
            }
            try OutcomeCheck.same(matrix.facts.filter { $0.key == "pairs" }, floor.facts, scenario: .matrix)
            BenchLog.note(
                String(
                    format: "matrix trial %d/%d: stepwise %.2f s (%.1f MB), baseline %.2f s, %d pairs", trial, trials,
                    matrix.seconds, matrix.peakRSSMegabytes ?? 0, floor.seconds, matrix.facts["pairs"] ?? 0))
            stepwise.append(matrix)
            baseline.append(floor)
        }
        let stepwiseSeconds = Statistics.median(stepwise.map(\.seconds))
        let baselineSeconds = Statistics.median(baseline.map(\.seconds))
        var line = JSONLine()
        line.add("scenario", ScenarioName.matrix.rawValue)
        line.add("rows", rows)
        line.add("stepwise_s", stepwiseSeconds)
        line.add("baseline_s", baselineSeconds)
        line.add("ratio", stepwiseSeconds / baselineSeconds, digits: 3)
        line.add("peak_rss_mb", stepwise.compactMap(\.peakRSSMegabytes).max(), digits: 1)
        line.add("extra_disk_ratio", nil as Double?)
        line.add("target", ScenarioName.matrix.target)
        line.add("meets", stepwiseSeconds < targetSeconds)
        line.add("pairs", stepwise.first?.facts["pairs"])
        line.add("values_compared", stepwise.first?.facts["values compared"])
        line.add("stepwise_runs_s", stepwise.map(\.seconds))
        line.add("baseline_runs_s", baseline.map(\.seconds))
        line.add("baseline_peak_rss_mb", baseline.compactMap(\.peakRSSMegabytes).max(), digits: 1)
        return line
    }

    /// One side in a fresh child process, with a fresh folder for the baseline's stores.
    private static func runChild(_ side: BenchRunCommand.Side, bundle: URL, rows: Int, directory: URL) throws
        -> MatrixRunResult
    {
        let folder = directory.appendingPathComponent("run-matrix-\(side.rawValue)", isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try Subprocess.run(
            try ChildRunner.executable(),
            [
                "bench-matrix", "--side", side.rawValue, "--bundle", bundle.path, "--rows", String(rows), "--folder",
                folder.path,
            ])
        guard let line = String(decoding: output, as: UTF8.self).split(separator: "\n").last else {
            throw BenchError("bench-matrix \(side) printed nothing")
        }
        return try JSONDecoder().decode(MatrixRunResult.self, from: Data(line.utf8))
    }
}
