import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// DuckDuckGo's app merges its own `AppRatingPrompt` model with its `Core` framework's
/// `HTTPSUpgrade` into one store. With the compiled `.momd` folders of an App Store build, a store
/// of both models (at `HTTPSUpgrade`'s first version) upgrades along `HTTPSUpgrade`'s history; with
/// the app's model alone, the framework's entities are refused by name, not dropped.
@Suite("Merged compiled models of a real app", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct MergedCompiledModelsTests {
    static let app =
        "app-histories/duckduckgo-iOS/searchbar-fix/DuckDuckGo-2022-02-11-20-25.xcarchive/Products/Applications/DuckDuckGo.app"
    static let prompt = "\(app)/AppRatingPrompt.momd"
    static let https = "\(app)/Frameworks/Core.framework/HTTPSUpgrade.momd"

    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    /// A store at `AppRatingPrompt` merged with `HTTPSUpgrade`'s first version, seeded.
    func store() throws -> (url: URL, prompt: ModelHistory, https: ModelHistory) {
        let corpus = try Corpus.required()
        let prompt = try ModelHistory(bundleAt: corpus.url(Self.prompt))
        let https = try ModelHistory(bundleAt: corpus.url(Self.https))
        let first = try #require(https.versions.versions.first)
        let promptModel = try #require(prompt.versions.latest)
        let model = try ObjectModel.merging([promptModel, first])
        let url = directory.path("Merged.sqlite")
        // Three seeded rows of every entity, valid for the model (SeededStore).
        _ = try SeededStore.create(at: url, model: model, rows: 3)
        return (url, prompt, https)
    }

    @Test("both .momd folders upgrade the store along HTTPSUpgrade's history, every row kept")
    func bothModelsUpgradeTheStore() throws {
        let corpus = try Corpus.required()
        let (url, prompt, https) = try store()
        let rowsBefore = try DatabaseQueue(path: url.path).read { db in
            try Int.fetchOne(db, sql: #"SELECT SUM("Z_MAX") FROM "Z_PRIMARYKEY""#) ?? 0
        }
        let upgrader = try Upgrader(bundlesAt: [corpus.url(Self.prompt), corpus.url(Self.https)])
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: url)
        let promptName = try #require(prompt.currentVersion)
        let httpsFirst = try #require(https.versions.versions.first?.name)
        let httpsCurrent = try #require(https.currentVersion)
        #expect(report.from == "\(promptName) + \(httpsFirst)")
        #expect(report.to == "\(promptName) + \(httpsCurrent)")
        let current = try ObjectModel.merging([
            try #require(prompt.version(named: promptName)), try #require(https.version(named: httpsCurrent)),
        ])
        let (hashes, promptRows) = try DatabaseQueue(path: url.path).read { db in
            (
                try StoreMetadata.read(from: db, path: url.path).versionHashes,
                try ObjectContext(db, layout: StoreLayout(model: current)).count(
                    try #require(prompt.version(named: promptName)?.entities.first?.name))
            )
        }
        #expect(hashes == current.entityVersionHashes)
        #expect(promptRows == 3)
        #expect(rowsBefore > 0)
    }

    @Test("the app's model alone refuses the framework's entities by name, and leaves the store alone")
    func theAppsModelAloneRefusesTheFrameworksEntities() throws {
        let corpus = try Corpus.required()
        let (url, _, https) = try store()
        let before = StepFixturesBytes.bytes(url)
        let error = #expect(throws: UpgradeError.self) {
            try Upgrader(bundleAt: corpus.url(Self.prompt)).upgradeIfNeededSynchronously(storeAt: url)
        }
        guard case .unknownEntities(let entities, _)? = error?.kind else {
            Issue.record("expected unknownEntities, got \(String(describing: error))")
            return
        }
        #expect(entities == (https.versions.versions.first?.entityNames.sorted() ?? []))
        #expect(StepFixturesBytes.bytes(url) == before)
    }
}
