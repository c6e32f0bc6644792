import Foundation
import GRDB
import Stepwise
import StepwiseModel
import StepwiseStore

/// `launch`, in this process: what an app pays at every launch when nothing needs upgrading.
///
/// - Stepwise: the launch call, `Upgrader.upgradeIfNeeded(storeAt:bundleAt:)`, with a
///   `.xcdatamodeld` written to disk, on an up-to-date copy of the seed.
/// - Baseline: open the store with GRDB, read `Z_METADATA`, and parse the current version's
///   `contents` with ``XcodeModelReader``: what any app must do to learn the store's version
///   and know its model, and what Core Data does before it opens a store.
/// - History: the same Stepwise call with a 120-version bundle against a 5-version one, whose
///   current versions are identical (``RecipesVariants/launch(count:)``): a long history
///   should cost next to nothing when the store is up to date.
///
/// Each sample times enough calls back to back (3 to 50) to last well above the timer's
/// resolution, and reports the time per call; the three sides alternate.
enum LaunchScenario {
    static func run(rows: Int, seed: URL, directory: URL, trials: Int, quick: Bool) throws -> JSONLine {
        let folder = directory.appendingPathComponent("launch", isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let short = try writeBundle(count: 5, in: folder)
        let long = try writeBundle(count: 120, in: folder)
        let storeFolder = folder.appendingPathComponent("store", isDirectory: true)
        try FileManager.default.createDirectory(at: storeFolder, withIntermediateDirectories: true)
        let store = storeFolder.appendingPathComponent("Recipes.sqlite")
        try FileManager.default.copyItem(at: seed, to: store)
        let current = short.appendingPathComponent("Launch 5.xcdatamodel")

        let stepwiseShort = { try stepwiseCheck(bundle: short, store: store) }
        let stepwiseLong = { try stepwiseCheck(bundle: long, store: store) }
        let baseline = { try baselineCheck(store: store, currentVersion: current) }
        let budget = quick ? 0.1 : 0.4
        let sides: [(name: String, call: () throws -> Void)] = [
            ("stepwise", stepwiseShort), ("baseline", baseline), ("stepwise, 120 versions", stepwiseLong),
        ]
        let (medians, iterations) = try alternate(sides, budget: budget, trials: trials, label: "launch")
        return line(
            .launch, rows: rows, medians: medians, iterations: iterations,
            meets: { ratio, historyRatio in ratio <= 1.5 && historyRatio <= 1.2 })
    }

    /// Times the three sides (Stepwise, baseline, Stepwise with the long history), alternating,
    /// `trials` samples each; a sample is as many calls back to back as last about `budget`
    /// seconds. Returns the median seconds per call of each side, and the calls per sample.
    static func alternate(
        _ sides: [(name: String, call: () throws -> Void)], budget: Double, trials: Int, label: String
    ) throws -> (medians: [Double], iterations: [Int]) {
        let iterations = try sides.map { try calls(lasting: budget, $0.call) }
        var samples: [[Double]] = Array(repeating: [], count: sides.count)
        for trial in 1...trials {
            for (index, side) in sides.enumerated() {
                samples[index].append(try time(iterations[index], side.call))
            }
            let figures = zip(sides, samples).map { side, taken in
                side.name + String(format: " %.2f ms", taken[trial - 1] * 1e3)
            }
            BenchLog.note("\(label) trial \(trial)/\(trials): " + figures.joined(separator: ", "))
        }
        return (samples.map(Statistics.median), iterations)
    }

    /// The JSON line of a three-sided launch scenario: `ratio` is Stepwise ÷ baseline,
    /// `history_ratio` the long history ÷ the short one.
    static func line(
        _ scenario: ScenarioName, rows: Int, medians: [Double], iterations: [Int],
        meets: (_ ratio: Double, _ historyRatio: Double) -> Bool
    ) -> JSONLine {
        let ratio = medians[0] / medians[1]
        let historyRatio = medians[2] / medians[0]
        var line = JSONLine()
        line.add("scenario", scenario.rawValue)
        line.add("rows", rows)
        line.add("stepwise_s", medians[0], digits: 6)
        line.add("baseline_s", medians[1], digits: 6)
        line.add("ratio", ratio, digits: 3)
        line.add("peak_rss_mb", nil as Double?)
        line.add("extra_disk_ratio", nil as Double?)
        line.add("target", scenario.target)
        line.add("meets", meets(ratio, historyRatio))
        line.add("stepwise_120_versions_s", medians[2], digits: 6)
        line.add("history_ratio", historyRatio, digits: 3)
        line.add("calls_per_sample", iterations.map(Double.init), digits: 0)
        return line
    }

    /// Writes a bundle of `count` versions, the newest current, in its own folder (so no
    /// mapping folder or `.history` file is beside it).
    static func writeBundle(count: Int, in folder: URL) throws -> URL {
        let versions = RecipesVariants.launch(count: count)
        let bundle = folder.appendingPathComponent("bundle-\(count)", isDirectory: true)
            .appendingPathComponent("Launch.xcdatamodeld", isDirectory: true)
        try XcodeModelWriter.writeBundle(versions, current: versions[versions.count - 1].name, to: bundle)
        return bundle
    }

    private static func stepwiseCheck(bundle: URL, store: URL) throws {
        let report = try Upgrader.upgradeIfNeededSynchronously(storeAt: store, bundleAt: bundle)
        guard report.upToDate else { throw BenchError("launch: the store wasn't found up to date") }
    }

    private static func baselineCheck(store: URL, currentVersion: URL) throws {
        let queue = try DatabaseQueue(path: store.path)
        let metadata = try queue.read { db in try StoreMetadata.read(from: db, path: store.path) }
        try queue.close()
        let model = try XcodeModelReader.readVersion(at: currentVersion)
        // The check that both were really read; it compares names, not hashes, so it costs nothing.
        guard Set(metadata.versionHashes.keys) == Set(model.entityNames) else {
            throw BenchError("launch: the baseline read a store and model that don't match")
        }
    }

    /// How many calls make a sample last about `budget` seconds (3 to 50), from the second of
    /// two calls (the first warms the page cache and the allocator).
    static func calls(lasting budget: Double, _ call: () throws -> Void) throws -> Int {
        try call()
        let once = try time(1, call)
        return min(50, max(3, Int((budget / max(once, 1e-6)).rounded(.up))))
    }

    /// Seconds per call, over `count` calls.
    static func time(_ count: Int, _ call: () throws -> Void) throws -> Double {
        let clock = ContinuousClock()
        let started = clock.now
        for _ in 0..<count { try call() }
        let elapsed = started.duration(to: clock.now)
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18) / Double(count)
    }
}
