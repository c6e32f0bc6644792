import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

/// `NSStoreModelVersionHashesDigest` and `NSStoreModelVersionChecksumKey` as Core Data computes
/// them (``ModelVersionDigest``): reproduced from the entity hashes for every store and every
/// compiled model of the corpus that records them, and written fresh, never carried over.
@Suite("Metadata digest and checksum")
struct MetadataDigestCorpusTests {
    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func everyRecordedDigestAndChecksumIsReproducedFromTheStoresHashes() throws {
        let corpus = try Corpus.required()
        var digests = 0
        var checksums = 0
        for store in try corpus.realStores() {
            let plist = try store.withCopy { queue, _ in
                try queue.read { db in
                    try Data.fetchOne(db, sql: #"SELECT "Z_PLIST" FROM "Z_METADATA" WHERE "Z_VERSION" = 1"#)
                }
            }
            let data = try #require(plist, "\(store.path)")
            let list = try #require(
                try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
            let hashes = store.metadata.versionHashes
            if let digest = list[StoreMetadata.hashesDigestKey] as? String {
                #expect(digest == ModelVersionDigest.hashesDigest(hashes), "\(store.path)")
                digests += 1
            }
            if let checksum = list[StoreMetadata.versionChecksumKey] as? String {
                #expect(checksum == ModelVersionDigest.versionChecksum(hashes), "\(store.path)")
                checksums += 1
            }
        }
        print("MetadataDigestCorpusTests: \(digests) digests and \(checksums) checksums reproduced")
        // Core Data writes the digest from 977 and the checksum from 1333.
        #expect(digests >= 24)
        #expect(checksums >= 6)
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func everyCompiledModelsChecksumIsReproducedFromItsHashes() throws {
        let corpus = try Corpus.required()
        var compared = 0
        for folder in try Self.versionInfoFolders(in: corpus) {
            let info = try VersionInfo(inFolder: folder)
            for (version, checksum) in info.checksums {
                let hashes = try #require(info.hashes[version], "\(folder.path): \(version)")
                #expect(checksum == ModelVersionDigest.versionChecksum(hashes), "\(folder.path): \(version)")
                compared += 1
            }
        }
        print("MetadataDigestCorpusTests: \(compared) VersionInfo.plist checksums reproduced")
        // CartKit's and SampleModel3's compiled models record them (Xcode 15 and later).
        #expect(compared >= 2)
    }

    @Test func writtenMetadataCarriesTheDigestAndChecksumOfItsOwnHashes() throws {
        let source = StoreMetadata(
            versionHashes: ["A": Data(repeating: 1, count: 32)], versionIdentifiers: [""], storeUUID: "U",
            additionalEntries: [
                StoreMetadata.hashesDigestKey: "stale digest", StoreMetadata.versionChecksumKey: "stale checksum",
                "app.key": "kept",
            ])
        let queue = try DatabaseQueue()
        try queue.write { db in try source.write(to: db, path: "S.sqlite") }
        var metadata = try queue.read { db in try StoreMetadata.read(from: db, path: "S.sqlite") }
        // Read back, the derived keys are not among the kept ones: a later write can't carry them.
        #expect(metadata.additionalEntries[StoreMetadata.hashesDigestKey] == nil)
        #expect(metadata.additionalEntries["app.key"] == "kept")
        metadata.versionHashes = ["A": Data(repeating: 2, count: 32), "B": Data(repeating: 3, count: 32)]
        #expect(
            metadata.propertyList[StoreMetadata.hashesDigestKey]
                == .string(ModelVersionDigest.hashesDigest(metadata.versionHashes)))
        #expect(
            metadata.propertyList[StoreMetadata.versionChecksumKey]
                == .string(ModelVersionDigest.versionChecksum(metadata.versionHashes)))
        #expect(metadata.propertyList[StoreMetadata.hashesDigestKey] != "stale digest")
    }

    @Test func aNewStoresMetadataNamesTheNewestRelease() {
        let metadata = StoreMetadata(model: ObjectModel("M", entities: [Entity("A")]))
        #expect(metadata.release == .newest)
        #expect(
            metadata.propertyList[StoreMetadata.frameworkVersionKey] == .int(CoreDataRelease.newest.frameworkVersion))
    }

    /// Every folder of the corpus with a `VersionInfo.plist`: `compiled/` and DuckDuckGo's archive.
    private static func versionInfoFolders(in corpus: Corpus) throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: corpus.root, includingPropertiesForKeys: nil)
        var folders: [URL] = []
        while let url = enumerator?.nextObject() as? URL {
            if url.lastPathComponent == VersionInfo.fileName { folders.append(url.deletingLastPathComponent()) }
        }
        return folders.sorted { $0.path < $1.path }
    }
}
