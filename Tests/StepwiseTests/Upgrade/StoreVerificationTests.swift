import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
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
        #expect(reason == "1 Recipe.chef keys point to no Chef")
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
}
