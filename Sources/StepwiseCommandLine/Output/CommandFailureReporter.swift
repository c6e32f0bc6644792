import ArgumentParser
import Foundation
import Stepwise

/// How a command's failure is printed: `Error: <message>` on standard error, then the
/// command-line hint (``FailureHint``) when there is one, and with `--json` the
/// `{"error": {...}}` object (``JSONFailure``) on standard output. Every failed command reaches
/// it through the tool's one route, ``StepwiseTool/exit(for:json:)``, which also picks the exit
/// status (``CommandExitStatus``).
enum CommandFailureReporter {
    /// Prints `error` on standard error (`Error:`, then `Hint:`), and returns its JSON form,
    /// for the caller to print with `--json`: ``StepwiseTool/exit(for:json:)``, or a command
    /// that shows its result and then fails, and puts the error in its own JSON object (`plan`
    /// with a missing policy).
    static func report(_ error: any Error) -> JSONFailure {
        let hint = FailureHint.hint(for: error, tool: ToolName.current)
        StandardError.print("Error: \(ErrorText.describe(error))")
        if let hint { StandardError.print("Hint: \(hint)") }
        return JSONFailure(error, hint: hint)
    }

    /// Prints `{"error": {...}}` on standard output (``JSONOutput``).
    static func printJSON(_ failure: JSONFailure) {
        try? JSONOutput.print(["error": failure])
    }
}

/// The running executable's name (`stepwise`, `notes-upgrade`), for hints and help text.
enum ToolName {
    static var current: String {
        CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "stepwise"
    }
}
