import ArgumentParser
import Foundation

/// The options every benchmark command shares: how many rows and where the stores go.
struct BenchOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("How many Item rows the source store holds.", valueName: "n"))
    var rows: Int

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where seeded stores are cached and steps write (default: $TMPDIR/stepwise-bench).", valueName: "dir"),
        completion: .directory)
    var dir: String?

    func validate() throws {
        guard rows >= 1 else { throw ValidationError("--rows must be at least 1.") }
    }

    /// The working folder, created if needed.
    func directory() throws -> URL {
        let url =
            dir.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("stepwise-bench")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
