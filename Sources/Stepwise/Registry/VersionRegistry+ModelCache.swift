import GRDB
import StepwiseModel
import StepwiseStore

extension VersionRegistry {
    /// The store's own model cache as its version, or why it can't be.
    struct ModelCacheMatch {
        /// The store matched by its cache.
        var identification: StoreIdentification?
        /// Why the cache wasn't used, in one sentence, when it wasn't.
        var whyNotUsed: String?
    }

    /// The store's `Z_MODELCACHE` model, taken as its version only when its entity hashes are
    /// exactly the metadata's (Core Data's own test) and the tables are its layout, as a bundle
    /// version's hash match is checked. A cache that can't be read is a reason, not an error:
    /// the store's rows don't depend on it.
    func modelCacheMatch(_ db: Database, metadata: StoreMetadata, actual: SQLiteSchema, path: String)
        -> ModelCacheMatch
    {
        let model: ObjectModel
        do {
            guard let cached = try ModelCache.model(in: db, path: path) else {
                return ModelCacheMatch(whyNotUsed: "The store has no model cache (Z_MODELCACHE) to fall back on")
            }
            model = cached
        } catch {
            return ModelCacheMatch(
                whyNotUsed:
                    "Its model cache (Z_MODELCACHE) can't be read, so it was not used: \(ErrorText.describe(error))"
            )
        }
        guard model.isCompatible(withEntityHashes: metadata.versionHashes) else {
            let differing = Self.entitiesWithOtherHashes(model, metadata: metadata)
            logger.warning("model cache doesn't match the metadata", metadata: ["store": "\(path)"])
            return ModelCacheMatch(
                whyNotUsed:
                    "Its own model cache (Z_MODELCACHE) doesn't match its metadata (\(differing.prefix(5).joined(separator: ", "))), so it was not used"
            )
        }
        let differences: [SchemaDifference]
        do {
            differences = try actual.tableDifferences(from: model, release: metadata.release)
        } catch {
            return ModelCacheMatch(
                whyNotUsed:
                    "Its model cache (Z_MODELCACHE) can't be laid out, so it was not used: \(ErrorText.describe(error))"
            )
        }
        guard differences.isEmpty else {
            let shown = differences.prefix(3).map(\.description).joined(separator: "; ")
            return ModelCacheMatch(
                whyNotUsed:
                    "Its model cache (Z_MODELCACHE) has the metadata's hashes but not the store's tables (\(shown)), so it was not used"
            )
        }
        logger.debug("matched by model cache", metadata: ["store": "\(path)"])
        return ModelCacheMatch(
            identification: StoreIdentification(
                path: path, match: .version(model, by: .modelCache), metadata: metadata,
                notes: [
                    "no version of the bundle has the store's entity hashes; its own model cache (Z_MODELCACHE) does, so the upgrade starts from the store's own model cache, as Core Data's does"
                ]))
    }

    /// The entities whose hashes differ between `model` and the metadata, or that only one has,
    /// sorted: `"Note (hash differs)"`, `"Folder (only in the metadata)"`.
    static func entitiesWithOtherHashes(_ model: ObjectModel, metadata: StoreMetadata) -> [String] {
        let hashes = model.entityVersionHashes
        return Set(hashes.keys).union(metadata.versionHashes.keys).sorted().compactMap { name in
            switch (hashes[name], metadata.versionHashes[name]) {
            case (nil, _): "\(name) (only in the metadata)"
            case (_, nil): "\(name) (only in the cache)"
            case (let cached?, let stored?): cached == stored ? nil : "\(name) (hash differs)"
            }
        }
    }
}
