import ArgumentParser
import Foundation
import Stepwise
import StepwiseModel

/// `stepwise rollback`: ``Upgrader/rollback(storeAt:options:)`` from the command line.
struct RollbackCommand: ParsableCommand, JSONReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollback",
        abstract: "Put back the store kept by the last `\(ToolName.current) upgrade --keep-backup`.",
        discussion: """
            Restores <store>.stepwise-backup/ (the store, its -wal and its -shm as they were \
            before the upgrade) in place of the upgraded store, with the same crash-safe swap \
            the upgrade uses, and prints the restored version. The upgraded store, and anything \
            written to it since, is discarded; the backup is used up.

            Quit the app using the store first: no process may have it open meanwhile. A process \
            holding it (through StoreAccess, or with an open WAL connection) makes the rollback \
            wait up to --lock-timeout seconds, saying so on standard error, then fail with the \
            store unchanged (JSON error kind "storeInUse", with "processIDs" where known).

            With --json, standard output is {"store", "restoredVersion"}.

            Example:
              \(ToolName.current) upgrade App.sqlite --models Model.xcdatamodeld --keep-backup
              \(ToolName.current) rollback App.sqlite
            """
    )

    @Argument(help: ArgumentHelp("The upgraded store (e.g. App.sqlite).", valueName: "store"), completion: .file())
    var store: String

    @OptionGroup var lockOptions: LockOptions

    @OptionGroup var jsonOption: JSONOption

    /// Whether a failure is reported as JSON too (``JSONReportingCommand``).
    var reportsJSON: Bool { jsonOption.json }

    func run() throws {
        // Rolling back needs no model: the backup records its own version.
        let renderer = ProgressRenderer(style: .lines)
        let options = UpgradeOptions(lockTimeout: lockOptions.duration, progress: renderer.handler)
        let version: String?
        do {
            version = try Upgrader.rollback(storeAt: URL(fileURLWithPath: store), options: options)
        } catch {
            renderer.finish()
            throw error
        }
        renderer.finish()
        if jsonOption.json {
            try JSONOutput.print(RollbackReport(store: store, restoredVersion: version))
        } else if let version {
            print("Restored \(store) to '\(version)' from its backup.")
        } else {
            print("Restored \(store) from its backup (its version was not recorded).")
        }
    }
}

/// `stepwise rollback --json`.
private struct RollbackReport: Encodable {
    var store: String
    var restoredVersion: String?

    func encode(to encoder: any Encoder) throws {
        // A nil version is written as null, not left out: scripts can rely on the key.
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeEveryKey([.store: store, .restoredVersion: restoredVersion])
    }

    private enum CodingKeys: String, CodingKey {
        case store, restoredVersion
    }
}
