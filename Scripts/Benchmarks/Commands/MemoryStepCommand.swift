import ArgumentParser
import Foundation

/// `stepwise-bench memory-step`: seeds if needed (in a child process), then runs the
/// row-by-row step and reports its peak memory.
struct MemoryStepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory-step",
        abstract: "Seed (if not cached) and run the row-by-row step, reporting peak resident memory.",
        discussion: """
            Every Item goes through a Swift policy (name split, note upper-cased). Seeding runs \
            in a child process, so the peak this process reports belongs to the step.
            """)

    @OptionGroup var options: BenchOptions

    @Flag(name: .long, help: "Keep the migrated store instead of deleting it.")
    var keep = false

    func run() throws {
        let source = try SeedProcess.ensureSeeded(options)
        try StepRun(rows: options.rows, source: source, path: .rowByRow, keep: keep).run()
    }
}

/// `stepwise-bench setbased-step`: the same step through the inferred, set-based mapping.
struct SetBasedStepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setbased-step",
        abstract: "Seed (if not cached) and run the inferred, set-based step, for comparison.")

    @OptionGroup var options: BenchOptions

    @Flag(name: .long, help: "Keep the migrated store instead of deleting it.")
    var keep = false

    func run() throws {
        let source = try SeedProcess.ensureSeeded(options)
        try StepRun(rows: options.rows, source: source, path: .setBased, keep: keep).run()
    }
}

/// Runs `stepwise-bench seed` as a child process, so its memory is not this process's.
enum SeedProcess {
    static func ensureSeeded(_ options: BenchOptions) throws -> URL {
        let directory = try options.directory()
        let source = BenchStore.sourceURL(rows: options.rows, in: directory)
        if FileManager.default.fileExists(atPath: source.path) { return source }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let child = Process()
        child.executableURL = URL(fileURLWithPath: executable)
        child.arguments = ["seed", "--rows", String(options.rows), "--dir", directory.path]
        try child.run()
        child.waitUntilExit()
        guard child.terminationStatus == 0 else {
            throw BenchError("seeding failed with status \(child.terminationStatus)")
        }
        return source
    }
}
