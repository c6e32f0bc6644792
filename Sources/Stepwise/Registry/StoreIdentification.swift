import StepwiseModel
import StepwiseStore

/// What the version registry learned about a store: which model version wrote it, and how
/// sure it is.
public struct StoreIdentification: Sendable {
    /// How a store was matched to a version.
    public enum MatchKind: String, Sendable, Hashable, Codable {
        /// The metadata's entity version hashes equal the version's (Core Data's own test),
        /// and the tables agree.
        case hash
        /// No version's hashes match, but the store's tables and columns equal the
        /// version's generated schema (a model edited after the store was written, or
        /// metadata from an unusual writer).
        case schema
        /// No version's hashes match, but a shipped record's do, and the tables agree: the store
        /// was written by that version as it shipped, before the version was edited in place.
        /// The matched version is the recorded model, named `"<Version> (as shipped)"`
        /// (`ShippedVersion/asShippedName(_:)`).
        case shippedRecord
        /// No version of the bundle matches, but the store's own model cache (`Z_MODELCACHE`,
        /// `ModelCache`) has the metadata's hashes, and the tables agree: the
        /// store was written by a version the bundle no longer holds. The matched version is the
        /// cached model, named `"<store file>'s model cache"`
        /// (`ModelCache/modelName(forStoreAt:)`); Core Data migrates such a store
        /// from the same model.
        case modelCache
    }

    /// The outcome.
    public enum Match: Sendable {
        /// The store was written by `version`.
        case version(ObjectModel, by: MatchKind)
        /// The metadata names one version but the tables are another's (or no version's).
        /// Such a store must never be treated as either version.
        case inconsistent(hashVersion: String, schemaVersion: String?, differences: [SchemaDifference])
    }

    /// The store's path.
    public var path: String
    /// The outcome.
    public var match: Match
    /// The store's metadata.
    package var metadata: StoreMetadata
    /// Anything the caller should know: ties between versions, the fallback used.
    public var notes: [String]

    /// The matched version, unless the store is inconsistent.
    public var version: ObjectModel? {
        if case .version(let model, _) = match { return model }
        return nil
    }

    /// How the version was matched, unless the store is inconsistent.
    public var matchedBy: MatchKind? {
        if case .version(_, let kind) = match { return kind }
        return nil
    }

    /// Whether the metadata and the tables agree.
    public var isConsistent: Bool {
        if case .inconsistent = match { return false }
        return true
    }

    /// Why the store is inconsistent, in one sentence; nil when it is consistent.
    public var problem: String? {
        guard case .inconsistent(let hashVersion, let schemaVersion, let differences) = match else { return nil }
        let tables = schemaVersion.map { "the tables are '\($0)''s" } ?? "the tables match no known version"
        let details = differences.prefix(5).map(\.description).joined(separator: "; ")
        return "its metadata hashes say '\(hashVersion)' but \(tables) (\(details))"
    }
}
