import ArgumentParser
import Foundation
import StepwiseModel

/// `stepwise ship`: records a model version as shipped, in `<Name>.shipped/` beside the bundle.
struct ShipCommand: ParsableCommand, JSONReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "ship",
        abstract: "Record a model version as shipped, so later edits to it are caught and its stores still upgrade.",
        discussion: """
            Writes <Name>.shipped/<Version>.json beside the bundle: the version's model exactly as it is \
            (its .xcdatamodel contents), its entity version hashes and the date. Commit the folder.

            Recording a version again whose model hasn't changed writes nothing ("already recorded"). \
            A version whose model changed since it was recorded is refused with exit status 1, listing \
            what changed: stores written by the shipped model keep its layout, so add a new version \
            instead. --force replaces the record (keeping its date).

            Stores written by a recorded version that was edited afterwards are identified as \
            '<Version> (as shipped)' and upgraded through a first step to the edited version.

            Example:
              \(ToolName.current) ship --models Versions/Recipes.xcdatamodeld
              \(ToolName.current) ship --models Versions/Recipes.xcdatamodeld --version "Recipes 2"

            With --json, prints {"outcome": "recorded", "alreadyRecorded", "overwritten" or "refused", \
            "version", "file", "shippedAt", "differences": [{"kind", "entity", "property", "description"}]}.
            """
    )

    @OptionGroup var bundleOptions: BundleOptions

    @Option(
        name: .long,
        help: ArgumentHelp("The version to record. Defaults to the bundle's current version.", valueName: "name"))
    var version: String?

    @Flag(name: .long, help: "Replace a record whose model has changed since it was recorded.")
    var force = false

    @OptionGroup var jsonOption: JSONOption

    /// Whether a failure is reported as JSON too (``JSONReportingCommand``).
    var reportsJSON: Bool { jsonOption.json }

    func run() throws {
        let recording: ShippedRecords.Recording
        do {
            recording = try ShippedRecords.record(version, of: try bundleOptions.single(), force: force)
        } catch let error as ModelError {
            guard case .changedSinceShipped(let name, let differences) = error.kind else { throw error }
            try refuse(name, differences: differences, file: error.path ?? "")
            throw ExitCode.failure
        }
        let record = recording.record
        if jsonOption.json {
            try JSONOutput.print(
                ShipOutput(
                    outcome: recording.outcome.rawValue, version: record.name, file: recording.file.path,
                    shippedAt: record.shippedAt, differences: recording.differences))
            return
        }
        switch recording.outcome {
        case .recorded:
            print("Recorded '\(record.name)' as shipped in \(recording.file.path). Commit it.")
        case .alreadyRecorded:
            print("'\(record.name)' is already recorded as shipped, unchanged, in \(recording.file.path).")
        case .overwritten:
            print("Replaced the record of '\(record.name)' in \(recording.file.path); what changed:")
            for difference in recording.differences { print("  - \(difference)") }
        }
    }

    private func refuse(_ name: String, differences: [ModelDifference], file: String) throws {
        if jsonOption.json {
            try JSONOutput.print(
                ShipOutput(outcome: "refused", version: name, file: file, shippedAt: nil, differences: differences))
        }
        StandardError.print("Error: '\(name)' was recorded as shipped in \(file), and its model has changed since:")
        if differences.isEmpty {
            StandardError.print(
                "  - the model differs in ways that keep its version hashes (defaults, indexes, user info)")
        }
        for difference in differences { StandardError.print("  - \(difference)") }
        StandardError.print(
            "Hint: stores written by the shipped model keep its layout: add a new model version for the change. Pass --force if the record is what is wrong."
        )
    }
}

/// `stepwise ship --json`.
private struct ShipOutput: Encodable {
    let outcome: String
    let version: String
    let file: String
    let shippedAt: Date?
    let differences: [ModelDifference]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeEveryKey([
            .outcome: outcome, .version: version, .file: file,
            .shippedAt: shippedAt.map { ISO8601DateFormatter().string(from: $0) }, .differences: differences,
        ])
    }

    private enum CodingKeys: String, CodingKey {
        case outcome, version, file, shippedAt, differences
    }
}
