/// A model bundle or store of the corpus that Stepwise refuses today, with why and the issue
/// that will make it pass.
///
/// Corpus-wide tests walk the whole corpus (``RealStore``), so one refused input would otherwise
/// fail every one of them, or, skipped silently, hide its stores. Each refusal is listed here
/// instead: the tests record it and print it, and fail when a listed input is accepted again (the
/// entry is then stale, and must go) or when an input is refused that isn't listed.
package struct RefusedCorpusInput: Sendable, Hashable, CustomStringConvertible {
    /// What is refused.
    package enum Scope: String, Sendable, Hashable {
        /// A model bundle that can't be read: the corpus catalogue leaves its stores without a model.
        case bundle
        /// A store that can't be upgraded to some later version of its history: the tests that
        /// upgrade corpus stores list the failure instead.
        case upgrade
    }

    /// The bundle's or store's path inside the corpus.
    package let path: String
    /// What is refused.
    package let scope: Scope
    /// What Stepwise says when it refuses the input, in a few words.
    package let reason: String
    /// The open issue whose fix makes the input pass.
    package let issue: Int

    package var description: String {
        "\(path) (\(scope.rawValue)): \(reason) (issue \(issue))"
    }

    /// Every refused input of the corpus: none today. Artsy's 1.3, 1.3.5 and 1.4 stores were
    /// listed until inferred steps followed Core Data's rule for a relationship whose
    /// destination changes (issue 42).
    package static let all: [RefusedCorpusInput] = []

    /// One line per refused input, for a corpus-wide test to print beside its counts, so that
    /// what it didn't test is in its output.
    package static var report: String {
        "\(all.count) corpus inputs refused, listed with their issue:\n  "
            + all.map(\.description).joined(separator: "\n  ")
    }

    /// The refusal listed for `path` in `scope`, if any.
    package static func listed(_ path: String, scope: Scope = .bundle) -> RefusedCorpusInput? {
        all.first { $0.path == path && $0.scope == scope }
    }
}
