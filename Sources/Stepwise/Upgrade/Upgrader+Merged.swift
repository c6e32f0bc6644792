import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore

extension Upgrader {
    /// An upgrader for a store whose model merges several models, as an app builds it with
    /// `NSManagedObjectModel(byMerging:)`: its own model and the models of frameworks it links,
    /// each a bundle with versions, mapping models and shipped records of its own.
    ///
    /// Each model's entities in the store are identified in that model's history, and each
    /// history is planned on its own: a store holding `AppRatingPrompt 2`'s
    /// entities and `HTTPSUpgrade 3`'s goes through every later version of the first, then of the
    /// second, to both current versions. An entity no model knows is refused rather than
    /// dropped (``UpgradeError/Kind/unknownEntities(entities:tables:)``).
    ///
    /// ```swift
    /// let upgrader = try Upgrader(bundlesAt: [
    ///     Bundle.main.url(forResource: "AppRatingPrompt", withExtension: "momd")!,
    ///     Bundle(for: HTTPSUpgradeStore.self).url(forResource: "HTTPSUpgrade", withExtension: "momd")!,
    /// ])
    /// try await upgrader.upgradeIfNeeded(storeAt: storeURL)
    /// ```
    ///
    /// One bundle is ``init(bundleAt:mappingsAt:policies:stages:options:)``.
    ///
    /// - parameters:
    ///   - bundleURLs: The model bundles (`.momd`, `.xcdatamodeld`, or a single model), in the
    ///     order their versions are upgraded; each one's mapping models are read from beside it,
    ///     as ``init(bundleAt:mappingsAt:policies:stages:options:)`` reads them.
    ///   - policies: The entity migration policies the mapping models name.
    ///   - stages: Custom work around particular steps: with several models, their steps are
    ///     named after the combined versions (`"A 2 + B 3"` → `"A 3 + B 3"`).
    ///   - options: How the upgrades run. ``UpgradeOptions/targetVersion`` must be nil: the target
    ///     is every model's current version.
    /// - throws: What ``ModelHistory/init(bundleAt:mappingsAt:)`` throws for each bundle, and
    ///   ``/StepwiseModel/ModelError`` when two models have an entity of the same name.
    public init(
        bundlesAt bundleURLs: [URL], policies: PolicyRegistry = PolicyRegistry(), stages: [MigrationStage] = [],
        options: UpgradeOptions = UpgradeOptions()
    ) throws {
        var histories = try bundleURLs.map { try ModelHistory(bundleAt: $0) }
        if let configuration = options.configuration {
            // A merged model's configuration holds the entities each model lists under its name
            // (`entitiesForConfiguration:` of the merged model): a model without it has none in
            // the store.
            let having = histories.filter { $0.versions.versions.contains { $0.configurations[configuration] != nil } }
            histories = try (having.isEmpty ? histories : having).map {
                try $0.restricted(toConfiguration: configuration)
            }
        }
        try self.init(merging: histories, policies: policies, stages: stages, options: options)
    }

    /// An upgrader for a store whose model merges the current versions of `histories`: what
    /// ``init(bundlesAt:policies:stages:options:)`` makes of its bundles.
    ///
    /// - throws: ``UpgradeError`` of kind ``UpgradeError/Kind/unknownVersion(_:available:)`` when
    ///   ``UpgradeOptions/targetVersion`` names anything but the models' current versions merged,
    ///   and ``/StepwiseModel/ModelError`` when two models have an entity of the same name.
    public init(
        merging histories: [ModelHistory], policies: PolicyRegistry = PolicyRegistry(),
        stages: [MigrationStage] = [], options: UpgradeOptions = UpgradeOptions()
    ) throws {
        guard histories.count > 1 else {
            guard let history = histories.first else { throw UpgradeError(.emptyHistory) }
            self.init(history: history, policies: policies, stages: stages, options: options)
            return
        }
        let current = try MergedHistory(parts: histories).currentHistory()
        // Each model goes to its current version: a merged store has no other target.
        if let target = options.targetVersion, target != current.currentVersion {
            throw UpgradeError(.unknownVersion(target, available: current.versions.names))
        }
        self.init(history: current, policies: policies, stages: stages, options: options)
        mergedParts = histories
    }

    /// The upgrader of one store of merged models: its own staircase from its metadata, or the
    /// current versions alone when there is no store yet.
    func forMergedStore(at url: URL) throws -> Upgrader {
        guard FileManager.default.fileExists(atPath: url.path) else {
            var upgrader = self
            upgrader.mergedParts = []
            return upgrader
        }
        let metadata = try Self.metadata(ofStoreAt: url)
        let history = try MergedHistory(parts: mergedParts).history(
            forStoreHashes: metadata.versionHashes, path: url.path)
        return Upgrader(history: history, policies: policies, stages: stages, options: options)
    }

    /// The store's metadata: from its main file when it has no `-wal` to fold in, else from a
    /// private copy that includes the `-wal` (a migration may sit there).
    private static func metadata(ofStoreAt url: URL) throws -> StoreMetadata {
        let wal = StoreGeneration(mainFile: url).file(.wal).path
        let walSize = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? NSNumber)?.int64Value ?? 0
        if walSize == 0, let metadata = StoreMetadata.readFromMainFile(at: url) { return metadata }
        let snapshot = try StoreSnapshot(of: url)
        defer { snapshot.close() }
        return try snapshot.database.read { db in try StoreMetadata.read(from: db, path: url.path) }
    }
}
