import StepwiseModel
import StepwiseStore

/// A store the version registry can't place in the history.
public struct RegistryError: Error, Sendable, ReportableError {
    /// What went wrong.
    public enum Kind: Sendable {
        /// The store was written by a model newer than every version in the history,
        /// e.g. by a later app build. Downgrading is not supported.
        case newerThanKnownVersions(storeVersionName: String?, latest: String, differences: [SchemaDifference])
        /// Neither hashes nor tables match any version.
        case noMatchingVersion(closest: String?, differences: [SchemaDifference])
        /// The metadata and the tables disagree (see ``StoreIdentification/problem``).
        case inconsistent(problem: String)
        /// The history has no versions.
        case emptyHistory
    }

    /// The store's path.
    public var path: String
    public var kind: Kind
    /// Why the store's own model cache (``StoreIdentification/MatchKind/modelCache``) wasn't
    /// used instead, for a store no version matches: it has none, its hashes differ from the
    /// metadata, or it can't be read. Added to ``description``.
    public var modelCacheNote: String?

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .newerThanKnownVersions(let name, let latest, let differences):
            let named = name.map { " ('\($0)')" } ?? ""
            return
                "\(path) was written by a model version\(named) newer than the latest known, '\(latest)'\(Self.summary(differences)). Run the newer app build, or add that version to the model bundle."
        case .noMatchingVersion(let closest, let differences):
            let closestText = closest.map { " The closest is '\($0)'\(Self.summary(differences))." } ?? ""
            let cacheText = modelCacheNote.map { " \($0)." } ?? ""
            return
                "\(path) matches no version in the history, by hash or by tables.\(closestText)\(cacheText) Add the version that wrote it to the bundle, or use the bundle of the app that wrote it."
        case .inconsistent(let problem):
            return
                "\(path) is inconsistent: \(problem). Stepwise won't upgrade it as either version; restore it from a backup or rebuild it."
        case .emptyHistory:
            return "the version history is empty; pass a model bundle with at least one version."
        }
    }

    private static func summary(_ differences: [SchemaDifference]) -> String {
        guard !differences.isEmpty else { return "" }
        let shown = differences.prefix(6).map(\.description).joined(separator: "; ")
        let more = differences.count > 6 ? "; and \(differences.count - 6) more" : ""
        return ": \(shown)\(more)"
    }
}

extension RegistryError {
    /// The kind's case name (`newerThanKnownVersions`), for tools: `{"kind": …}` in the CLI's JSON.
    package var caseName: String {
        switch kind {
        case .newerThanKnownVersions: "newerThanKnownVersions"
        case .noMatchingVersion: "noMatchingVersion"
        case .inconsistent: "inconsistent"
        case .emptyHistory: "emptyHistory"
        }
    }

    public var errorDescription: String? { description }

    /// The file the error is about.
    package var subjectPath: String? { path }
}
