import ArgumentParser
import Foundation
import StepwiseModel
import StepwiseStore

struct CreateCommand: ParsableCommand, JSONReportingCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an empty store at a model version (the current one by default).",
        discussion: """
            Refuses to overwrite an existing file. The store has the layout of Core Data's newest \
            forms, or of the release --core-data-release names, whose version it then records in the \
            metadata (NSPersistenceFrameworkVersion).
            """
    )

    @Argument(help: ArgumentHelp("Where to write the new store.", valueName: "store"), completion: .file())
    var store: String

    @OptionGroup var model: ModelOptions

    @OptionGroup var releaseOption: ReleaseOption

    @OptionGroup var jsonOption: JSONOption

    /// Whether a failure is reported as JSON too (``JSONReportingCommand``).
    var reportsJSON: Bool { jsonOption.json }

    func run() throws {
        let bundle = try model.loadBundle()
        let version = try model.selectedVersion(in: bundle)
        let url = URL(fileURLWithPath: store)
        var metadata = StoreMetadata(model: version)
        if let frameworkVersion = releaseOption.frameworkVersion {
            metadata.additionalEntries[StoreMetadata.frameworkVersionKey] = .int(frameworkVersion)
        }
        try StoreCreator.createStore(
            at: url, layout: StoreLayout(model: version, release: releaseOption.release), metadata: metadata)
        if jsonOption.json {
            try JSONOutput.print(
                CreateReport(store: url.path, version: version.name, storeUUID: metadata.storeUUID))
        } else {
            print("Created \(url.path) at model version '\(version.name)' (store UUID \(metadata.storeUUID)).")
        }
    }
}

private struct CreateReport: Encodable {
    var store: String
    var version: String
    var storeUUID: String
}
