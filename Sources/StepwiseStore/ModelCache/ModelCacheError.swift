import StepwiseModel

/// A store's `Z_MODELCACHE` (Core Data's compressed copy of the model that wrote the store)
/// that can't be read, naming the store.
///
/// The cache is never needed to read a store's rows: a caller that hits this error can still
/// inspect the store, or upgrade it with a bundle holding its version.
public struct ModelCacheError: Error, Sendable, Hashable, ReportableError {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// `Z_CONTENT` is not raw deflate, or is damaged; `reason` is zlib's.
        case notDeflate(String)
        /// `Z_CONTENT` ends before its deflate stream does.
        case truncated
        /// The inflated model would be larger than `limit` bytes (a damaged or crafted store:
        /// Photos' model, the largest known, inflates to 350 KB).
        case tooLarge(limit: Int)
        /// The inflated bytes are not a model archive Stepwise can read; `reason` says why.
        case unreadableModel(String)
    }

    /// The store whose cache it is.
    public var path: String
    public var kind: Kind

    /// - parameters:
    ///   - path: The store whose cache it is.
    ///   - kind: What went wrong.
    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public var description: String {
        let advice =
            "The store's rows are unaffected; upgrade it with a model bundle that holds the version that wrote it."
        switch kind {
        case .notDeflate(let reason):
            return "\(path): the model cache (Z_MODELCACHE) is not raw deflate (\(reason)). \(advice)"
        case .truncated:
            return "\(path): the model cache (Z_MODELCACHE) is cut off before its end. \(advice)"
        case .tooLarge(let limit):
            return
                "\(path): the model cache (Z_MODELCACHE) inflates to more than \(limit) bytes; it was not read. \(advice)"
        case .unreadableModel(let reason):
            return "\(path): the model cache (Z_MODELCACHE) holds no readable model: \(reason). \(advice)"
        }
    }

    /// The kind's case name (`notDeflate`), for tools: `{"kind": …}` in the CLI's JSON.
    public var caseName: String {
        switch kind {
        case .notDeflate: "notDeflate"
        case .truncated: "truncated"
        case .tooLarge: "tooLarge"
        case .unreadableModel: "unreadableModel"
        }
    }

    /// The store the error is about.
    public var subjectPath: String? { path }
}
