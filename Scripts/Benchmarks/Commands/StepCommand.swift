import ArgumentParser
import Foundation

/// `stepwise-bench step`: runs the step on an already seeded store, nothing else, so
/// `/usr/bin/time -v` measures the step alone.
struct StepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "step",
        abstract: "Run one step Bench → Bench 2 on the store `seed` wrote.",
        discussion: """
            Prints the rows, seconds, rows/s and the process's peak resident memory, then a \
            last line of key=value pairs for scripts.
            """)

    @OptionGroup var options: BenchOptions

    @Flag(name: .long, help: "Use the inferred mapping (set-based SQL) instead of the per-row policy.")
    var setBased = false

    @Flag(name: .long, help: "Keep the migrated store instead of deleting it.")
    var keep = false

    func run() throws {
        let source = BenchStore.sourceURL(rows: options.rows, in: try options.directory())
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw BenchError(
                "no seeded store at \(source.path); run `stepwise-bench seed --rows \(options.rows)` first")
        }
        try StepRun(rows: options.rows, source: source, path: setBased ? .setBased : .rowByRow, keep: keep).run()
    }
}
