import ArgumentParser
import Foundation

/// `stepwise-bench seed`: writes the source store, or keeps the cached one.
struct SeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Create the source store with --rows items (kept and reused by later runs).")

    @OptionGroup var options: BenchOptions

    @Flag(name: .long, help: "Seed again even when a store with this many rows is cached.")
    var force = false

    func run() throws {
        let url = BenchStore.sourceURL(rows: options.rows, in: try options.directory())
        if !force, FileManager.default.fileExists(atPath: url.path) {
            print("cached: \(url.path)")
            return
        }
        let started = Date()
        try BenchStore.seed(rows: options.rows, at: url)
        let seconds = Date().timeIntervalSince(started)
        print(
            "seeded \(options.rows) rows in \(String(format: "%.2f", seconds)) s "
                + "(\(Int(Double(options.rows) / max(seconds, 1e-9))) rows/s), "
                + "peak RSS \(ResidentMemory.megabytes(ResidentMemory.now().peakKilobytes)): \(url.path)")
    }
}
