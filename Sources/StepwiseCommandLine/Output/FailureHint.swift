import Stepwise

/// What to try next on the command line, for a library error whose message speaks the
/// library's words (`UpgradeOptions.lockTimeout`): the flag or command that does it here.
enum FailureHint {
    /// The hint for `error`, naming `tool`'s flags and commands, or nil when the message says it all.
    static func hint(for error: any Error, tool: String) -> String? {
        switch error {
        case let error as UpgradeError: hint(for: error, tool: tool)
        case let error as StoreError: hint(for: error, tool: tool)
        case let error as MappingError: hint(for: error, tool: tool)
        default: nil
        }
    }

    /// With a work folder left over: a failure that comes back on every run (a mapping, a
    /// policy, a value, the data: ``UpgradeError/failsTheSameWayAgain``) says what to fix
    /// before running again, and offers `discard` only to clean up; any other (a lock, space,
    /// I/O, a kill) says that running again resumes.
    private static func hint(for error: UpgradeError, tool: String) -> String? {
        let kind = kindHint(for: error, tool: tool)
        guard error.leftoverWorkDirectory != nil, let store = error.storePath else { return kind }
        let discard = "`\(tool) discard \"\(store)\"`"
        guard error.failsTheSameWayAgain else {
            return [kind, "Run the upgrade again to resume, or \(discard) to start over."].compactMap { $0 }
                .joined(separator: " ")
        }
        var parts = [kind]
        if case .stepFailed = error.kind { parts.append(fixFirst) }
        parts.append(
            "The next upgrade then resumes after the steps that completed; \(discard) deletes the work kept so far.")
        return parts.compactMap { $0 }.joined(separator: " ")
    }

    /// What a deterministic failure needs before the next run.
    private static let fixFirst =
        "Running the upgrade again as it is fails the same way: first fix what the error names (the mapping, the policy or the data in the store)."

    private static func kindHint(for error: UpgradeError, tool: String) -> String? {
        switch error.kind {
        case .lockTimeout, .storeInUse(_, _, bareConnection: false):
            "Raise --lock-timeout SECONDS to wait longer."
        case .dropsData(_, _, let from, let to, _):
            "`\(tool) diff --models BUNDLE --from \"\(from)\" --to \"\(to)\"` shows what the inferred step does; without --strict the upgrade drops it."
        case .noBackup:
            "Run `\(tool) upgrade` with --keep-backup to keep one."
        case .stepFailed(_, _, _, _, let underlying):
            hint(for: underlying, tool: tool)
        case .unregisteredPolicy:
            "This tool knows only the policies it was built with. To run your own, build your own tool: a StepwiseTool (StepwiseCommandLine) that registers them; see the Command-line tool article."
        case .noMatchingVersion, .newerThanKnownVersions:
            "Check --models: it must be the model bundle of the app that wrote the store."
        default:
            nil
        }
    }

    private static func hint(for error: StoreError, tool: String) -> String? {
        guard case .missingMetadataTable = error.kind else { return nil }
        return "`\(tool) create STORE --models BUNDLE` creates an empty store of a model version."
    }

    private static func hint(for error: MappingError, tool: String) -> String? {
        switch error.kind {
        case .unreadableArchive, .unsupportedExpression:
            "`\(tool) convert` writes a mapping model as a JSON mapping file you can edit."
        default:
            nil
        }
    }
}
