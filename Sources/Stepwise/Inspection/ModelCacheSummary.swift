/// What `stepwise inspect` reports of a store's own model cache (`Z_MODELCACHE`,
/// ``/StepwiseStore/ModelCache``): its entities, and whether its entity hashes, computed from
/// the decoded model, are the store's metadata's (`NSStoreModelVersionHashes`).
///
/// Encoded as `{"entities": [names], "matchesMetadata": true|false}`.
package struct ModelCacheSummary: Sendable, Hashable, Encodable {
    /// The cached model's entity names, sorted.
    package var entities: [String]
    /// Whether the cached model's hashes are exactly the metadata's.
    package var matchesMetadata: Bool
    /// The entities whose hashes differ, or that only one side has, such as
    /// `"Note (hash differs)"`; empty when ``matchesMetadata``. Not encoded.
    package var entitiesWithOtherHashes: [String]

    /// - parameters:
    ///   - entities: The cached model's entity names, sorted.
    ///   - matchesMetadata: Whether its hashes are the metadata's.
    ///   - entitiesWithOtherHashes: The entities that differ; empty when they match.
    package init(entities: [String], matchesMetadata: Bool, entitiesWithOtherHashes: [String] = []) {
        self.entities = entities
        self.matchesMetadata = matchesMetadata
        self.entitiesWithOtherHashes = entitiesWithOtherHashes
    }

    private enum CodingKeys: String, CodingKey {
        case entities, matchesMetadata
    }
}
