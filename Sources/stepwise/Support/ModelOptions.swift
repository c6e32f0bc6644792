import ArgumentParser
import Foundation
import StepwiseModel

/// `--models BUNDLE [--version NAME]`, shared by every command that needs a model.
struct ModelOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A .xcdatamodeld bundle (or a single .xcdatamodel).",
            discussion:
                "Versions are ordered by <Name>.history beside the bundle, else by natural sort of their names.",
            valueName: "bundle"),
        completion: .directory)
    var models: String

    @Option(
        name: .long,
        help: ArgumentHelp("A version name, e.g. 'Moody 2'. Defaults to the current version.", valueName: "name"))
    var version: String?

    func loadBundle() throws -> ModelBundle {
        try ModelBundle(contentsOf: URL(fileURLWithPath: models))
    }

    func selectedVersion(in bundle: ModelBundle) throws -> ObjectModel {
        guard let version else { return bundle.current }
        return try bundle.version(named: version)
    }
}
