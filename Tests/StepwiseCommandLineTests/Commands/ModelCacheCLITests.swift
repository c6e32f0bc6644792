import Foundation
import GRDB
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `stepwise inspect` and `stepwise plan` on the model every store carries (`Z_MODELCACHE`),
/// through the real executable, on copies of corpus stores.
@Suite("stepwise and the store's own model cache", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct ModelCacheCLITests {
    /// Apple's own stores, the SwiftData and Core Data stores of real-stores/ (none comes with a
    /// model), and Wire stores of two eras. Photos 13 and 15, with derived attributes, are tested apart.
    static let stores: [String] = [
        "real-stores/log2timeline-plaso/test_data/ios/NoteStore.sqlite",
        "real-stores/log2timeline-plaso/test_data/ios/RMAdminStore-Local.sqlite",
        "real-stores/log2timeline-plaso/test_data/macos/knowledgec-10.13.db",
        "real-stores/Karim-ezzedine-CartKit/Tests/CartKitStorageSwiftDataTests/LegacySwiftData/CartKitSwiftData_v1.sqlite",
        "real-stores/Karim-ezzedine-CartKit/Tests/CartKitStorageCoreDataTests/LegacyCoreData/CartStorage_v1.sqlite",
        "real-stores/RhetTbull-PhotoScript/tests/test_libraries/Test-PhotoScript-10.15.7.photoslibrary/database/Photos.sqlite",
        "wire-data-model/stores/store2-49-0.wiredatabase",
        "wire-data-model/stores/store2-96-0.wiredatabase",
    ]

    static func copy(_ path: String, to directory: TemporaryDirectory) throws -> URL {
        try Corpus.required().copyStore(path, to: directory.url)
    }

    @Test(arguments: stores)
    func inspectWithoutModelsReadsTheCachedModelAndMatchesTheMetadata(_ path: String) throws {
        let directory = try TemporaryDirectory()
        let copy = try Self.copy(path, to: directory)
        let before = try Data(contentsOf: copy)
        let result = try CommandRunner().run(["inspect", copy.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        #expect(json["matchedBy"] as? String == "modelCache")
        #expect(json["matchedVersion"] as? String == "\(copy.lastPathComponent)'s model cache")
        let cache = try #require(json["modelCache"] as? [String: Any])
        #expect(cache["matchesMetadata"] as? Bool == true)
        let entities = try #require(cache["entities"] as? [String])
        let hashes = try #require(json["entityHashes"] as? [String: String])
        #expect(entities == hashes.keys.sorted())
        #expect(try Data(contentsOf: copy) == before, "inspect must not write to the store")

        let text = try CommandRunner().run(["inspect", copy.path])
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("Model cache  \(entities.count) entities, its hashes match the metadata"))
        #expect(text.standardOutput.contains("(matched by modelCache)"))
    }

    /// Photos 13 and 15, whose `Asset` (and on 15 `GraphNode`) have a derived attribute: the
    /// cache's hashes, a derived attribute hashed by its expression alone, are the metadata's,
    /// so the cache names the version (issue 24).
    @Test(arguments: ["13.0.1", "15.7.1"])
    func photosCachesWithDerivedAttributesMatchTheMetadata(version: String) throws {
        let directory = try TemporaryDirectory()
        let copy = try Self.copy(
            "real-stores/RhetTbull-PhotoScript/tests/test_libraries/Test-PhotoScript-\(version).photoslibrary/database/Photos.sqlite",
            to: directory)
        let result = try CommandRunner().run(["inspect", copy.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        #expect(json["matchedBy"] as? String == "modelCache")
        let cache = try #require(json["modelCache"] as? [String: Any])
        #expect(cache["matchesMetadata"] as? Bool == true)
        #expect((cache["entities"] as? [String])?.contains("Asset") == true)
        let text = try CommandRunner().run(["inspect", copy.path])
        #expect(text.standardOutput.contains("its hashes match the metadata"))
    }

    @Test func inspectWithModelsReportsTheCacheBesideTheHashMatch() throws {
        let directory = try TemporaryDirectory()
        let copy = try Self.copy("wibosco-migration-example/stores/CoreDataMigration_Example_3.sqlite", to: directory)
        let bundle = try Corpus.required().url(
            "wibosco-migration-example/model/CoreDataMigration_Example.xcdatamodeld")
        let result = try CommandRunner().run(["inspect", copy.path, "--models", bundle.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        #expect(json["matchedBy"] as? String == "hash")
        #expect(json["matchedVersion"] as? String == "CoreDataMigration_Example 3")
        let cache = try #require(json["modelCache"] as? [String: Any])
        #expect(cache["entities"] as? [String] == ["Color", "Post"])
        #expect(cache["matchesMetadata"] as? Bool == true)
    }

    @Test func aStoreWithoutACacheSaysSo() throws {
        let directory = try TemporaryDirectory()
        let copy = try Self.copy("apptentive-ios/stores/ATDataModelv1.sqlite", to: directory)
        let result = try CommandRunner().run(["inspect", copy.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        #expect(json["modelCache"] is NSNull)
        #expect(json["matchedBy"] is NSNull)
        #expect(json["notes"] as? [String] == ["the store has no model cache (Z_MODELCACHE)"])
        let text = try CommandRunner().run(["inspect", copy.path])
        #expect(text.standardOutput.contains("Model cache  none"))
    }

    /// Wibosco's version 3 store, and its bundle without version 3.
    func storeWhoseVersionIsGone(_ directory: TemporaryDirectory) throws -> (store: URL, bundle: URL) {
        let corpus = try Corpus.required()
        let store = try Self.copy("wibosco-migration-example/stores/CoreDataMigration_Example_3.sqlite", to: directory)
        let bundle = directory.path("CoreDataMigration_Example.xcdatamodeld")
        try FileManager.default.copyItem(
            at: corpus.url("wibosco-migration-example/model/CoreDataMigration_Example.xcdatamodeld"), to: bundle)
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("CoreDataMigration_Example 3.xcdatamodel"))
        return (store, bundle)
    }

    @Test func planSaysTheUpgradeStartsFromTheStoresOwnModelCache() throws {
        let directory = try TemporaryDirectory()
        let (store, bundle) = try storeWhoseVersionIsGone(directory)
        let text = try CommandRunner().run(["plan", store.path, "--models", bundle.path])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(
            text.standardOutput.contains(
                "is at 'CoreDataMigration_Example_3.sqlite's model cache' (matched by modelCache)"))
        #expect(text.standardOutput.contains("from the store's own model cache"))
        #expect(
            text.standardOutput.contains(
                "1. CoreDataMigration_Example_3.sqlite's model cache → CoreDataMigration_Example 4  inferred"))

        let json = try CommandRunner().run(["plan", store.path, "--models", bundle.path, "--format", "json"]).json()
        #expect(json["matchedBy"] as? String == "modelCache")
        #expect(json["fromModelCache"] as? Bool == true)
        #expect(json["from"] as? String == "CoreDataMigration_Example_3.sqlite's model cache")
        #expect(json["to"] as? String == "CoreDataMigration_Example 4")

        let inspect = try CommandRunner().run(["inspect", store.path, "--models", bundle.path, "--json"]).json()
        #expect(inspect["matchedBy"] as? String == "modelCache")
    }

    @Test func aTamperedCacheIsRefusedWithAHint() throws {
        let directory = try TemporaryDirectory()
        let (store, bundle) = try storeWhoseVersionIsGone(directory)
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: #"DELETE FROM "Z_MODELCACHE""#)
        }
        let result = try CommandRunner().run(["plan", store.path, "--models", bundle.path])
        #expect(result.status == 3)
        #expect(result.standardError.contains("matches no version in the history"))
        #expect(result.standardError.contains("The store has no model cache (Z_MODELCACHE) to fall back on"))
    }
}
