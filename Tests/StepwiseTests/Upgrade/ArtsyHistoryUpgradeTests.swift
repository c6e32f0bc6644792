import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// Artsy's own test (`artsy/energy-legacy`) opens its 1.3, 1.3.5, 1.4 and 2.0 stores with the
/// current model and Core Data's inferred mapping, and expects their Artworks. Stepwise upgrades
/// each to `ArtsyFolio v2.7.0` with no history file and no mapping model, keeping every Artwork
/// and naming every link Core Data's rule leaves out on the way.
@Suite(
    "Artsy's stores upgrade as Core Data's inference upgrades them",
    .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct ArtsyHistoryUpgradeTests {
    static let bundle = "app-histories/artsy-energy-legacy/Resources/CoreData/ArtsyPartner.xcdatamodeld"

    /// Each store, the version it was written at, and its rows of `ZARTWORK`.
    struct Store: Sendable, CustomTestStringConvertible {
        var release: String
        var version: String
        var artworks: Int
        var path: String {
            "app-histories/artsy-energy-legacy/ArtsyFolio Tests/Migrations/ArtsyPartner_\(release).sqlite"
        }
        var testDescription: String { "ArtsyPartner_\(release).sqlite" }
    }

    /// The 1.3 and 2.0 stores are hand-made: their one Artwork row holds another entity's `Z_ENT`
    /// (Collection's, Album's). Core Data reads every row of a lone entity's table as that
    /// entity (`EntityLayout.ownsEveryRowOfItsTable`), so it is an Artwork all the same.
    static let stores = [
        Store(release: "1.3", version: "ArtsyPartner 5", artworks: 1),
        Store(release: "1.3.5", version: "ArtsyPartner 5", artworks: 63),
        Store(release: "1.4", version: "ArtsyFolio v1.4", artworks: 68),
        Store(release: "2.0", version: "ArtsyFolio v2.0", artworks: 1),
    ]

    @Test("upgrades to ArtsyFolio v2.7.0 with every Artwork", arguments: stores)
    func upgradesWithEveryArtwork(store: Store) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(store.path, to: directory.url)
        let upgrader = try Upgrader(bundleAt: corpus.url(Self.bundle))
        #expect(upgrader.targetVersion == "ArtsyFolio v2.7.0")
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: copy)
        #expect(report.from == store.version)
        #expect(report.to == "ArtsyFolio v2.7.0")
        let current = try ModelBundle(contentsOf: corpus.url(Self.bundle)).version(named: "ArtsyFolio v2.7.0")
        let (artworks, hashes) = try DatabaseQueue(path: copy.path).read { db in
            (
                try ObjectContext(db, layout: StoreLayout(model: current)).count("Artwork"),
                try StoreMetadata.read(from: db, path: copy.path).versionHashes
            )
        }
        #expect(artworks == store.artworks)
        #expect(hashes == current.entityVersionHashes)
        // Every drop is named by place and reason; links left out by a changed destination
        // name the objects they pointed at.
        for drop in report.steps.flatMap(\.drops) where drop.reason == .destinationChanged {
            #expect(drop.kind == .relationship)
            #expect(drop.linksTo?.isEmpty == false)
        }
    }

    /// Seven versions have `Image.artist` with inverse `Artist.thumbnail`, which doesn't point
    /// back: Xcode warns, Core Data loads them. `check` warns too, naming both sides, and finds
    /// no error in the committed bundle.
    @Test("check finds no error in Artsy's bundle and warns about the inverse that doesn't point back")
    func checkWarnsAboutTheInverse() throws {
        let corpus = try Corpus.required()
        let report = try HistoryCheck(bundleAt: corpus.url(Self.bundle)).run()
        #expect(report.errors == 0)
        let inverses = report.findings.filter { $0.kind == .modelWarning }
        #expect(inverses.count == 7)
        #expect(inverses.allSatisfy { $0.message.contains("Image.artist") && $0.message.contains("Artist.thumbnail") })
    }
}
