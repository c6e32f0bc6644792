import ArgumentParser
import Foundation
import Stepwise

/// `stepwise discard`: ``Upgrader/discardInterruptedUpgrade(storeAt:options:)`` from the
/// command line.
struct DiscardCommand: ParsableCommand, JSONReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "discard",
        abstract: "Delete the work folder a failed or cancelled upgrade left beside a store.",
        discussion: """
            A failed upgrade keeps its completed steps in .<store>.stepwise/ beside the store, about \
            the store's size, so that the next upgrade resumes after them; the error names the \
            folder. This deletes it, and the next upgrade starts over. The store itself is not \
            changed, except when the upgrade was interrupted past its commit point: then the swap \
            is finished instead, and the store is the upgraded one.

            It waits, like an upgrade, for the upgrade lock and for processes holding the store, \
            up to --lock-timeout seconds.

            With --json, standard output is {"store", "outcome", "bytes", "version"}, where outcome \
            is "nothingToDiscard", "discarded" or "finishedSwap".

            Example:
              \(ToolName.current) discard App.sqlite
            """
    )

    @Argument(help: ArgumentHelp("The store (e.g. App.sqlite).", valueName: "store"), completion: .file())
    var store: String

    @OptionGroup var lockOptions: LockOptions

    @OptionGroup var jsonOption: JSONOption

    /// Whether a failure is reported as JSON too (``JSONReportingCommand``).
    var reportsJSON: Bool { jsonOption.json }

    func run() throws {
        let options = UpgradeOptions(lockTimeout: lockOptions.duration)
        let outcome = try Upgrader.discardInterruptedUpgrade(storeAt: URL(fileURLWithPath: store), options: options)
        let report = DiscardReport(store: store, outcome: outcome)
        if jsonOption.json {
            try JSONOutput.print(report)
            return
        }
        switch outcome {
        case .nothingToDiscard:
            print("Nothing to discard: no upgrade left a work folder beside \(store).")
        case .discarded(let bytes):
            print(
                "Discarded the interrupted upgrade's work folder (\(TextFormat.megabytes(bytes))); \(store) is unchanged."
            )
        case .finishedSwap(let version):
            print(
                "The interrupted upgrade had passed its commit point: finished it, \(store) is at '\(version ?? "?")'.")
        }
    }
}

/// `stepwise discard --json`.
private struct DiscardReport: Encodable {
    var store: String
    var outcome: String
    var bytes: Int64?
    var version: String?

    init(store: String, outcome: Upgrader.DiscardOutcome) {
        self.store = store
        switch outcome {
        case .nothingToDiscard: self.outcome = "nothingToDiscard"
        case .discarded(let bytes): (self.outcome, self.bytes) = ("discarded", bytes)
        case .finishedSwap(let version): (self.outcome, self.version) = ("finishedSwap", version)
        }
    }

    func encode(to encoder: any Encoder) throws {
        // Every key is written, null when it doesn't apply: scripts can rely on them.
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeEveryKey([.store: store, .outcome: outcome, .bytes: bytes, .version: version])
    }

    private enum CodingKeys: String, CodingKey {
        case store, outcome, bytes, version
    }
}
