/// A model bundle or store of the corpus that Stepwise refuses today, with why and the issue
/// that will make it pass.
///
/// Corpus-wide tests walk the whole corpus (``RealStore``), so one refused bundle would
/// otherwise fail every one of them, or, skipped silently, hide its stores. Each refusal is
/// listed here instead: the catalogue records it, each test prints it, and the catalogue fails
/// when a listed input is accepted again (the entry is then stale, and must go) or when an input
/// is refused that isn't listed.
package struct RefusedCorpusInput: Sendable, Hashable, CustomStringConvertible {
    /// The bundle's or store's path inside the corpus.
    package let path: String
    /// What Stepwise says when it refuses the input, in a few words.
    package let reason: String
    /// The open issue whose fix makes the input pass.
    package let issue: Int

    package var description: String {
        "\(path): \(reason) (issue \(issue))"
    }

    /// Every refused input of the corpus.
    package static let all: [RefusedCorpusInput] = [
        // Seven versions have `Image.artist` with inverse `Artist.thumbnail`, which doesn't point
        // back; Core Data loads the model (Xcode only warns), Stepwise refuses the bundle. The
        // version names also share no stem ('ArtsyPartner', 'ArtsyFolio v1.4'…), which Stepwise
        // can't order either. Its four stores (1.3, 1.3.5, 1.4, 2.0) therefore have no model.
        RefusedCorpusInput(
            path: "app-histories/artsy-energy-legacy/Resources/CoreData/ArtsyPartner.xcdatamodeld",
            reason: "an inverse that doesn't point back (Image.artist ↔ Artist.thumbnail) and version names "
                + "with no common stem: Stepwise refuses what Core Data loads",
            issue: 42)
    ]

    /// One line per refused input, for a corpus-wide test to print beside its counts, so that
    /// what it didn't test is in its output.
    package static var report: String {
        "\(all.count) corpus inputs refused, listed with their issue:\n  "
            + all.map(\.description).joined(separator: "\n  ")
    }

    /// The refusal listed for `path`, if any.
    package static func listed(_ path: String) -> RefusedCorpusInput? {
        all.first { $0.path == path }
    }
}
