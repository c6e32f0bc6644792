import ArgumentParser
import StepwiseStore

/// `--core-data-release`: lay a store out as one Core Data release did (``CoreDataRelease``).
struct ReleaseOption: ParsableArguments {
    @Option(
        name: .customLong("core-data-release"),
        help: ArgumentHelp(
            "Lay the store out as the Core Data release with this NSPersistenceFrameworkVersion did "
                + "(637 for iOS 9, 1044 and later for the newest forms). The newest forms by default.",
            valueName: "framework-version"))
    var frameworkVersion: Int?

    func validate() throws {
        if let frameworkVersion, frameworkVersion <= 0 {
            throw ValidationError(
                "--core-data-release takes a framework version such as 637 or 1145, not \(frameworkVersion).")
        }
    }

    /// The release asked for, or the newest.
    var release: CoreDataRelease {
        CoreDataRelease.named(by: frameworkVersion)
    }
}
