import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@Suite("StoreMetadata")
struct StoreMetadataTests {
    /// NSPersistenceFrameworkVersion per store (corpus README §4.2).
    private static let frameworkVersions: [String: Int] = [
        "v1": 419, "v2": 419, "v3": 419, "v4": 479, "v5": 519, "v6": 754, "2W": 479, "3W": 479, "2C": 479,
        "M1": 637, "M2": 637, "M3": 637, "M4": 637, "M5": 637, "W1": 847, "W2": 847, "W3": 847, "WW": 847,
    ]

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CorpusStore.all)
    func readsTheMetadataOfEveryCorpusStore(_ store: CorpusStore) throws {
        let corpus = try Corpus.required()
        let metadata = try store.metadata(in: corpus)
        let model = try corpus.model(of: store)

        #expect(metadata.storeType == "SQLite")
        #expect(metadata.hashesVersion == 3)
        #expect(metadata.modelVersionName == nil)
        #expect(
            metadata.additionalEntries["NSPersistenceFrameworkVersion"]
                == .int(Self.frameworkVersions[store.shortName] ?? -1))
        #expect(metadata.additionalEntries[StoreMetadata.autoVacuumLevelKey] == "2")
        #expect(metadata.versionHashes.count == model.entities.count)
        #expect(metadata.versionHashes.values.allSatisfy { $0.count == 32 })
        if store.shortName == "2C" {
            // Hashes of version 3 over tables of version 2.
            #expect(store.hashVersion == "ATDataModel 3")
            #expect(metadata.versionHashes == (try corpus.hashModel(of: store)).entityVersionHashes)
        } else {
            #expect(metadata.versionHashes == model.entityVersionHashes)
        }
        switch store.shortName {
        case "M1":
            #expect(metadata.versionIdentifiers == [""])
        case "M2", "M3", "M4", "M5":
            #expect(metadata.versionIdentifiers == [String(store.shortName.dropFirst())])
        default:
            #expect(metadata.versionIdentifiers == [""])
        }
        if store.shortName.hasPrefix("M") {
            #expect(metadata.storeUUID == "374C5961-3E41-43E5-915C-383EA914074C")
            #expect(metadata.additionalEntries["io.objc.Moody.CloudKitUserID"]?.stringValue?.isEmpty == false)
        } else {
            #expect(metadata.additionalEntries["io.objc.Moody.CloudKitUserID"] == nil)
            #expect(UUID(uuidString: metadata.storeUUID) != nil)
        }
        if store.shortName == "W2" {
            #expect(metadata.storeUUID == "D5151864-19A8-4014-AEC0-0DD1501E4140")
        }
        // Typed keys are not duplicated among the others.
        #expect(metadata.additionalEntries[StoreMetadata.versionHashesKey] == nil)
        #expect(metadata.additionalEntries[StoreMetadata.storeTypeKey] == nil)
    }

    @Test(
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"),
        arguments: CorpusStore.all.filter { ["2W", "3W", "WW"].contains($0.shortName) })
    func walStoresKeepTheirMetadataInTheMainFile(_ store: CorpusStore) throws {
        let corpus = try Corpus.required()
        let withWAL = try store.metadata(in: corpus)
        // Copy the main file alone: its rows of Z_METADATA must not depend on the -wal.
        let directory = try TemporaryDirectory()
        let url = directory.path("main-only.sqlite")
        try FileManager.default.copyItem(at: corpus.url(store), to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        let dbQueue = try DatabaseQueue(path: url.path)
        defer { try? dbQueue.close() }
        let mainOnly = try dbQueue.read { db in try StoreMetadata.read(from: db, path: url.path) }
        #expect(mainOnly == withWAL)
        #expect(mainOnly.versionHashes.count == (store.shortName == "WW" ? 2 : 11))
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CorpusStore.all)
    func writingBackGivesTheSamePropertyList(_ store: CorpusStore) throws {
        let corpus = try Corpus.required()
        let (original, originalList) = try store.withCopy(in: corpus) { dbQueue, url in
            try dbQueue.read { db in
                let metadata = try StoreMetadata.read(from: db, path: url.path)
                let data = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
                return (metadata, try Self.decode(data))
            }
        }
        let dbQueue = try DatabaseQueue()
        let (reread, rewrittenList) = try dbQueue.write { db in
            try original.write(to: db, path: ":memory:")
            let data = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
            return (try StoreMetadata.read(from: db, path: ":memory:"), try Self.decode(data))
        }
        #expect(reread == original)
        // Every key Core Data wrote comes back with its value. Only the digest and the checksum
        // are added where the store had none (Core Data before 977 and 1333): they are computed
        // from the hashes, as Core Data computes them on its next save.
        guard case .dictionary(var expected) = originalList, case .dictionary(let rewritten) = rewrittenList else {
            Issue.record("Z_PLIST is not a dictionary")
            return
        }
        expected[StoreMetadata.hashesDigestKey] = .string(ModelVersionDigest.hashesDigest(original.versionHashes))
        expected[StoreMetadata.versionChecksumKey] = .string(
            ModelVersionDigest.versionChecksum(original.versionHashes))
        #expect(rewritten == expected)
    }

    private static func decode(_ data: Data?) throws -> PropertyListValue? {
        let object = try PropertyListSerialization.propertyList(from: data ?? Data(), options: [], format: nil)
        return PropertyListValue(foundationValue: object)
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func roundTripKeepsEveryKey() throws {
        let corpus = try Corpus.required()
        let original = try CorpusStore.named("M2").metadata(in: corpus)
        let directory = try TemporaryDirectory()
        let dbQueue = try DatabaseQueue(path: directory.path("fresh.sqlite").path)
        defer { try? dbQueue.close() }
        let path = directory.path("fresh.sqlite").path
        try dbQueue.write { db in try original.write(to: db, path: path) }
        let reread = try dbQueue.read { db in try StoreMetadata.read(from: db, path: path) }
        #expect(reread == original)
        #expect(
            reread.additionalEntries["io.objc.Moody.CloudKitUserID"]
                == original.additionalEntries["io.objc.Moody.CloudKitUserID"])
        #expect(reread.additionalEntries["NSPersistenceFrameworkVersion"] == 637)
        #expect(Set(reread.propertyList.keys) == Set(original.propertyList.keys))

        // Writing again replaces the row instead of adding one.
        var changed = reread
        changed.modelVersionName = "Moody 2"
        changed.additionalEntries["app.flag"] = true
        try dbQueue.write { db in try changed.write(to: db, path: path) }
        let rows = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM Z_METADATA") }
        #expect(rows == 1)
        let final = try dbQueue.read { db in try StoreMetadata.read(from: db, path: path) }
        #expect(final.modelVersionName == "Moody 2")
        #expect(final.additionalEntries["app.flag"] == .bool(true))
    }

    @Test func metadataForAModelVersion() throws {
        let model = ObjectModel("Notes 2", versionIdentifiers: ["2"]) {
            Entity("Note") { Attribute("text", .string) }
        }
        let metadata = StoreMetadata(model: model, uuid: "1B4E28BA-2FA1-11D2-883F-0016D3CCA427")
        #expect(metadata.versionHashes == model.entityVersionHashes)
        #expect(metadata.versionIdentifiers == ["2"])
        #expect(metadata.storeType == "SQLite")
        #expect(metadata.storeUUID == "1B4E28BA-2FA1-11D2-883F-0016D3CCA427")
        #expect(metadata.hashesVersion == 3)
        #expect(metadata.modelVersionName == "Notes 2")
        #expect(metadata.additionalEntries == ["_NSAutoVacuumLevel": "2", "NSPersistenceFrameworkVersion": 1523])
        #expect(metadata.propertyList["StepwiseModelVersionName"] == "Notes 2")
        #expect(metadata.propertyList[StoreMetadata.storeUUIDKey] == nil)
        #expect(StoreMetadata(model: ObjectModel("Plain", entities: [])).versionIdentifiers == [""])
    }

    @Test func propertyListValuesSurviveBinaryEncoding() throws {
        let metadata = StoreMetadata(
            versionHashes: ["A": Data(repeating: 7, count: 32)], versionIdentifiers: ["1", "x"], storeUUID: "U",
            additionalEntries: [
                "int": 0, "one": 1, "bool": false, "true": true, "double": 2.5, "string": "2",
                "data": .data(Data([0, 1])),
                "date": .date(Date(timeIntervalSinceReferenceDate: 12.5)), "array": [1, "a", [true]],
                "dictionary": ["nested": ["deeper": 3]],
            ])
        let dbQueue = try DatabaseQueue()
        let reread = try dbQueue.write { db in
            try metadata.write(to: db, path: ":memory:")
            return try StoreMetadata.read(from: db, path: ":memory:")
        }
        #expect(reread == metadata)
        #expect(reread.additionalEntries["one"] == .int(1))
        #expect(reread.additionalEntries["true"] == .bool(true))
        #expect(reread.additionalEntries["int"] == .int(0))
        #expect(reread.additionalEntries["bool"] == .bool(false))
        #expect(try metadata.encodedPropertyList().prefix(8) == Data("bplist00".utf8))
    }

    /// The same metadata gives the same Z_PLIST bytes, however its dictionaries were built:
    /// PropertyListSerialization wrote entries in the dictionary's iteration order, which
    /// changed with insertion order, capacity and (across runs) Swift's hash seed.
    @Test func theSameMetadataEncodesToTheSameBytes() throws {
        var forward: [String: Data] = [:]
        var backward: [String: Data] = [:]
        backward.reserveCapacity(256)
        for index in 0..<24 { forward["Entity\(index)"] = Data(repeating: UInt8(index), count: 32) }
        for index in (0..<24).reversed() { backward["Entity\(index)"] = Data(repeating: UInt8(index), count: 32) }
        var extraForward: [String: PropertyListValue] = [:]
        var extraBackward: [String: PropertyListValue] = [:]
        extraBackward.reserveCapacity(256)
        let extras: [(String, PropertyListValue)] = (0..<16).map {
            ("key\($0)", ["n": .int($0), "s": .string("\($0)")])
        }
        for (key, value) in extras { extraForward[key] = value }
        for (key, value) in extras.reversed() { extraBackward[key] = value }
        let one = StoreMetadata(
            versionHashes: forward, versionIdentifiers: ["1"], storeUUID: "U", additionalEntries: extraForward)
        let other = StoreMetadata(
            versionHashes: backward, versionIdentifiers: ["1"], storeUUID: "U", additionalEntries: extraBackward)
        #expect(one == other)
        let bytes = try one.encodedPropertyList()
        #expect(try other.encodedPropertyList() == bytes)
        #expect(try one.encodedPropertyList() == bytes)
        // And they read back as the same metadata.
        let decoded = try PropertyListSerialization.propertyList(from: bytes, options: [], format: nil)
        #expect(PropertyListValue(foundationValue: decoded) == .dictionary(one.propertyList))
    }

    @Test func missingTableIsReported() throws {
        let dbQueue = try DatabaseQueue()
        let error = try #require(throws: StoreError.self) {
            try dbQueue.read { db in try StoreMetadata.read(from: db, path: "/tmp/x.sqlite") }
        }
        #expect(error.kind == .missingMetadataTable)
        #expect(error.path == "/tmp/x.sqlite")
    }

    /// Found by `Scripts/fuzz metadata`: on Linux, PropertyListSerialization crashed the process
    /// on a binary property list holding a set (a mutated Moody store's `Z_PLIST`, whose top-level
    /// dictionary marker became a set's). Both reads now refuse it.
    @Test(
        "A Z_PLIST holding a set is invalid metadata, not a crash",
        arguments: [
            // The fuzzer's input: Core Data's keys and values, in a set instead of a dictionary.
            "YnBsaXN0MDDGAQIDBAUGBwkKCw4HXxAeTlNTdG9yZU1vZGVsVmVyc2lvbklkZW50aWZpZXJzW05TU3RvcmVUeXBlXxASX05TQXV0b1ZhY3V1"
                + "bUxldmVsXxAZTlNTdG9yZU1vZGVsVmVyc2lvbkhhc2hlc18QHU5TUGVyc2lzdGVuY2VGcmFtZXdvcmtWZXJzaW9uXxAgTlNTdG9yZU1vZGVs"
                + "VmVyc2lvbkhhc2hlc1ZlcnNpb26hCFBWU1FMaXRlUTLRDA1UUG9zdE8QIH8WUHRnvuHTe4wBKCqMqafhQTRPveBqxygCEdSXMfsSEQNPEAMI"
                + "FTZCV3OTtri5wMLFyu3wAAAAAAAAAQEAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAPI=",
            // {"NSStoreType": {"SQLite"}}: a set as a value.
            "YnBsaXN0MDDRAQJbTlNTdG9yZVR5cGXBA1ZTUUxpdGUICxcZAAAAAAAAAQEAAAAAAAAABAAAAAAAAAAAAAAAAAAAACA=",
        ])
    func setInPropertyListIsInvalidMetadata(_ base64: String) throws {
        let plist = try #require(Data(base64Encoded: base64))
        let directory = try TemporaryDirectory()
        let url = directory.path("set.sqlite")
        let dbQueue = try DatabaseQueue(path: url.path)
        try dbQueue.write { db in
            try db.execute(sql: StoreLayout.metadataTable.createStatement)
            try db.execute(
                sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, 'U', ?)", arguments: [plist])
        }
        let error = try #require(throws: StoreError.self) {
            try dbQueue.read { db in try StoreMetadata.read(from: db, path: url.path) }
        }
        try dbQueue.close()
        #expect(error.kind == .invalidMetadata("Z_PLIST is not a dictionary of property-list values (it holds a set)"))
        #expect(error.path == url.path)
        // The immutable read of an app's launch check answers "unknown" the same way.
        #expect(StoreMetadata.readFromMainFile(at: url) == nil)
    }

    @Test(arguments: [
        ("no row", nil as Data?, "Z_METADATA has no row for version 1"),
        ("garbage", Data("not a plist at all".utf8), "Z_PLIST is not a property list"),
        ("empty blob", Data(), "Z_PLIST is not a property list"),
    ])
    func unreadableMetadataIsInvalid(_ label: String, _ plist: Data?, _ reason: String) throws {
        let dbQueue = try DatabaseQueue()
        let error = try #require(throws: StoreError.self) {
            try dbQueue.write { db in
                try db.execute(sql: StoreLayout.metadataTable.createStatement)
                if let plist {
                    try db.execute(
                        sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, 'U', ?)",
                        arguments: [plist])
                }
                return try StoreMetadata.read(from: db, path: "s.sqlite")
            }
        }
        #expect(error.kind == .invalidMetadata(reason), "\(label)")
    }

    @Test func nullPropertyListIsInvalid() throws {
        let dbQueue = try DatabaseQueue()
        let error = try #require(throws: StoreError.self) {
            try dbQueue.write { db in
                try db.execute(sql: StoreLayout.metadataTable.createStatement)
                try db.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, 'U', NULL)")
                return try StoreMetadata.read(from: db, path: "s.sqlite")
            }
        }
        #expect(error.kind == .invalidMetadata("Z_PLIST is NULL"))
    }

    /// A property list and the reason it is rejected.
    struct BadShape: Sendable, CustomStringConvertible {
        var entries: [String: PropertyListValue]
        var reason: String
        var description: String { reason }
    }

    static let badShapes: [BadShape] = {
        let type: [String: PropertyListValue] = ["NSStoreType": "SQLite"]
        let typeAndHashes = type.merging(["NSStoreModelVersionHashes": .dictionary([:])]) { $1 }
        return [
            BadShape(entries: type, reason: "NSStoreModelVersionHashes is missing"),
            BadShape(
                entries: type.merging(["NSStoreModelVersionHashes": ["A": "text"]]) { $1 },
                reason: "the version hash of entity 'A' is not data"),
            BadShape(
                entries: type.merging(["NSStoreModelVersionHashes": [1, 2]]) { $1 },
                reason: "NSStoreModelVersionHashes is not a dictionary"),
            BadShape(entries: ["NSStoreModelVersionHashes": .dictionary([:])], reason: "NSStoreType is missing"),
            BadShape(
                entries: typeAndHashes.merging(["NSStoreType": 1]) { $1 }, reason: "NSStoreType is not a string"),
            BadShape(
                entries: typeAndHashes.merging(["NSStoreModelVersionIdentifiers": "1"]) { $1 },
                reason: "NSStoreModelVersionIdentifiers is not an array"),
            BadShape(
                entries: typeAndHashes.merging(["NSStoreModelVersionHashesVersion": "3"]) { $1 },
                reason: "NSStoreModelVersionHashesVersion is not an integer"),
        ]
    }()

    @Test(arguments: badShapes)
    func wronglyShapedMetadataIsInvalid(_ shape: BadShape) throws {
        let reason = shape.reason
        let data = try PropertyListSerialization.data(
            fromPropertyList: shape.entries.mapValues(\.foundationValue), format: .binary, options: 0)
        let dbQueue = try DatabaseQueue()
        let error = try #require(throws: StoreError.self) {
            try dbQueue.write { db in
                try db.execute(sql: StoreLayout.metadataTable.createStatement)
                try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, 'U', ?)", arguments: [data])
                return try StoreMetadata.read(from: db, path: "s.sqlite")
            }
        }
        #expect(error.kind == .invalidMetadata(reason))
        #expect(error.description.contains("s.sqlite has unreadable metadata: \(reason)"))
    }
}
