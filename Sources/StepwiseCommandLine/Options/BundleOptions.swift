import ArgumentParser
import Foundation
import Stepwise
import StepwiseMapping
import StepwiseModel

/// `--models BUNDLE`, shared by every command that reads a model bundle; `upgrade` and `plan`
/// take it once per model of a store whose model merges several.
struct BundleOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A .xcdatamodeld bundle (or a single .xcdatamodel), or the compiled .momd folder an app ships (or a single .mom). `upgrade` and `plan` take it once per model when the app merges several models into one store.",
            discussion:
                "Versions are ordered by <Name>.history beside the bundle, else by what the history itself tells: the bundle's own name first, numbers in the names, renaming identifiers, mapping models' source and destination, and the current version last (`plan` and `check` print the order and how it was found). A .momd's current version is the one its VersionInfo.plist names.",
            valueName: "bundle"),
        completion: .directory)
    var models: [String] = []

    func validate() throws {
        guard !models.isEmpty else { throw ValidationError("Missing expected argument '--models <bundle>'") }
    }

    /// The bundle, for the commands that read one: a second `--models` is refused there, by
    /// ``single()``.
    var url: URL { URL(fileURLWithPath: models.first ?? "") }

    /// Every bundle given, in order.
    var urls: [URL] { models.map { URL(fileURLWithPath: $0) } }

    /// The one bundle a command that merges no models reads.
    func single() throws -> URL {
        guard models.count == 1 else {
            throw ValidationError(
                "--models is given \(models.count) times; only `upgrade` and `plan` merge several models into one store."
            )
        }
        return url
    }

    func load() throws -> ModelBundle {
        try ModelBundle(contentsOf: try single())
    }

    /// What `upgrade` runs: for one bundle, the launch call
    /// (`Upgrader.upgradeIfNeededSynchronously(storeAt:bundleAt:…)`), which tells an
    /// up-to-date store from its metadata and the current version alone, so a script's no-op
    /// costs the same with 120 versions as with 5 (`Scripts/bench --only launch-cli`); a store
    /// that needs work gets the whole upgrader, which reads and checks every file first. For
    /// several merged models, ``upgrader(mappings:policies:options:)``'s upgrade.
    func upgradeIfNeeded(
        storeAt store: URL, mappings: MappingOptions, policies: PolicyRegistry, options: UpgradeOptions
    ) throws -> UpgradeReport {
        guard models.count > 1 else {
            return try Upgrader.upgradeIfNeededSynchronously(
                storeAt: store, bundleAt: url, mappingsAt: mappings.mappings.map { URL(fileURLWithPath: $0) },
                policies: policies, options: options)
        }
        return try upgrader(mappings: mappings, policies: policies, options: options)
            .upgradeIfNeededSynchronously(storeAt: store)
    }

    /// The upgrader of `upgrade` and `plan`: of the one bundle, with `--mappings`; or of several
    /// merged ones, each with the mapping models beside it (`--mappings` is then refused, since
    /// it can't say whose steps its files are).
    func upgrader(mappings: MappingOptions, policies: PolicyRegistry, options: UpgradeOptions) throws -> Upgrader {
        guard models.count > 1 else {
            return try Upgrader(
                bundleAt: url, mappingsAt: mappings.mappings.map { URL(fileURLWithPath: $0) }, policies: policies,
                options: options)
        }
        if mappings.mappings != nil {
            throw ValidationError(
                "--mappings names one bundle's mapping folder; with several --models, keep each model's mappings in <Name>.mappings beside it."
            )
        }
        return try Upgrader(bundlesAt: urls, policies: policies, options: options)
    }
}

/// `--mappings DIR`, shared by the commands that run or plan steps.
struct MappingOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A folder of mapping files: Stepwise JSON files, Xcode .xcmappingmodel folders, compiled .cdm files, or any of them. Defaults to <bundle name>.mappings beside the bundle; .xcmappingmodel folders and .cdm files beside the bundle are always read.",
            valueName: "dir"),
        completion: .directory)
    var mappings: String?

    /// The mapping models of `bundle`: the .xcmappingmodel folders and .cdm files beside it, and the mapping
    /// folder (`--mappings`, else `<Name>.mappings` beside the bundle).
    func load(for bundle: ModelBundle) throws -> MappingDirectory {
        try MappingDirectory(
            bundleAt: bundle.url, mappingsAt: mappings.map { URL(fileURLWithPath: $0) }, history: bundle.history)
    }
}
