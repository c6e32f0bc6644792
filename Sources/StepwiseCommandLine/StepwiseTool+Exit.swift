import ArgumentParser

extension StepwiseTool {
    /// Ends the tool for `error`, thrown by a command's `run()`: the one route from an error
    /// to what the tool prints and the status it exits with. ``main()`` calls it for every
    /// command, Stepwise's and a team's own; commands just throw.
    ///
    /// - ArgumentParser's own errors exit as ArgumentParser exits them: an `ExitCode` (a
    ///   command that printed its own result, such as a check that found problems) and a
    ///   `CleanExit` print nothing more; the help its `help` command throws is printed; a
    ///   `ValidationError` (an argument `run()` found malformed) prints `Error:` and the usage
    ///   text and exits 64, with `json` after the `{"error": {...}}` object.
    /// - Any other error prints `Error: <message>` and its hint on standard error
    ///   (`CommandFailureReporter`), with `json` the `{"error": {...}}` object on standard
    ///   output (`JSONFailure`), and exits with ``CommandExitStatus/init(for:)``'s status.
    ///
    /// A tool that implements `main()` itself calls this from its `catch` to fail as the stock
    /// `stepwise` does.
    ///
    /// - parameters:
    ///   - error: What the command threw.
    ///   - json: Whether the command was asked for JSON (``JSONReportingCommand/reportsJSON``).
    public static func exit(for error: any Error, json: Bool) -> Never {
        if isArgumentParserError(error) {
            if json, let error = error as? ValidationError {
                CommandFailureReporter.printJSON(JSONFailure(error, hint: nil))
            }
            exit(withError: error)
        }
        let failure = CommandFailureReporter.report(error)
        if json { CommandFailureReporter.printJSON(failure) }
        exit(withError: ExitCode(CommandExitStatus(for: error).rawValue))
    }

    /// Whether ArgumentParser threw `error`, or gave it to a command to throw: `ExitCode`,
    /// `CleanExit`, `ValidationError`, and the errors of its own parsing and of its `help`
    /// command (`stepwise help create` parses as that command, whose `run()` throws the help
    /// request). Those are internal to ArgumentParser, so they are told by their module.
    private static func isArgumentParserError(_ error: any Error) -> Bool {
        String(reflecting: type(of: error)).hasPrefix("ArgumentParser.")
    }
}
