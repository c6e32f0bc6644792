import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// A store with Core Data's persistent history and CloudKit tables upgrades through the whole
/// Recipes history (two rebuilt steps, one in place) like any other: identified by hash, its
/// history and records still naming the same objects, resumed after a crash, rolled back byte
/// for byte.
@Suite("upgradeIfNeeded: persistent history and CloudKit tables")
struct UpgradePrivateTablesTests {
    /// The Recipes fixture with history and CloudKit records added, and a `Z_MODELCACHE`.
    static func fixture() throws -> UpgradeFixture {
        let fixture = try UpgradeFixture("Recipes")
        try RecipesHistoryFixture.add(to: fixture.store)
        return fixture
    }

    @Test func aStoreWithPrivateTablesIsIdentifiedAsItsVersion() throws {
        let fixture = try Self.fixture()
        let identification = try VersionRegistry(history: fixture.history).identify(storeAt: fixture.store)
        #expect(identification.isConsistent)
        #expect(identification.version?.name == "Recipes")
        #expect(identification.matchedBy == .hash)
    }

    @Test func historyAndRecordsFollowTheirObjectsThroughEveryStep() throws {
        let fixture = try Self.fixture()
        let before = try RecipesHistoryFixture.Facts(fixture.store)
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.steps.map(\.strategy) == [.rebuild, .rebuild, .inPlace])
        try RecipesHistoryFixture.checkUpgraded(fixture.store, before: before)
    }

    @Test func fullVerificationAndTheConsistencyCheckPassWithThePrivateTables() throws {
        let fixture = try Self.fixture()
        var options = UpgradeOptions(lockTimeout: .seconds(30))
        options.verification = .full
        let upgrader = try Upgrader(bundleAt: fixture.bundle, policies: SamplePolicies.registry, options: options)
        #expect(try upgrader.upgradeIfNeededSynchronously(storeAt: fixture.store).to == "Recipes 4")
        #expect(try StoreConsistency.problems(inStoreAt: fixture.store, model: RecipesHistory.v4) == [])
        #expect(try RecipesHistoryFixture.Facts(fixture.store).changes.count == 18)
    }

    @Test func historyWrittenOnlyInTheWALIsCarried() throws {
        let fixture = try Self.fixture()
        try fixture.writeInWAL { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: RecipesHistory.v1))
            let chef = try objects.insert("Chef", ["name": "Ada Walrus", "training": "WAL"])
            try CoreDataPrivateTablesFixture.recordTransaction(
                [.init(entity: 1, primaryKey: chef.primaryKey, type: .insert)], author: "Chef:Ada Walrus", in: db)
        }
        let before = try RecipesHistoryFixture.Facts(fixture.store)
        #expect(before.changes.contains { $0.author == "Chef:Ada Walrus" })
        _ = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        let after = try RecipesHistoryFixture.checkUpgraded(fixture.store, before: before)
        #expect(after.namedObjects.contains("Chef:Ada Walrus"))
    }

    /// Where the first upgrade stops: in step 2 (step 1 journaled), in step 3's in-place copy,
    /// and in the swap, past its commit point.
    static let interruptions: [(site: String, occurrence: Int, fault: FileSystem.Fault)] = [
        ("step.mkdir", 1, .crash), ("step.in-place-copy", 0, .error(EIO)), ("swap.in.rename", 0, .crash),
    ]

    @Test(arguments: 0..<interruptions.count)
    func anInterruptedUpgradeResumesWithTheHistory(_ index: Int) throws {
        let (site, occurrence, fault) = Self.interruptions[index]
        let fixture = try Self.fixture()
        let before = try RecipesHistoryFixture.Facts(fixture.store)
        let original = StoreBytes(fixture.store)
        let recorder = UpgradeRecorder()
        let faulty = try fixture.upgrader(
            fileSystem: recorder.fileSystem(faultAt: site, occurrence: occurrence, fault: fault))
        do {
            _ = try faulty.upgradeIfNeededSynchronously(storeAt: fixture.store)
            Issue.record("\(site): the fault was never reached")
        } catch let crash as SimulatedCrash {
            #expect(crash.site == site)
        } catch let error as UpgradeError {
            #expect(error.site == site)
        }
        let journal = UpgradeJournal.load(from: fixture.files.workDirectory)
        if ![.swappingOut, .swappingIn, .swapped].contains(journal?.state) {
            #expect(StoreBytes(fixture.store) == original, "\(site): the store changed before the commit point")
        }
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.to == "Recipes 4")
        if site == "step.mkdir" { #expect(report.steps.map(\.resumed) == [true, false, false]) }
        try RecipesHistoryFixture.checkUpgraded(fixture.store, before: before)
    }

    // MARK: A removed entity

    static let zoo = ObjectModel("Zoo") {
        Entity("Animal") { Attribute("name", .string) }
        Entity("Pen") { Attribute("name", .string) }
    }
    static let zoo2 = ObjectModel("Zoo 2") {
        Entity("Animal") { Attribute("name", .string) }
    }

    /// A Zoo store whose first transaction made a pen (mirrored), its second an animal.
    static func zooStore(in directory: TemporaryDirectory) throws -> URL {
        let store = directory.path("Zoo.sqlite")
        try StoreCreator.createStore(at: store, model: zoo)
        try DatabaseQueue(path: store.path).write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: zoo))
            let pen = try objects.insert("Pen", ["name": "North"])
            let animal = try objects.insert("Animal", ["name": "Cleo"])
            try CoreDataPrivateTablesFixture.addTables(to: db)
            try CoreDataPrivateTablesFixture.recordTransaction(
                [.init(entity: 2, primaryKey: pen.primaryKey, type: .insert)], author: "Pen:North", in: db)
            try CoreDataPrivateTablesFixture.mirror(entity: 2, primaryKey: pen.primaryKey, recordName: "North", in: db)
            try CoreDataPrivateTablesFixture.recordTransaction(
                [.init(entity: 1, primaryKey: animal.primaryKey, type: .insert)], author: "Animal:Cleo", in: db)
        }
        return store
    }

    static let zooDrops = [
        DroppedData(entity: "Pen", kind: .entity, reason: .removedFromModel, count: 1),
        DroppedData(entity: "Pen", kind: .persistentHistory, reason: .removedFromModel, count: 1),
        DroppedData(entity: "Pen", kind: .cloudKitMetadata, reason: .removedFromModel, count: 1),
    ]

    @Test func theHistoryARemovedEntityCutsIsPlannedReportedAndRefusedInStrictMode() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.zooStore(in: directory)
        let history = VersionHistory([Self.zoo, Self.zoo2])
        func upgrader(strict: Bool) throws -> Upgrader {
            try Upgrader(
                history: history, mappings: [:], options: UpgradeOptions(lockTimeout: .seconds(10), strict: strict))
        }
        let plan = try upgrader(strict: false).planner.plan(from: "Zoo", to: "Zoo 2")
        let planned = try StoreSnapshotReader.read(store) { db in try plan.drops(countedIn: db) }
        #expect(planned == [Self.zooDrops])

        let before = StoreBytes(store)
        let error = try #require(throws: UpgradeError.self) {
            try upgrader(strict: true).upgradeIfNeededSynchronously(storeAt: store)
        }
        guard case .dropsData(_, _, _, _, let refused) = error.kind else {
            Issue.record("expected dropsData, got \(error)")
            return
        }
        #expect(refused == Self.zooDrops)
        #expect(StoreBytes(store) == before)

        let report = try upgrader(strict: false).upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.steps.map(\.drops) == [Self.zooDrops])
        let after = try RecipesHistoryFixture.Facts(store)
        #expect(after.changes.map(\.author) == ["Animal:Cleo"])
        #expect(after.records.isEmpty)
    }

    @Test func rollbackRestoresTheHistoryByteForByte() throws {
        let fixture = try Self.fixture()
        try fixture.writeInWAL { db in
            try CoreDataPrivateTablesFixture.recordTransaction(
                [.init(entity: 3, primaryKey: 1, type: .update, columns: [0b0001_0000])], author: "Recipe:Mole Poblano",
                in: db)
        }
        let before = StoreBytes(fixture.store)
        let history = try RecipesHistoryFixture.Facts(fixture.store)
        _ = try fixture.upgrader(keepBackup: true).upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(try fixture.version() == "Recipes 4")
        #expect(try Upgrader.rollback(storeAt: fixture.store) == "Recipes")
        #expect(StoreBytes(fixture.store) == before)
        let restored = try RecipesHistoryFixture.Facts(fixture.store)
        #expect(restored.changes == history.changes)
        #expect(restored.records == history.records)
        #expect(restored.hasModelCache)
    }
}
