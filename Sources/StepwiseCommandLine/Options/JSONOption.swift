import ArgumentParser

/// `--json`, shared by every command with a JSON report.
struct JSONOption: ParsableArguments {
    @Flag(
        name: .long,
        help: "Print the result as one JSON object on standard output; on failure {\"error\": {...}}.")
    var json = false
}
