import ArgumentParser

/// A command that can report its failure as JSON: with `--json` (``JSONOption``), or `plan
/// --format json`, a failed run prints `{"error": {...}}` on standard output besides the
/// `Error:` line on standard error.
///
/// The command doesn't print its failure itself: it throws, and the tool's one route
/// (``StepwiseTool/exit(for:json:)``) reads ``reportsJSON`` from the parsed command. A team's
/// own command with a JSON output adopts it to fail the same way.
public protocol JSONReportingCommand: ParsableCommand {
    /// Whether the command's output, and so its failure, is JSON: the value of its `--json`.
    var reportsJSON: Bool { get }
}
