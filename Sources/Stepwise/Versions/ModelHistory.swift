import Foundation
import Logging
import StepwiseMapping
import StepwiseModel

/// Everything an ``Upgrader`` knows about an app's model: its versions, the mapping models
/// written for steps between them, and the records of versions as they shipped. Read and
/// checked once, when it is made, so that a broken file is reported there and not by the
/// first upgrade that happens to need it.
///
/// ```swift
/// let history = try ModelHistory(bundleAt: Bundle.main.url(forResource: "Model", withExtension: "momd")!)
/// history.versions.names      // ["Model", "Model 2", "Model 3"]
/// history.currentVersion      // "Model 3"
/// let upgrader = Upgrader(history: history, policies: policies)
/// ```
///
/// What is worked out from it later is worked out once and shared by every copy of the value:
/// the inferred mapping of each pair of versions (`UpgradePlanner` asks for them), and each
/// version's store layout (`VersionRegistry` compares a store's tables with it).
public struct ModelHistory: Sendable {
    /// The versions, oldest first; in name order when ``order`` can't be told.
    public let versions: VersionHistory
    /// The order of the versions and how it was found (a history file, the history itself), or
    /// why it can't be told (``/StepwiseModel/ModelError/Kind/ambiguousOrder(_:reason:)``,
    /// ``/StepwiseModel/ModelError/Kind/historyFileMismatch(unknown:missing:)``).
    ///
    /// Identifying a store needs no order, nor does an upgrade of a store already at the
    /// target: only a plan between two versions does, and it throws the problem then
    /// (``Upgrader/plan(forStoreAt:)``, ``Upgrader/upgradeIfNeeded(storeAt:)``).
    public let order: Result<VersionOrder, ModelError>
    /// The mapping models written for steps, by step; any other step is inferred where it can be.
    public let mappings: [MappingDirectory.StepKey: [MappingModel]]
    /// The records of versions as they shipped (`stepwise ship`).
    public let shipped: [ShippedVersion]
    /// The shipped models of versions edited since they shipped, each named
    /// `"<Version> (as shipped)"` (`ShippedVersion/asShippedVersions(_:in:)`): a
    /// store one of them wrote is upgraded from it, through a first step to the edited version.
    public let asShipped: [ObjectModel]
    /// The version upgrades go to unless ``UpgradeOptions/targetVersion`` says otherwise: the
    /// bundle's current version (`.xccurrentversion`, or a compiled bundle's `VersionInfo.plist`),
    /// else the newest.
    public let currentVersion: String?
    /// The inferred mapping of each pair, worked out once.
    let inferences: InferredMappings
    /// The schema each version's store layout expects, worked out once per version for the
    /// registries that identify stores against this history.
    let layouts: VersionLayouts
    /// Each version's entity hashes, worked out once (``VersionHashes``).
    let hashes: VersionHashes

    /// Reads a model bundle and the mapping models and shipped records that go with it.
    ///
    /// The versions are ordered by the history file beside the bundle, else by the history
    /// itself: the names, what Xcode records, the mapping models that name their versions, and
    /// renaming identifiers (``/StepwiseModel/OrderClue``). An order that can't be told is kept
    /// in ``order``, not thrown.
    ///
    /// - parameters:
    ///   - bundleURL: The compiled `.momd` folder an app ships, or the source `.xcdatamodeld`
    ///     (a single `.mom` or `.xcdatamodel` is a one-version bundle).
    ///   - mappingsURL: The folder of mapping files (JSON files, `.xcmappingmodel` folders or
    ///     both); defaults to `<Name>.mappings` beside the bundle, and may be missing when every
    ///     step can be inferred. `.xcmappingmodel` folders beside the bundle are read too.
    /// - throws: ``/StepwiseModel/ModelError`` for a version that can't be read, or for a
    ///   bundle that names no current version and whose order can't be told;
    ///   ``/StepwiseModel/ModelError`` for a shipped record, and
    ///   ``/StepwiseMapping/MappingError`` for a mapping model, that can't be read.
    public init(bundleAt bundleURL: URL, mappingsAt mappingsURL: URL? = nil) throws {
        let bundle = try ModelBundle(contentsOf: bundleURL).orderedByMappings(at: mappingsURL)
        let shipped = try ShippedRecords.load(forBundleAt: bundle.url)
        let asShipped = try ShippedVersion.asShippedVersions(shipped, in: bundle.history)
        // A mapping may name the step from "Recipes 2 (as shipped)" to "Recipes 2".
        let withShipped = VersionHistory(bundle.history.versions + asShipped)
        let mappings: [MappingDirectory.StepKey: [MappingModel]]
        if case .success = bundle.order {
            mappings = try MappingDirectory(bundleAt: bundleURL, mappingsAt: mappingsURL, history: withShipped).steps
        } else {
            // Without an order no plan is made (the order's problem is thrown then), and a
            // mapping model bound by the pair its entity mappings fit would be bound against
            // the names' order: one that doesn't bind is no reason to refuse the bundle here.
            var setAside: [MappingError] = []
            mappings =
                MappingDirectory(
                    bundleAt: bundleURL, mappingsAt: mappingsURL, history: withShipped, settingAside: &setAside
                ).steps
        }
        self.init(
            versions: bundle.history, order: bundle.order, mappings: mappings, shipped: shipped, asShipped: asShipped,
            currentVersion: bundle.current.name)
    }

    /// A history given in code.
    ///
    /// - parameters:
    ///   - versions: The versions, oldest first. The newest is the current version.
    ///   - mappings: Mapping models by step; the steps they leave out are inferred where they can be.
    ///   - shipped: The records of versions as they shipped; none by default.
    /// - throws: ``/StepwiseModel/ModelError`` for a shipped record whose model can't be read.
    public init(
        versions: VersionHistory, mappings: [MappingDirectory.StepKey: [MappingModel]] = [:],
        shipped: [ShippedVersion] = []
    ) throws {
        self.init(
            versions: versions, order: .success(VersionOrder(names: versions.names, source: .givenInCode)),
            mappings: mappings, shipped: shipped,
            asShipped: try ShippedVersion.asShippedVersions(shipped, in: versions),
            currentVersion: versions.latest?.name)
    }

    init(
        versions: VersionHistory, order: Result<VersionOrder, ModelError>,
        mappings: [MappingDirectory.StepKey: [MappingModel]], shipped: [ShippedVersion], asShipped: [ObjectModel],
        currentVersion: String?
    ) {
        self.versions = versions
        self.order = order
        self.mappings = mappings
        self.shipped = shipped
        self.asShipped = asShipped
        self.currentVersion = currentVersion
        self.inferences = InferredMappings()
        self.layouts = VersionLayouts()
        self.hashes = VersionHashes()
    }

    /// The version `name`, or the shipped model of that name (`"Recipes 2 (as shipped)"`).
    public func version(named name: String) -> ObjectModel? {
        versions.version(named: name) ?? asShipped.first { $0.name == name }
    }

    /// A registry of these versions and the versions as shipped, sharing this history's
    /// layouts and hashes: every identification an upgrader, a matrix or a check makes.
    package func registry(logger: Logger = SilentLogger.logger) -> VersionRegistry {
        VersionRegistry(history: versions, shipped: asShipped, logger: logger, layouts: layouts, hashes: hashes)
    }

    /// The planner over this history. Steps in `stepsKeptApart` are never merged with their
    /// neighbours (steps with a ``/StepwiseMapping/MigrationStage``).
    package func planner(stepsKeptApart: Set<MappingDirectory.StepKey> = []) -> UpgradePlanner {
        var planner = UpgradePlanner(
            history: versions, mappings: mappings, stepsKeptApart: stepsKeptApart, shipped: asShipped)
        planner.inferences = inferences
        return planner
    }
}
