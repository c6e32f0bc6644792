import ArgumentParser
import Foundation
import Stepwise

/// The one place a command's failure is printed: `Error: <message>` on standard error, then
/// the command-line hint (``FailureHint``) when there is one, and with `--json` the
/// `{"error": {...}}` object (``JSONFailure``) on standard output. The exit status is 1.
enum CommandFailureReporter {
    /// Runs a command's body and reports what it throws.
    ///
    /// An `ExitCode` (the command printed its own output) and ArgumentParser's own errors (a
    /// `ValidationError` brings the usage text) are thrown on for ArgumentParser to handle,
    /// after the JSON object when `json` is set.
    static func run(json: Bool, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            if json { printJSON(error, hint: nil) }
            throw error
        } catch {
            let hint = FailureHint.hint(for: error, tool: ToolName.current)
            StandardError.print("Error: \(ErrorText.describe(error))")
            if let hint { StandardError.print("Hint: \(hint)") }
            if json { printJSON(error, hint: hint) }
            throw ExitCode.failure
        }
    }

    private static func printJSON(_ error: any Error, hint: String?) {
        try? JSONOutput.print(["error": JSONFailure(error, hint: hint)])
    }
}

/// The running executable's name (`stepwise`, `notes-upgrade`), for hints and help text.
enum ToolName {
    static var current: String {
        CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "stepwise"
    }
}
