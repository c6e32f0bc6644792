import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// Real Core Data stores (on copies) upgraded to their bundle's current version with the
/// corpus's mapping models (as Stepwise files) and its policies in Swift: the outcomes of
/// corpus README §6.
@Suite("upgradeIfNeeded: corpus stores", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct UpgradeCorpusTests {
    /// A corpus store and the entity counts its upgraded copy must have.
    struct Case: CustomStringConvertible, Sendable {
        var store: String
        var counts: [String: Int]
        var description: String { store }
    }

    static let cases: [Case] = [
        // §6.6: v1 → v6 gives 2 ATMessage, 1 ATEvent, 1 sender.
        Case(store: "v1", counts: ["ATMessage": 2, "ATEvent": 1, "ATMessageSender": 1]),
        Case(store: "v2", counts: ["ATMessage": 3, "ATEvent": 0, "ATMessageSender": 2]),
        Case(store: "v3", counts: ["ATMessage": 3, "ATEvent": 0, "ATMessageSender": 2]),
        // §6.6: v4 → 5 makes 5 ATMessage and keeps 7 ATEvent and 2 senders.
        Case(store: "v4", counts: ["ATMessage": 5, "ATEvent": 7, "ATMessageSender": 2]),
        // §6.6: v5 → 6 keeps 4 messages, 2 events and 6 attachments.
        Case(store: "v5", counts: ["ATMessage": 4, "ATEvent": 2, "ATFileAttachment": 6, "ATMessageSender": 2]),
        // §6.3: every data row of the WAL stores is in their -wal. 2W → v6: 3 + 3, 2 senders.
        Case(store: "2W", counts: ["ATMessage": 3, "ATEvent": 3, "ATMessageSender": 2]),
        Case(store: "3W", counts: ["ATMessage": 3, "ATMessageSender": 2]),
        // §6.4: the Moody chain ends with 2 continents, 3 countries, 4 moods.
        Case(store: "M1", counts: ["Continent": 2, "Country": 3, "Mood": 4]),
        Case(store: "M3", counts: ["Continent": 2, "Country": 3, "Mood": 4]),
        Case(store: "M5", counts: ["Continent": 2, "Country": 3, "Mood": 4]),
        // §6.5: wibosco keeps every post, one color each.
        Case(store: "W1", counts: ["Post": 1001, "Color": 1001]),
        Case(store: "W2", counts: ["Post": 5979, "Color": 5979]),
        Case(store: "W3", counts: ["Post": 7995, "Color": 7995]),
    ]

    @Test("upgraded to the current version with the README's outcomes", arguments: cases)
    func upgradesToCurrent(_ testCase: Case) throws {
        let corpus = try Corpus.required()
        let store = try CorpusStore.named(testCase.store)
        let directory = try TemporaryDirectory(prefix: "stepwise-corpus-upgrade")
        let copy = try corpus.copyStore(store, to: directory.url)
        let bundle = try corpus.modelBundle(store.bundle)
        let upgrader = try Upgrader(
            bundleAt: corpus.url(store.bundle),
            policies: SamplePolicies.registry)
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: copy)
        #expect(report.from == store.version)
        #expect(report.to == bundle.current.name)
        #expect(!report.upToDate)

        let identification = try VersionRegistry(history: bundle.history).identify(storeAt: copy)
        #expect(identification.version?.name == bundle.current.name)
        #expect(identification.matchedBy == .hash)
        let snapshot = try StoreSnapshot(of: copy)
        defer { snapshot.close() }
        let layout = try StoreLayout(model: bundle.current)
        let counts = try snapshot.database.read { db in
            let objects = ObjectContext(db, layout: layout)
            return try testCase.counts.keys.reduce(into: [String: Int]()) { counts, entity in
                counts[entity] = try objects.count(entity, includingSubentities: false)
            }
        }
        #expect(counts == testCase.counts)
        // The source's store UUID carries over, as Core Data's migrations keep it (§6.7).
        #expect(identification.metadata.storeUUID == (try StoreSnapshot.metadata(of: corpus.url(store))).storeUUID)
    }

    @Test("stores at the current version are up to date and not a byte changes", arguments: ["v6", "WW"])
    func currentStoresAreUpToDate(_ shortName: String) throws {
        let corpus = try Corpus.required()
        let store = try CorpusStore.named(shortName)
        let directory = try TemporaryDirectory(prefix: "stepwise-corpus-upgrade")
        let copy = try corpus.copyStore(store, to: directory.url)
        let before = StoreBytes(copy)
        let upgrader = try Upgrader(
            bundleAt: corpus.url(store.bundle),
            policies: SamplePolicies.registry)
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: copy)
        #expect(report.upToDate)
        #expect(StoreBytes(copy) == before, "store, -wal and -shm unchanged")
        #expect(!FileManager.default.fileExists(atPath: StoreFiles(store: copy).workDirectory.path))
    }

    @Test("WW's 84 posts, all in its -wal, survive an up-to-date check and a --to downgrade refusal")
    func walOnlyStoreKeepsItsPosts() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory(prefix: "stepwise-corpus-upgrade")
        let copy = try corpus.copyStore(try CorpusStore.named("WW"), to: directory.url)
        let upgrader = try Upgrader(
            bundleAt: corpus.url(.wibosco),
            policies: SamplePolicies.registry)
        _ = try upgrader.upgradeIfNeededSynchronously(storeAt: copy)
        let snapshot = try StoreSnapshot(of: copy)
        defer { snapshot.close() }
        #expect(try snapshot.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPOST") } == 84)
    }

    @Test("the inconsistent store (2C) is refused and left untouched")
    func inconsistentStoreIsRefused() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory(prefix: "stepwise-corpus-upgrade")
        let copy = try corpus.copyStore(CorpusStore.corrupt, to: directory.url)
        let before = StoreBytes(copy)
        let upgrader = try Upgrader(
            bundleAt: corpus.url(.apptentive),
            policies: SamplePolicies.registry)
        let error = try #require(throws: UpgradeError.self) {
            try upgrader.upgradeIfNeededSynchronously(storeAt: copy)
        }
        guard case .inconsistent(let problem) = error.kind else {
            Issue.record("expected inconsistent, got \(error)")
            return
        }
        #expect(problem.contains("ATDataModel 3") && problem.contains("ATDataModel 2"))
        #expect(StoreBytes(copy) == before)
        // Only the lock files (never deleted, by design) are new beside the store.
        let added = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter {
            $0.contains("stepwise")
        }
        #expect(added.sorted() == [".ATDataModel.sqlite.stepwise-access", ".ATDataModel.sqlite.stepwise-lock"])
    }
}

extension StoreSnapshot {
    /// The metadata of a store, read from a private copy.
    static func metadata(of url: URL) throws -> StoreMetadata {
        let snapshot = try StoreSnapshot(of: url)
        defer { snapshot.close() }
        return try snapshot.database.read { db in try StoreMetadata.read(from: db, path: url.path) }
    }
}
