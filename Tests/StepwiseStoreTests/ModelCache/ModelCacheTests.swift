import Foundation
import GRDB
import StepwiseStore
import StepwiseTestSupport
import Testing

/// Reading `Z_MODELCACHE`: every corpus store's cache inflates to a keyed archive, a store
/// without one says so, and damaged content is a typed error naming the store.
@Suite("ModelCache")
struct ModelCacheTests {
    /// A raw deflate "stored" block (RFC 1951 §3.2.4): no compression, so a test can write one
    /// by hand. BFINAL=1, BTYPE=00, then LEN and its one's complement, little-endian.
    static func storedBlock(_ payload: [UInt8]) -> Data {
        let length = UInt16(payload.count)
        return Data([0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)])
            + Data(payload)
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func everyCorpusStoreWithACacheInflatesToAKeyedArchive() throws {
        let corpus = try Corpus.required()
        var inflated: [String: Int] = [:]
        var withoutCache: [String] = []
        for store in try corpus.realStores() {
            let archive = try store.withCopy { queue, copy in
                try queue.read { db in try ModelCache.archive(in: db, path: copy.path) }
            }
            if let archive {
                #expect(archive.prefix(8) == Data("bplist00".utf8), "\(store.path)")
                inflated[store.path] = archive.count
            } else {
                withoutCache.append(store.path)
            }
        }
        print("ModelCacheTests: \(inflated.count) caches inflated; " + RefusedCorpusInput.report)
        // Sizes python's zlib.decompress(content, -15) gives for the same stores.
        #expect(inflated["real-stores/log2timeline-plaso/test_data/ios/NoteStore.sqlite"] == 59_532)
        #expect(
            inflated[
                "real-stores/RhetTbull-PhotoScript/tests/test_libraries/Test-PhotoScript-15.7.1.photoslibrary/database/Photos.sqlite"
            ] == 349_761)
        #expect(inflated["wibosco-migration-example/stores/CoreDataMigration_Example_1.sqlite"] == 2_033)
        #expect(inflated.keys.filter { $0.hasPrefix("wire-data-model/") }.count >= 40)
        // Apptentive's stores from before iOS 7 have no Z_MODELCACHE table.
        #expect(withoutCache.contains("apptentive-ios/stores/ATDataModelv1.sqlite"))
        #expect(!withoutCache.contains { $0.hasPrefix("real-stores/") })
    }

    @Test func aStoreWithoutTheTableOrWithAnEmptyRowHasNoCache() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            #expect(try ModelCache.archive(in: db, path: "App.sqlite") == nil)
            try db.execute(sql: #"CREATE TABLE "Z_MODELCACHE" ("Z_CONTENT" BLOB)"#)
            #expect(try ModelCache.archive(in: db, path: "App.sqlite") == nil)
            try db.execute(sql: #"INSERT INTO "Z_MODELCACHE" VALUES (NULL), (x'')"#)
            #expect(try ModelCache.archive(in: db, path: "App.sqlite") == nil)
            try db.execute(sql: #"INSERT INTO "Z_MODELCACHE" VALUES (?)"#, arguments: [Self.storedBlock([1, 2, 3])])
            #expect(try ModelCache.archive(in: db, path: "App.sqlite") == Data([1, 2, 3]))
        }
    }

    @Test func bytesThatAreNotDeflateAreATypedErrorNamingTheStore() {
        // BTYPE=11 is reserved: no deflate stream starts 0x07.
        #expect {
            try ModelCache.archive(fromContent: Data([0x07, 0x00, 0x00]), path: "/tmp/App.sqlite")
        } throws: { error in
            guard let error = error as? StoreError, case .notDeflate = error.kind else { return false }
            return error.path == "/tmp/App.sqlite" && error.description.contains("/tmp/App.sqlite")
                && error.caseName == "notDeflate"
        }
        // A stored block whose length and complement disagree.
        #expect(throws: StoreError(path: "App.sqlite", kind: .notDeflate("invalid stored block lengths"))) {
            try ModelCache.archive(fromContent: Data([0x01, 0x03, 0x00, 0x00, 0x00, 1, 2, 3]), path: "App.sqlite")
        }
    }

    @Test(arguments: [0, 1, 5, 50])
    func contentCutOffIsTruncated(keeping count: Int) {
        let content = Self.storedBlock(Array(repeating: 7, count: 100))
        #expect(throws: StoreError(path: "App.sqlite", kind: .modelCacheTruncated)) {
            try ModelCache.archive(fromContent: content.prefix(count), path: "App.sqlite")
        }
    }

    @Test func anOutputPastTheLimitIsRefusedNotGrown() throws {
        let content = Self.storedBlock(Array(repeating: 7, count: 1000))
        #expect(try ModelCache.archive(fromContent: content, path: "App.sqlite", limit: 1000).count == 1000)
        #expect(throws: StoreError(path: "App.sqlite", kind: .tooLarge(limit: 999))) {
            try ModelCache.archive(fromContent: content, path: "App.sqlite", limit: 999)
        }
    }

    @Test func aBombOfZerosStopsAtTheLimit() throws {
        // A fixed-Huffman block repeating one zero byte: 258-byte matches at distance 1, each
        // 8 bits, so 1 KB of input claims about 260 KB. Built bit by bit (RFC 1951 §3.2.6).
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE=01, fixed Huffman
        bits.writeHuffman(0b0011_0000, count: 8)  // literal 0
        for _ in 0..<1000 {
            bits.writeHuffman(0b1100_0101, count: 8)  // length code 285: 258 bytes
            bits.writeHuffman(0, count: 5)  // distance code 0: distance 1
        }
        bits.writeHuffman(0, count: 7)  // end of block (256)
        let content = bits.data
        #expect(try ModelCache.archive(fromContent: content, path: "App.sqlite").count == 1 + 258_000)
        #expect(throws: StoreError(path: "App.sqlite", kind: .tooLarge(limit: 100_000))) {
            try ModelCache.archive(fromContent: content, path: "App.sqlite", limit: 100_000)
        }
    }

    @Test func theCachedModelIsNamedForItsStore() {
        #expect(ModelCache.modelName(forStoreAt: "/data/App.sqlite") == "App.sqlite's model cache")
    }
}

/// Deflate's bit order: data elements least significant bit first, Huffman codes most
/// significant bit first.
private struct BitWriter {
    var data = Data()
    private var bitCount = 0

    mutating func write(_ value: Int, count: Int) {
        for index in 0..<count { append(bit: (value >> index) & 1) }
    }

    mutating func writeHuffman(_ code: Int, count: Int) {
        for index in (0..<count).reversed() { append(bit: (code >> index) & 1) }
    }

    private mutating func append(bit: Int) {
        if bitCount % 8 == 0 { data.append(0) }
        data[data.count - 1] |= UInt8(bit << (bitCount % 8))
        bitCount += 1
    }
}
