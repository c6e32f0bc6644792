import Foundation
import GRDB
import StepwiseMapping
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// A step that fails leaves the store byte-identical, says which step, mapping, entity and
/// row failed, records the failure in the journal, and keeps the completed steps for the
/// next call, which resumes instead of starting over.
@Suite("upgradeIfNeeded: failures and resume")
struct UpgradeFailureTests {
    /// Recipes 2 → 3's SharedIngredientPolicy, failing on its `row`-th source row.
    final class FailingIngredientPolicy: EntityMigrationPolicy, @unchecked Sendable {
        var row = 0
        let wrapped = SharedIngredientPolicy()
        var seen = 0

        static func failing(at row: Int) -> FailingIngredientPolicy {
            let policy = FailingIngredientPolicy()
            policy.row = row
            return policy
        }

        override func createDestinationInstances(
            forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
        ) throws {
            seen += 1
            if seen == row { throw MappingError(.policyFailed("this ingredient can't be shared")) }
            try wrapped.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        }

        override func createRelationships(
            forDestination destination: ObjectID, in mapping: EntityMapping, manager: MigrationManager
        ) throws {
            try wrapped.createRelationships(forDestination: destination, in: mapping, manager: manager)
        }
    }

    static func policies(failingAt row: Int) -> PolicyRegistry {
        var registry = SamplePolicies.registry
        registry.register("SharedIngredientPolicy") { FailingIngredientPolicy.failing(at: row) }
        return registry
    }

    @Test("a policy of step 2 that isn't registered is refused before step 1 runs")
    func unregisteredPolicyOfALaterStepIsFoundWhenPlanning() throws {
        let fixture = try UpgradeFixture("Recipes")
        let before = StoreBytes(fixture.store)
        var policies = PolicyRegistry()
        policies.register("ChefNamePolicy") { ChefNamePolicy() }
        policies.register("CuisinePolicy") { CuisinePolicy() }
        let recorder = UpgradeRecorder()
        let upgrader = try fixture.upgrader(policies: policies, progress: recorder.record)
        let error = try #require(throws: UpgradeError.self) {
            try upgrader.upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .unregisteredPolicy(let name, let mappingModel, let entityMapping) = error.kind else {
            Issue.record("expected unregisteredPolicy, got \(error)")
            return
        }
        #expect(name == "SharedIngredientPolicy" && entityMapping == "IngredientToIngredient")
        #expect(mappingModel == "Recipes 2 → Recipes 3")
        #expect(error.description.contains("Register it with PolicyRegistry.register(\"SharedIngredientPolicy\")"))
        // Found while planning: the message names no step.
        #expect(!error.description.contains("step"))
        // No step ran, nothing was planned for a resume, and the work folder is gone.
        #expect(!recorder.events.map { "\($0)" }.contains { $0.contains("planned") || $0.contains("step") })
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path))
        #expect(StoreBytes(fixture.store) == before)
    }

    @Test("a policy that throws at row 3 of step 2: typed error, store untouched, then resume")
    func policyFailureThenResume() throws {
        let fixture = try UpgradeFixture("Recipes")
        let before = StoreBytes(fixture.store)
        let failing = try fixture.upgrader(policies: Self.policies(failingAt: 3))
        let error = try #require(throws: UpgradeError.self) {
            try failing.upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .stepFailed(let index, let count, let from, let to, _) = error.kind else {
            Issue.record("expected stepFailed, got \(error)")
            return
        }
        #expect(index == 2)
        #expect(count == 3)
        #expect(from == "Recipes 2" && to == "Recipes 3")
        let mappingError = try #require(error.mappingError)
        #expect(mappingError.entityMapping == "IngredientToIngredient")
        #expect(mappingError.sourcePrimaryKey == 3)
        #expect(mappingError.mappingModel == "Recipes 2 → Recipes 3")
        #expect("\(error)".contains("step 2 of 3"))
        #expect(error.storePath == fixture.store.path)
        // The policy fails the same way on every run: the message says to fix it first.
        #expect(error.failsTheSameWayAgain)
        #expect(error.leftoverWorkDirectory != nil)
        #expect(
            "\(error)".contains(
                "the step fails the same way on every run, so fix the mapping, the policy or the data first"))

        // The original is byte-identical; the journal records the failure and keeps step 1.
        #expect(StoreBytes(fixture.store) == before)
        let journal = try #require(UpgradeJournal.load(from: fixture.files.workDirectory))
        #expect(journal.state == .failed)
        #expect(journal.failure?.contains("this ingredient can't be shared") == true)
        #expect(journal.completed.map(\.index) == [1])
        let workEntries = try FileManager.default.contentsOfDirectory(atPath: fixture.files.workDirectory.path)
        #expect(Set(workEntries) == ["journal.json", "step-1"], "step 2's output is discarded, step 1 kept")

        // A fixed build resumes after step 1 instead of redoing it.
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.steps.map(\.resumed) == [true, false, false])
        #expect(report.to == "Recipes 4")
        #expect(try fixture.version() == "Recipes 4")
        #expect(try fixture.count("ZINGREDIENT") == 5)
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path))
    }

    @Test("a resume whose plan names a policy this build doesn't register throws, and keeps the checkpoints")
    func resumeRefusedForAnUnregisteredPolicyKeepsTheCheckpoints() throws {
        let fixture = try UpgradeFixture("Recipes")
        _ = #expect(throws: UpgradeError.self) {
            try fixture.upgrader(policies: Self.policies(failingAt: 3)).upgradeIfNeededSynchronously(
                storeAt: fixture.store)
        }
        var policies = PolicyRegistry()
        policies.register("ChefNamePolicy") { ChefNamePolicy() }
        policies.register("CuisinePolicy") { CuisinePolicy() }
        let error = try #require(throws: UpgradeError.self) {
            try fixture.upgrader(policies: policies).upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .unregisteredPolicy(let name, _, _) = error.kind else {
            Issue.record("expected unregisteredPolicy, got \(error)")
            return
        }
        #expect(name == "SharedIngredientPolicy")
        // Step 1's checkpoint is still there for a build that registers the policy.
        let journal = try #require(UpgradeJournal.load(from: fixture.files.workDirectory))
        #expect(journal.completed.map(\.index) == [1])
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.steps.map(\.resumed) == [true, false, false])
    }

    @Test("a changed mapping invalidates the checkpoints: the next run starts over")
    func changedMappingStartsOver() throws {
        let fixture = try UpgradeFixture("Recipes")
        _ = #expect(throws: UpgradeError.self) {
            try fixture.upgrader(policies: Self.policies(failingAt: 1)).upgradeIfNeededSynchronously(
                storeAt: fixture.store)
        }
        // Tamper with the journal's record of step 1's mapping, as a new app build would.
        var journal = try #require(UpgradeJournal.load(from: fixture.files.workDirectory))
        journal.plan[0] = "Recipes → Recipes 2 (explicit) an older mapping"
        try journal.save(in: fixture.files.workDirectory, fileSystem: FileSystem())
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.steps.map(\.resumed) == [false, false, false])
        #expect(try fixture.version() == "Recipes 4")
    }

    @Test("a policy registered with a new version invalidates the checkpoints: the next run starts over")
    func newPolicyVersionStartsOver() throws {
        let fixture = try UpgradeFixture("Recipes")
        _ = #expect(throws: UpgradeError.self) {
            try fixture.upgrader(policies: Self.policies(failingAt: 1)).upgradeIfNeededSynchronously(
                storeAt: fixture.store)
        }
        let journal = try #require(UpgradeJournal.load(from: fixture.files.workDirectory))
        #expect(journal.completed.map(\.index) == [1])
        // Step 1 ran ChefNamePolicy unversioned; the new build says its output changed.
        var policies = SamplePolicies.registry
        policies.register("ChefNamePolicy", version: "2") { ChefNamePolicy() }
        #expect(policies.version(of: "ChefNamePolicy") == "2")
        #expect(policies.version(of: "Migrations.ChefNamePolicy") == "2")
        #expect(policies.version(of: "CuisinePolicy") == "")
        #expect(policies.version(of: "NotRegistered") == nil)
        let report = try fixture.upgrader(policies: policies).upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.steps.map(\.resumed) == [false, false, false])
        #expect(try fixture.version() == "Recipes 4")
    }

    @Test("a damaged checkpoint is never trusted: the step is redone")
    func damagedCheckpointIsRedone() throws {
        let fixture = try UpgradeFixture("Recipes")
        _ = #expect(throws: UpgradeError.self) {
            try fixture.upgrader(policies: Self.policies(failingAt: 1)).upgradeIfNeededSynchronously(
                storeAt: fixture.store)
        }
        let checkpoint = fixture.files.workDirectory.appendingPathComponent("step-1/store.sqlite")
        let handle = try FileHandle(forWritingTo: checkpoint)
        try handle.seek(toOffset: 4096)
        try handle.write(contentsOf: Data(repeating: 0xAB, count: 64))
        try handle.close()
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.steps.map(\.resumed) == [false, false, false])
        #expect(try fixture.count("ZRECIPE") == 4)
    }

    @Test("a store changed since the interrupted run is upgraded from scratch")
    func changedStoreStartsOver() throws {
        let fixture = try UpgradeFixture("Recipes")
        _ = #expect(throws: UpgradeError.self) {
            try fixture.upgrader(policies: Self.policies(failingAt: 1)).upgradeIfNeededSynchronously(
                storeAt: fixture.store)
        }
        // Somebody added a chef to the v1 store meanwhile.
        let queue = try DatabaseQueue(path: fixture.store.path)
        try queue.write { db in
            _ = try ObjectContext(db, layout: StoreLayout(model: RecipesHistory.v1))
                .insert("Chef", ["name": "Late Arrival", "training": "none"])
        }
        try queue.close()
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.steps.map(\.resumed) == [false, false, false])
        #expect(try fixture.strings("SELECT ZLASTNAME FROM ZCHEF").contains("Arrival"))
    }

    @Test("a store written during the upgrade without StoreAccess is not swapped out: its writes stay")
    func storeWrittenDuringTheUpgradeIsNotSwappedOut() throws {
        let fixture = try UpgradeFixture("Recipes")
        let store = fixture.store
        // A process outside the protocol adds a chef while step 1 runs, and closes again.
        let upgrader = try fixture.upgrader(progress: { event in
            guard case .stepStarted(1, _, _) = event else { return }
            let queue = try? DatabaseQueue(path: store.path)
            try? queue?.write { db in
                _ = try ObjectContext(db, layout: StoreLayout(model: RecipesHistory.v1))
                    .insert("Chef", ["name": "Late Arrival", "training": "none"])
            }
            try? queue?.close()
        })
        let error = try #require(throws: UpgradeError.self) {
            try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        }
        guard case .storeChangedDuringUpgrade = error.kind else {
            Issue.record("expected storeChangedDuringUpgrade, got \(error)")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path))
        #expect(try fixture.strings("SELECT ZNAME FROM ZCHEF").contains("Late Arrival"))
        // The next call starts over from the store as it now is.
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.steps.map(\.resumed) == [false, false, false])
        #expect(try fixture.strings("SELECT ZLASTNAME FROM ZCHEF").contains("Arrival"))
    }

    @Test("not enough disk space is refused before anything is written")
    func insufficientSpace() throws {
        let fixture = try UpgradeFixture("Recipes")
        let before = StoreBytes(fixture.store)
        let full = FileSystem(freeSpaceOverride: { _ in 1000 })
        let error = try #require(throws: UpgradeError.self) {
            try fixture.upgrader(fileSystem: full).upgradeIfNeededSynchronously(storeAt: fixture.store)
        }
        guard case .insufficientSpace(let needed, let available) = error.kind else {
            Issue.record("expected insufficientSpace, got \(error)")
            return
        }
        #expect(available == 1000)
        #expect(needed > Int64(before.files[""]??.count ?? 0))
        #expect(StoreBytes(fixture.store) == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.files.workDirectory.path))
    }

    @Test("a work directory left without a journal is deleted, not trusted")
    func staleWorkDirectoryIsCleanedUp() throws {
        let fixture = try UpgradeFixture("Recipes")
        let stale = fixture.files.workDirectory
        try FileManager.default.createDirectory(
            at: stale.appendingPathComponent("step-1"), withIntermediateDirectories: true)
        try Data("half a store".utf8).write(to: stale.appendingPathComponent("step-1/.stepwise-source-X.sqlite"))
        let report = try fixture.upgrader().upgradeIfNeededSynchronously(storeAt: fixture.store)
        #expect(report.steps.count == 3)
        #expect(!FileManager.default.fileExists(atPath: stale.path))
    }
}
