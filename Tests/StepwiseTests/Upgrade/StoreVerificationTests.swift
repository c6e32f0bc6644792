import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// The checks an upgraded store must pass before it replaces the original.
@Suite("Store verification before the swap")
struct StoreVerificationTests {
    /// A Recipes 4 store with one chef and one recipe of that chef.
    static func makeStore(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.path("Recipes 4.sqlite")
        try StoreCreator.createStore(at: url, model: RecipesHistory.v4)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: RecipesHistory.v4))
            let chef = try objects.insert("Chef", ["firstName": "Julia", "lastName": "Child"])
            _ = try objects.insert("Recipe", ["name": "Boeuf Bourguignon", "chef": chef])
        }
        try queue.close()
        return url
    }

    @Test("a sound store passes at both levels")
    func soundStorePasses() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.makeStore(in: directory)
        for level in UpgradeOptions.Verification.allCases {
            try StoreVerification(level: level).verify(url, model: RecipesHistory.v4)
        }
    }

    @Test("a to-one key pointing at no row fails, naming the relationship")
    func danglingForeignKey() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.makeStore(in: directory)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: #"UPDATE "ZRECIPE" SET "ZCHEF" = 999"#) }
        try queue.close()
        let error = try #require(throws: UpgradeError.self) {
            try StoreVerification(level: .quick).verify(url, model: RecipesHistory.v4)
        }
        guard case .verificationFailed(let reason) = error.kind else {
            Issue.record("expected verificationFailed, got \(error)")
            return
        }
        #expect(reason == "1 Recipe.chef keys point to no Chef (the first in row Z_PK 1)")
    }

    @Test("metadata of another version fails")
    func wrongMetadata() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.makeStore(in: directory)
        let error = try #require(throws: UpgradeError.self) {
            try StoreVerification(level: .quick).verify(url, model: RecipesHistory.v3)
        }
        #expect("\(error)".contains("entity hashes are not 'Recipes 3''s"))
    }

    @Test("a damaged page fails the integrity check")
    func damagedPage() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.makeStore(in: directory)
        // Overwrite the header of ZRECIPE's root b-tree page.
        let queue = try DatabaseQueue(path: url.path)
        let (root, pageSize) = try queue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'ZRECIPE'") ?? 0,
                try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
            )
        }
        try queue.close()
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64((root - 1) * pageSize))
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
        try handle.close()
        #expect(throws: UpgradeError.self) {
            try StoreVerification(level: .full).verify(url, model: RecipesHistory.v4)
        }
    }

    /// A journaled step, in place or not, with these drops.
    static func step(_ strategy: StepStrategy, drops: [DroppedData]) -> UpgradeJournal.CompletedStep {
        UpgradeJournal.CompletedStep(
            index: 1,
            report: StepReport(
                from: "Recipes 3", to: "Recipes 4", kind: .inferred, mappingModels: [], entityMappings: [], rows: 0,
                objects: 0, seconds: 0, strategy: strategy, drops: drops),
            output: UpgradeJournal.Checkpoint(
                file: "step-1/store.sqlite", sha256: "", bytes: 0,
                identity: UpgradeJournal.FileIdentity(device: 0, inode: 0, size: 0, modifiedNanoseconds: 0)))
    }

    @Test("the scope: in-place steps skip the page check, and the key check unless rows were removed")
    func scopeFollowsWhatTheStepsDid() {
        let removedRows = DroppedData(entity: "Tag", kind: .entity, reason: .removedFromModel, count: 3)
        let noRows = DroppedData(entity: "Tag", kind: .entity, reason: .removedFromModel, count: 0)
        let values = DroppedData(
            entity: "Chef", property: "training", kind: .attribute, reason: .removedFromModel, count: 9)
        let uncounted = DroppedData(entity: "Tag", kind: .entity, reason: .removedFromModel)
        typealias Scope = StoreVerification.Scope
        #expect(Scope([Self.step(.inPlace, drops: [])]) == .alteredInPlace(rowsRemoved: false))
        #expect(Scope([Self.step(.inPlace, drops: [values, noRows])]) == .alteredInPlace(rowsRemoved: false))
        #expect(Scope([Self.step(.inPlace, drops: [removedRows])]) == .alteredInPlace(rowsRemoved: true))
        #expect(Scope([Self.step(.inPlace, drops: [uncounted])]) == .alteredInPlace(rowsRemoved: true))
        #expect(Scope([Self.step(.inPlace, drops: []), Self.step(.rebuild, drops: [])]) == .rebuilt)
    }

    @Test("a dangling key is found after an in-place step that removed rows, and at the full level")
    func danglingKeyAfterInPlaceRemoval() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.makeStore(in: directory)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: #"DELETE FROM "ZCHEF""#) }
        try queue.close()
        for verification in [
            StoreVerification(level: .quick, scope: .alteredInPlace(rowsRemoved: true)),
            StoreVerification(level: .full, scope: .alteredInPlace(rowsRemoved: false)),
            StoreVerification(level: .quick, scope: .rebuilt),
        ] {
            let error = try #require(throws: UpgradeError.self) {
                try verification.verify(url, model: RecipesHistory.v4)
            }
            #expect("\(error)".contains("1 Recipe.chef keys point to no Chef"), "\(verification.scope)")
        }
        // No row removed: keys kept by an in-place step aren't read again, so this store, with
        // its one dangling key, passes.
        let dangling = try DatabaseQueue(path: url.path).read { db in
            try Int.fetchOne(
                db, sql: #"SELECT COUNT(*) FROM "ZRECIPE" WHERE "ZCHEF" NOT IN (SELECT "Z_PK" FROM "ZCHEF")"#)
        }
        #expect(dangling == 1)
        try StoreVerification(level: .quick, scope: .alteredInPlace(rowsRemoved: false)).verify(
            url, model: RecipesHistory.v4)
    }

    @Test("the schema and metadata are checked whatever the scope")
    func schemaCheckedInPlace() throws {
        let directory = try TemporaryDirectory()
        let url = try Self.makeStore(in: directory)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: #"ALTER TABLE "ZRECIPE" DROP COLUMN "ZNOTES""#) }
        try queue.close()
        let error = try #require(throws: UpgradeError.self) {
            try StoreVerification(level: .quick, scope: .alteredInPlace(rowsRemoved: false))
                .verify(url, model: RecipesHistory.v4)
        }
        #expect("\(error)".contains("its tables differ from 'Recipes 4''s"))
        let other = try TemporaryDirectory()
        let sound = try Self.makeStore(in: other)
        let wrongVersion = try #require(throws: UpgradeError.self) {
            try StoreVerification(level: .quick, scope: .alteredInPlace(rowsRemoved: false))
                .verify(sound, model: RecipesHistory.v3)
        }
        #expect("\(wrongVersion)".contains("entity hashes are not 'Recipes 3''s"))
    }
}

@Suite("the journal's completed steps")
struct JournalCompletedStepTests {
    @Test("a completed step keeps its report as it is, through a save and a load")
    func completedStepRoundTrips() throws {
        var report = StepReport(
            from: "Recipes 2", to: "Recipes 3", kind: .explicit, mappingModels: ["Recipes 2 → Recipes 3"],
            entityMappings: [], rows: 7,
            objects: 20, seconds: 0.5, strategy: .rebuild,
            drops: [
                DroppedData(entity: "Chef", property: "training", kind: .attribute, reason: .removedFromModel, count: 3)
            ])
        report.keptTables = ["ZCUISINE"]
        let step = UpgradeJournal.CompletedStep(
            index: 2, report: report,
            output: UpgradeJournal.Checkpoint(
                file: "step-2/store.sqlite", sha256: "ab", bytes: 4096,
                identity: UpgradeJournal.FileIdentity(device: 1, inode: 2, size: 4096, modifiedNanoseconds: 3)))
        let again = try JSONDecoder().decode(UpgradeJournal.CompletedStep.self, from: try JSONEncoder().encode(step))
        #expect(again == step)
        #expect(again.report == report)
    }
}
