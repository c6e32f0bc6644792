import ArgumentParser
import Foundation
import StepwiseModel

/// `--models BUNDLE [--version NAME]`, shared by every command that needs a model.
struct ModelOptions: ParsableArguments {
    @OptionGroup var bundle: BundleOptions

    @Option(
        name: .long,
        help: ArgumentHelp("A version name, e.g. 'Moody 2'. Defaults to the current version.", valueName: "name"))
    var version: String?

    func loadBundle() throws -> ModelBundle {
        try bundle.load()
    }

    func selectedVersion(in bundle: ModelBundle) throws -> ObjectModel {
        guard let version else { return bundle.current }
        return try bundle.version(named: version)
    }
}
