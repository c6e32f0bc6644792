import ArgumentParser
import Foundation
import StepwiseMapping
import StepwiseModel

/// `--models BUNDLE`, shared by every command that reads a model bundle.
struct BundleOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A .xcdatamodeld bundle (or a single .xcdatamodel), or the compiled .momd folder an app ships (or a single .mom).",
            discussion:
                "Versions are ordered by <Name>.history beside the bundle, else by natural sort of their names. A .momd's current version is the one its VersionInfo.plist names.",
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
            "A folder of mapping files: Stepwise JSON files, Xcode .xcmappingmodel folders, or both. Defaults to <bundle name>.mappings beside the bundle; .xcmappingmodel folders beside the bundle are always read.",
            valueName: "dir"),
        completion: .directory)
    var mappings: String?

    /// The mapping models of `bundle`: the .xcmappingmodel folders beside it, and the mapping
    /// folder (`--mappings`, else `<Name>.mappings` beside the bundle).
    func load(for bundle: ModelBundle) throws -> MappingDirectory {
        try MappingDirectory(
            bundleAt: bundle.url, mappingsAt: mappings.map { URL(fileURLWithPath: $0) }, history: bundle.history)
    }
}
