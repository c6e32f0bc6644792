import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// Data a step drops is counted before the step runs, recorded in the report, and, in strict
/// mode, refused with the store untouched. On copies of real Core Data stores.
@Suite("upgradeIfNeeded: dropped data", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct UpgradeDropTests {
    /// W1 (1001 posts, each with a color) and wibosco's bundle alone, without its mapping
    /// models: version 1 → 2 is inferred, and the inference drops `Post.color`, as Core Data's
    /// lightweight migration would.
    struct InferredDrop {
        let directory: TemporaryDirectory
        let bundle: URL
        let store: URL

        init() throws {
            let corpus = try Corpus.required()
            directory = try TemporaryDirectory(prefix: "stepwise-drops")
            bundle = directory.path("CoreDataMigration_Example.xcdatamodeld")
            try FileManager.default.copyItem(at: corpus.url(.wibosco), to: bundle)
            store = try corpus.copyStore(try CorpusStore.named("W1"), to: directory.url)
        }

        func upgrader(strict: Bool) throws -> Upgrader {
            try Upgrader(
                bundleAt: bundle,
                options: UpgradeOptions(
                    targetVersion: "CoreDataMigration_Example 2", lockTimeout: .seconds(10), strict: strict))
        }
    }

    static let colorDropped = DroppedData(
        entity: "Post", property: "color", kind: .attribute, reason: .removedFromModel, count: 1001)

    @Test("an inferred step dropping a populated attribute is counted in the plan")
    func inferredDropIsPlanned() throws {
        let fixture = try InferredDrop()
        let upgrader = try fixture.upgrader(strict: false)
        let plan = try upgrader.planner.plan(from: "CoreDataMigration_Example", to: "CoreDataMigration_Example 2")
        let drops = try StoreSnapshotReader.read(fixture.store) { db in
            try plan.drops(countedIn: db)
        }
        #expect(drops == [[Self.colorDropped]])
    }

    @Test("strict mode refuses an inferred step that drops a populated attribute, before step 1")
    func strictRefusesInferredDrop() throws {
        let fixture = try InferredDrop()
        let before = StoreBytes(fixture.store)
        let error = try #require(throws: UpgradeError.self) {
            try fixture.upgrader(strict: true).upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .dropsData(let index, let count, let from, let to, let drops) = error.kind else {
            Issue.record("expected dropsData, got \(error)")
            return
        }
        #expect(index == 1 && count == 1)
        #expect(from == "CoreDataMigration_Example" && to == "CoreDataMigration_Example 2")
        #expect(drops == [Self.colorDropped])
        let message = "\(error)"
        #expect(message.contains("1001 non-null values of Post.color (removed from the model)"))
        #expect(message.contains("turn strict mode off"))
        #expect(StoreBytes(fixture.store) == before)
        #expect(!FileManager.default.fileExists(atPath: StoreFiles(store: fixture.store).workDirectory.path))
    }

    @Test("without strict mode the report records what the step dropped")
    func reportRecordsInferredDrop() throws {
        let fixture = try InferredDrop()
        let report = try fixture.upgrader(strict: false).upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.steps.map(\.drops) == [[Self.colorDropped]])
        let posts = try StoreSnapshotReader.read(fixture.store) { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPOST")
        }
        #expect(posts == 1001)
    }

    // MARK: - An explicit mapping that leaves an entity out

    /// Apptentive's own v4 → v5 mapping model without its `ATMessageSender` entity mapping
    /// (and the relationship mapping that named it): both versions have the entity, and v4
    /// holds 2 senders.
    static func apptentiveLeavingOutSenders(strict: Bool) throws -> Upgrader {
        let corpus = try Corpus.required()
        let bundle = try ModelBundle(contentsOf: corpus.url(.apptentive))
        let directory = try MappingDirectory(bundleAt: corpus.url(.apptentive), history: bundle.history)
        let key = MappingDirectory.StepKey("ATDataModel 4", "ATDataModel 5")
        let models = try #require(directory.steps[key]).map { $0.leavingOut(entity: "ATMessageSender") }
        return try Upgrader(
            history: bundle.history, mappings: [key: models],
            options: UpgradeOptions(targetVersion: "ATDataModel 5", lockTimeout: .seconds(10), strict: strict))
    }

    static let sendersDropped = DroppedData(
        entity: "ATMessageSender", kind: .entity, reason: .leftOutOfMapping, count: 2)

    @Test("an entity left out of an explicit mapping is counted in the plan, as dropped")
    func leftOutEntityIsPlanned() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-drops")
        let store = try Corpus.required().copyStore(try CorpusStore.named("v4"), to: directory.url)
        let upgrader = try Self.apptentiveLeavingOutSenders(strict: false)
        let plan = try upgrader.planner.plan(from: "ATDataModel 4", to: "ATDataModel 5")
        let drops = try StoreSnapshotReader.read(store) { db in
            try plan.drops(countedIn: db)
        }
        #expect(drops.count == 1)
        #expect(drops[0].contains(Self.sendersDropped))
        // Removed from version 5 and not in the mapping, as Xcode leaves it: declared.
        let displayTypes = try #require(drops[0].first { $0.entity == "ATMessageDisplayType" })
        #expect(
            displayTypes.reason == .removedWithExplicitMapping && displayTypes.isDeclared && displayTypes.count == 2)
    }

    @Test("strict mode refuses an explicit mapping that leaves out a populated entity; the store is untouched")
    func strictRefusesLeftOutEntity() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-drops")
        let store = try Corpus.required().copyStore(try CorpusStore.named("v4"), to: directory.url)
        let before = StoreBytes(store)
        let error = try #require(throws: UpgradeError.self) {
            try Self.apptentiveLeavingOutSenders(strict: true).upgradeIfNeededSynchronously(storeAt: store)
        }
        guard case .dropsData(let index, _, _, _, let drops) = error.kind else {
            Issue.record("expected dropsData, got \(error)")
            return
        }
        #expect(index == 1)
        #expect(drops == [Self.sendersDropped])
        #expect("\(error)".contains("2 rows of ATMessageSender (left out of the mapping)"))
        #expect(StoreBytes(store) == before)

        // Without strict mode the upgrade goes ahead and says what it dropped.
        let report = try Self.apptentiveLeavingOutSenders(strict: false).upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.steps.first?.drops.contains(Self.sendersDropped) == true)
    }

    @Test("an entity mapping with no destination drops rows on purpose: strict mode allows it")
    func declaredDropIsAllowed() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-drops")
        let store = try Corpus.required().copyStore(try CorpusStore.named("v4"), to: directory.url)
        let corpus = try Corpus.required()
        let bundle = try ModelBundle(contentsOf: corpus.url(.apptentive))
        let key = MappingDirectory.StepKey("ATDataModel 4", "ATDataModel 5")
        let mappings = try #require(
            try MappingDirectory(bundleAt: corpus.url(.apptentive), history: bundle.history).steps[key])
        var models = mappings.map { $0.leavingOut(entity: "ATMessageSender") }
        models[0].entityMappings.append(
            EntityMapping(kind: .remove, source: "ATMessageSender", destination: nil))
        let upgrader = try Upgrader(
            history: bundle.history, mappings: [key: models],
            options: UpgradeOptions(targetVersion: "ATDataModel 5", lockTimeout: .seconds(10), strict: true))
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        let senders = try #require(report.steps.first?.drops.first { $0.entity == "ATMessageSender" })
        #expect(senders.reason == .droppedByMapping && senders.isDeclared && senders.count == 2)
    }
}

/// Reads a store through a private copy (``StoreSnapshot``): tests never open a corpus copy
/// they still compare bytes of.
enum StoreSnapshotReader {
    static func read<T>(_ store: URL, _ body: (Database) throws -> T) throws -> T {
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        return try snapshot.database.read(body)
    }
}
