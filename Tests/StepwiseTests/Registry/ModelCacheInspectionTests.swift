import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// The model every corpus store carries in `Z_MODELCACHE`, decoded: its hashes, computed by
/// Stepwise's Core Data hashing, are the store's metadata's, for Apple's own stores (Notes,
/// Photos, Screen Time, knowledgeC), the SwiftData store and every project store.
@Suite("Inspecting a store's own model cache")
struct ModelCacheInspectionTests {
    static let photos = "real-stores/RhetTbull-PhotoScript/tests/test_libraries/Test-PhotoScript-"
    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func everyCorpusStoresCacheMatchesItsMetadata() throws {
        let corpus = try Corpus.required()
        var matched: [String] = []
        var mismatched: [String] = []
        var withoutCache: [String] = []
        var storesWithoutCacheByRelease: [CoreDataRelease] = []
        for store in try corpus.realStores() {
            let inspection = try store.withCopy { _, copy in try StoreInspection.inspect(storeAt: copy) }
            guard let cache = inspection.modelCache else {
                withoutCache.append("\(store.path): \(inspection.notes.joined(separator: "; "))")
                storesWithoutCacheByRelease.append(store.metadata.release)
                continue
            }
            #expect(!cache.entities.isEmpty, "\(store.path)")
            if cache.matchesMetadata {
                matched.append(store.path)
                #expect(inspection.matchedBy == "modelCache", "\(store.path)")
                #expect(inspection.matchedVersion == ModelCache.modelName(forStoreAt: store.url.path))
                #expect(cache.entities == inspection.entityHashes.keys.sorted(), "\(store.path)")
            } else {
                mismatched.append("\(store.path): \(cache.entitiesWithOtherHashes.prefix(4).joined(separator: ", "))")
                #expect(inspection.matchedBy == nil)
            }
        }
        print(
            "ModelCacheInspectionTests: \(matched.count) caches match their metadata, \(mismatched.count) don't:\n  "
                + mismatched.joined(separator: "\n  ") + "\nwithout a cache:\n  "
                + withoutCache.joined(separator: "\n  ") + "\n" + RefusedCorpusInput.report)
        // Every cache matches, Photos 13's and 15's with derived attributes included
        // (`Asset.derivedCameraCaptureDevice`, `GraphNode.primaryLabelCode`, issue 24).
        #expect(mismatched == [])
        // Not vacuous: Apple's stores, the SwiftData store and Wire's are all among them.
        for path in [
            "real-stores/log2timeline-plaso/test_data/ios/NoteStore.sqlite",
            "real-stores/log2timeline-plaso/test_data/ios/RMAdminStore-Local.sqlite",
            "real-stores/log2timeline-plaso/test_data/macos/knowledgec-10.13.db",
            "real-stores/Karim-ezzedine-CartKit/Tests/CartKitStorageSwiftDataTests/LegacySwiftData/CartKitSwiftData_v1.sqlite",
            "real-stores/Karim-ezzedine-CartKit/Tests/CartKitStorageCoreDataTests/LegacyCoreData/CartStorage_v1.sqlite",
            "\(Self.photos)10.15.7.photoslibrary/database/Photos.sqlite",
            "\(Self.photos)13.0.1.photoslibrary/database/Photos.sqlite",
            "\(Self.photos)15.7.1.photoslibrary/database/Photos.sqlite",
            "compiled/alemar11-CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3_V1.sqlite",
        ] {
            #expect(matched.contains(path), "\(path)")
        }
        #expect(matched.filter { $0.hasPrefix("wire-data-model/") }.count >= 40)
        // Only stores of releases before iOS 7's Core Data have no Z_MODELCACHE: every store of
        // 519 or earlier (Apptentive v1 to v5, 2W, 3W and 2C; Artsy's 1.3 to 2.0 at 419 and 479),
        // none of 637 or later (Apptentive v6 at 754 has one). Every other store's cache is read,
        // Photos 10.15's (with user info Xcode can't write) included.
        #expect(withoutCache.filter { $0.hasPrefix("apptentive-ios/") }.count == 8)
        #expect(withoutCache.count == storesWithoutCacheByRelease.count)
        #expect(storesWithoutCacheByRelease.allSatisfy { $0.frameworkVersion <= 519 })
        #expect(withoutCache.allSatisfy { $0.hasSuffix("has no model cache (Z_MODELCACHE)") })
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func withABundleTheCacheIsReportedBesideTheHashMatch() throws {
        let corpus = try Corpus.required()
        let store = try #require(
            try corpus.realStores().first { $0.path.hasPrefix("wire-data-model/") && $0.version != nil })
        let bundle = try #require(store.bundle)
        let history = try ModelBundle(contentsOf: bundle).history
        let inspection = try store.withCopy { _, copy in try StoreInspection.inspect(storeAt: copy, history: history) }
        #expect(inspection.matchedBy == "hash")
        #expect(inspection.matchedVersion == store.version?.name)
        #expect(inspection.modelCache?.matchesMetadata == true)
        #expect(inspection.modelCache?.entities == store.version?.entities.map(\.name).sorted())
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func aStoreWithoutACacheSaysSoWithoutAnError() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(CorpusStore.all[0], to: directory.url)
        let inspection = try StoreInspection.inspect(storeAt: copy)
        #expect(inspection.modelCache == nil)
        #expect(inspection.matchedBy == nil)
        #expect(inspection.notes == ["the store has no model cache (Z_MODELCACHE)"])
    }
}
