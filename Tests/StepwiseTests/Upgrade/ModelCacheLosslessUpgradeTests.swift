import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// Issue 42's lossy path from the model cache, end to end on a synthetic store: a store written
/// by Journal 2 as it shipped, before `pinned` was added in place, carries only its own model
/// cache. Its upgrade to Journal 4 goes through Journal 2, and every entry's `body` reaches
/// Journal 4's `markdown` (`CachedRenameHistory`).
@Suite("Upgrading from a cached model without losing what the history renames")
struct ModelCacheLosslessUpgradeTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// The entries of a Journal 4 store: titles and markdown, by title.
    static func entries(_ store: URL) throws -> [String: String?] {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        return try queue.read { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: CachedRenameHistory.v4))
            var entries: [String: String?] = [:]
            for entry in try objects.fetch("Entry") {
                entries[entry.string("title") ?? ""] = entry.string("markdown")
            }
            return entries
        }
    }

    @Test func theTestStoreIsMatchedByItsOwnModelCache() throws {
        let store = directory.path("Journal.sqlite")
        let cache = try CachedRenameHistory.seed(at: store)
        let queue = try DatabaseQueue(path: store.path)
        let read = try queue.read { db in try ModelCache.model(in: db, path: store.path) }
        try queue.close()
        #expect(read?.name == "Journal.sqlite's model cache")
        #expect(read?.entityVersionHashes == cache.entityVersionHashes)
        #expect(read?[entity: "Entry"]?.attributes.map(\.name) == ["body", "title"])
        #expect(read?[entity: "Entry"]?.attributes.first?.renamingIdentifier == "text")

        let identification = try VersionRegistry(history: CachedRenameHistory.history).identify(storeAt: store)
        #expect(identification.matchedBy == .modelCache)
        #expect(identification.version?.name == "Journal.sqlite's model cache")
    }

    @Test func theUpgradeGoesThroughTheNearestVersionAndKeepsTheRenamedValue() throws {
        let store = directory.path("Journal.sqlite")
        try CachedRenameHistory.seed(at: store)
        // Strict: any drop a mapping doesn't declare is refused before anything runs.
        let upgrader = try Upgrader(history: CachedRenameHistory.history, options: UpgradeOptions(strict: true))

        let prepared = try upgrader.plan(forStoreAt: store)
        #expect(prepared.identification.matchedBy == .modelCache)
        #expect(
            prepared.plan.steps.map(\.description) == [
                "Journal.sqlite's model cache → Journal 4 via Journal 2, Journal 3 (inferred)"
            ])
        #expect(prepared.drops.joined().isEmpty)
        let join = try #require(prepared.plan.modelCacheJoin)
        #expect(join.version == "Journal 2")
        #expect(join.route == .throughVersion)
        #expect(join.droppedGoingStraight.map(\.place) == ["Entry.body"])

        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.outcome == .upgraded)
        #expect(report.from == "Journal.sqlite's model cache")
        #expect(report.to == "Journal 4")
        #expect(report.steps.flatMap(\.drops).isEmpty)

        let expected = Dictionary(uniqueKeysWithValues: CachedRenameHistory.entries.map { ($0.title, $0.body) })
        #expect(try Self.entries(store) == expected)
        #expect(try Self.entries(store).values.compactMap { $0 }.count == 2)
        let identification = try VersionRegistry(history: CachedRenameHistory.history).identify(storeAt: store)
        #expect(identification.version?.name == "Journal 4")
        #expect(identification.matchedBy == .hash)
    }
}
