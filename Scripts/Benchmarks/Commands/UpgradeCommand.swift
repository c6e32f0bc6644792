import ArgumentParser
import Foundation
import GRDB
import Stepwise

/// `stepwise-bench upgrade`: what crash safety costs, measured against baselines run in the
/// same process on the same store.
///
/// 1. The launch-time check on an up-to-date store (`upgradeIfNeeded`, one immutable metadata
///    read) against opening the store with GRDB and reading its metadata, which is what any
///    app does to ask Core Data's `metadataForPersistentStore`.
/// 2. A whole upgrade (lock, copy, journal, checksums, verification, swap) against the bare
///    `MigrationStep` it runs, on the same seeded store.
struct UpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Compare upgradeIfNeeded with a bare step and an up-to-date check with a plain metadata read.",
        discussion: """
            Needs the store `seed` wrote. Prints microseconds per up-to-date check, seconds per \
            upgrade, the ratios to the baselines, and a last line of key=value pairs for scripts.
            """)

    @OptionGroup var options: BenchOptions

    @Option(name: .long, help: "How many up-to-date checks to time (each side).")
    var checks = 500

    func run() throws {
        let directory = try options.directory()
        let source = BenchStore.sourceURL(rows: options.rows, in: directory)
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw BenchError(
                "no seeded store at \(source.path); run `stepwise-bench seed --rows \(options.rows)` first")
        }
        // The set-based mapping, written (not inferred) so that the step rebuilds the store.
        var mapping = try MappingInference.inferMapping(from: BenchModel.version1, to: BenchModel.version2)
        mapping.isInferred = false
        let upgrader = try Upgrader(
            history: VersionHistory([BenchModel.version1, BenchModel.version2]),
            mappings: [MappingDirectory.StepKey("Bench", "Bench 2"): [mapping]])

        // 2. Whole upgrade against the bare step, same source bytes.
        let work = directory.appendingPathComponent("bench-upgrade-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let stepSeconds = try time {
            _ = try MigrationStep(from: BenchModel.version1, to: BenchModel.version2, mappingModels: [mapping])
                .run(source: source, destination: work.appendingPathComponent("step.sqlite"))
        }
        let store = work.appendingPathComponent("Bench.sqlite")
        try FileManager.default.copyItem(at: source, to: store)
        let upgradeSeconds = try time { _ = try upgrader.upgradeIfNeededSynchronously(storeAt: store) }

        // 1. Up-to-date checks on the upgraded store.
        let checkSeconds = try time {
            for _ in 0..<checks where try !upgrader.upgradeIfNeededSynchronously(storeAt: store).upToDate {
                throw BenchError("the upgraded store isn't up to date")
            }
        }
        let baselineSeconds = try time {
            for _ in 0..<checks {
                let queue = try DatabaseQueue(path: store.path)
                _ = try queue.read { db in try StoreMetadata.read(from: db, path: store.path) }
                try queue.close()
            }
        }

        let check = checkSeconds / Double(checks) * 1e6
        let baseline = baselineSeconds / Double(checks) * 1e6
        print("up-to-date check, \(checks) calls each")
        print(String(format: "  GRDB open + metadata read:  %8.1f µs   1.00", baseline))
        print(String(format: "  upgradeIfNeeded:            %8.1f µs   %.2f", check, check / baseline))
        print("upgrade of \(options.rows) items, Bench → Bench 2 (set-based)")
        print(String(format: "  MigrationStep.run:          %8.2f s    1.00", stepSeconds))
        print(
            String(
                format: "  upgradeIfNeeded:            %8.2f s    %.2f", upgradeSeconds, upgradeSeconds / stepSeconds))
        let fields = [
            "rows=\(options.rows)", String(format: "check_us=%.1f", check),
            String(format: "baseline_us=%.1f", baseline),
            String(format: "check_ratio=%.3f", check / baseline), String(format: "step_seconds=%.3f", stepSeconds),
            String(format: "upgrade_seconds=%.3f", upgradeSeconds),
            String(format: "upgrade_ratio=%.3f", upgradeSeconds / stepSeconds),
        ]
        print("result " + fields.joined(separator: " "))
    }

    private func time(_ body: () throws -> Void) throws -> Double {
        let started = Date()
        try body()
        return Date().timeIntervalSince(started)
    }
}
