import ArgumentParser
import Foundation
import Stepwise

/// The one place a command's failure is printed: `Error: <message>` on standard error, then
/// the command-line hint (``FailureHint``) when there is one, and with `--json` the
/// `{"error": {...}}` object (``JSONFailure``) on standard output. The exit status says what
/// the caller should do (``CommandExitStatus``).
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
            let failure = report(error)
            if json { try? JSONOutput.print(["error": failure]) }
            throw ExitCode(CommandExitStatus(for: error).rawValue)
        }
    }

    /// Prints `error` on standard error as ``run(json:_:)`` does (`Error:`, then `Hint:`), and
    /// returns its JSON form: for a command that shows its result and then fails, and puts the
    /// error in its own JSON object (`plan` with a missing policy). The caller exits with
    /// `CommandExitStatus(for: error)`.
    static func report(_ error: any Error) -> JSONFailure {
        let hint = FailureHint.hint(for: error, tool: ToolName.current)
        StandardError.print("Error: \(ErrorText.describe(error))")
        if let hint { StandardError.print("Hint: \(hint)") }
        return JSONFailure(error, hint: hint)
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
