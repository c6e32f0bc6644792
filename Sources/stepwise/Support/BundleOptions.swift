import ArgumentParser
import Foundation
import StepwiseMapping
import StepwiseModel

/// `--models BUNDLE`, shared by every command that reads a model bundle.
struct BundleOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A .xcdatamodeld bundle (or a single .xcdatamodel).",
            discussion:
                "Versions are ordered by <Name>.history beside the bundle, else by natural sort of their names.",
            valueName: "bundle"),
        completion: .directory)
    var models: String

    var url: URL { URL(fileURLWithPath: models) }

    func load() throws -> ModelBundle {
        try ModelBundle(contentsOf: url)
    }
}

/// `--mappings DIR`, shared by the commands that run or plan steps.
struct MappingOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A folder of mapping files (*.json). Defaults to <bundle name>.mappings beside the bundle.",
            valueName: "dir"),
        completion: .directory)
    var mappings: String?

    /// The mapping files of `bundle`: from `--mappings`, else the folder beside the bundle.
    func load(for bundle: ModelBundle) throws -> MappingDirectory {
        let folder = mappings.map { URL(fileURLWithPath: $0) } ?? MappingDirectory.defaultURL(for: bundle.url)
        return try MappingDirectory(contentsOf: folder, history: bundle.history)
    }
}
