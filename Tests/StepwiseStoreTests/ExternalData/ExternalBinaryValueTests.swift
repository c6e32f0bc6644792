import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Core Data's marker encoding of external-storage values (``ExternalBinaryValue``), read
/// from the real Wire stores and through ``ObjectContext``.
@Suite("External binary storage: the column value and the _EXTERNAL_DATA folder")
struct ExternalBinaryValueTests {
    static let uuid = "3CB1E3E3-FC84-44F1-B128-C461F91819F3"

    @Test(
        "A column value is inline bytes, a file reference, or a problem named by its reason",
        arguments: [
            (Data([0x01, 0xFF, 0xD8]), ExternalBinaryValue.inline(Data([0xFF, 0xD8])) as ExternalBinaryValue?),
            (Data([0x01]), .inline(Data())),
            (ExternalBinaryValue.externalColumnValue(fileName: uuid), .external(fileName: uuid)),
            (Data([0x02]) + Data(uuid.utf8), .external(fileName: uuid)),
            (Data([0x02]) + Data("not a uuid".utf8), nil),
            (Data([0x03, 0x00]), nil),
            (Data(), nil),
        ])
    func parsesMarkers(column: Data, expected: ExternalBinaryValue?) {
        switch ExternalBinaryValue.parse(column) {
        case .success(let value): #expect(value == expected)
        case .failure(let problem):
            #expect(expected == nil, "\(problem)")
            #expect(!problem.description.isEmpty)
        }
    }

    @Test("A value written inline is 0x01 then its bytes, and reads back as them")
    func inlineRoundTrip() throws {
        let bytes = Data((0..<300).map { UInt8($0 % 256) })
        let column = ExternalBinaryValue.inlineColumnValue(bytes)
        #expect(column.count == 301)
        #expect(column.first == 0x01)
        #expect(try ExternalBinaryValue.parse(column).get() == .inline(bytes))
    }

    @Test("The folder is .<StoreName>_SUPPORT/_EXTERNAL_DATA beside the store, the extension dropped")
    func folderBesideTheStore() {
        let folder = ExternalDataFolder(store: URL(fileURLWithPath: "/data/Library/Model.sqlite"))
        #expect(folder.url.path == "/data/Library/.Model_SUPPORT/_EXTERNAL_DATA")
        #expect(folder.supportDirectory.path == "/data/Library/.Model_SUPPORT")
        #expect(folder.file(named: Self.uuid).lastPathComponent == Self.uuid)
    }

    /// store1-24's columns of attributes with allowsExternalBinaryDataStorage.
    static let wireColumns = [
        ("ZUSER", "ZIMAGEMEDIUMDATA"), ("ZUSER", "ZIMAGESMALLPROFILEDATA"), ("ZMESSAGE", "ZMEDIUMDATA"),
    ]

    @Test(
        "Wire's real values: every one has a marker; Z_PK 1's image is a reference, Z_PK 6's an inline JPEG",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func wireStoreValues() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory(prefix: "stepwise-external")
        let copy = try corpus.copyStore("wire-data-model/stores/store1-24.wiredatabase", to: directory.url)
        let queue = try DatabaseQueue(path: copy.path)
        defer { try? queue.close() }
        try queue.read { db in
            var external = 0
            for (table, column) in Self.wireColumns {
                let values = try Data.fetchCursor(
                    db,
                    sql:
                        "SELECT \(column.quotedDatabaseIdentifier) FROM \(table.quotedDatabaseIdentifier) WHERE \(column.quotedDatabaseIdentifier) IS NOT NULL"
                )
                while let value = try values.next() {
                    let parsed = try ExternalBinaryValue.parse(value).get()
                    if case .external = parsed { external += 1 }
                }
            }
            #expect(external >= 8)
            let referenced = try #require(
                try Data.fetchOne(db, sql: #"SELECT "ZIMAGEMEDIUMDATA" FROM "ZUSER" WHERE "Z_PK" = 1"#))
            #expect(referenced.count == 38)
            #expect(referenced == ExternalBinaryValue.externalColumnValue(fileName: Self.uuid))
            #expect(try ExternalBinaryValue.parse(referenced).get() == .external(fileName: Self.uuid))
            let inline = try #require(
                try Data.fetchOne(db, sql: #"SELECT "ZIMAGEMEDIUMDATA" FROM "ZUSER" WHERE "Z_PK" = 6"#))
            guard case .inline(let jpeg) = try ExternalBinaryValue.parse(inline).get() else {
                Issue.record("Z_PK 6 isn't inline")
                return
            }
            #expect(jpeg.count == 31_321)
            #expect(Array(jpeg.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE0])
            let messages = try Int.fetchOne(
                db, sql: #"SELECT COUNT(*) FROM "ZMESSAGE" WHERE substr("ZMEDIUMDATA", 1, 1) = x'02'"#)
            #expect(messages == 7)
        }
        // Through an object context, with Wire's file put where Core Data keeps it: the
        // reference reads as the file's bytes, the inline value as the JPEG.
        let folder = ExternalDataFolder(store: copy)
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let photo = Data("the photo's bytes".utf8)
        try photo.write(to: folder.file(named: Self.uuid))
        try queue.read { db in
            let value = try folder.bytes(
                of: try #require(
                    try DatabaseValue.fetchOne(
                        db, sql: #"SELECT "ZIMAGEMEDIUMDATA" FROM "ZUSER" WHERE "Z_PK" = 1"#)),
                storePath: copy.path, entity: "User", attribute: "imageMediumData", primaryKey: 1)
            #expect(value == photo.databaseValue)
        }
        try FileManager.default.removeItem(at: folder.file(named: Self.uuid))
        try queue.read { db in
            let column = try #require(
                try DatabaseValue.fetchOne(db, sql: #"SELECT "ZIMAGEMEDIUMDATA" FROM "ZUSER" WHERE "Z_PK" = 1"#))
            let error = #expect(throws: StoreError.self) {
                try folder.bytes(
                    of: column, storePath: copy.path, entity: "User", attribute: "imageMediumData", primaryKey: 1)
            }
            let text = error?.description ?? ""
            #expect(text.contains(copy.path))
            #expect(text.contains("User.imageMediumData"))
            #expect(text.contains("Z_PK 1"))
            #expect(text.contains(folder.file(named: Self.uuid).path))
            #expect(text.contains("is missing"))
        }
    }

    static let model = ObjectModel("Photos") {
        Entity("Photo") {
            Attribute("name", .string)
            Attribute("image", .binary).externalStorage()
            Attribute("raw", .binary)
        }
    }

    @Test("An object context reads the real bytes and writes them inline; a plain Binary stays raw")
    func objectContextDecodesAndEncodes() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-external")
        let store = directory.path("Photos.sqlite")
        try StoreCreator.createStore(at: store, model: Self.model)
        let layout = try StoreLayout(model: Self.model)
        let folder = ExternalDataFolder(store: store)
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let fileBytes = Data(repeating: 7, count: 2_000)
        try fileBytes.write(to: folder.file(named: Self.uuid))
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        let written = Data([0x02, 0x41])
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            let first = try objects.insert("Photo", ["name": "inline", "image": written, "raw": written])
            let second = try objects.insert("Photo", ["name": "file"])
            try db.execute(
                sql: #"UPDATE "ZPHOTO" SET "ZIMAGE" = ? WHERE "Z_PK" = ?"#,
                arguments: [ExternalBinaryValue.externalColumnValue(fileName: Self.uuid), second.primaryKey])
            // Stored: the marker before the bytes; the plain Binary as given.
            let row = try #require(
                try Row.fetchOne(
                    db, sql: #"SELECT "ZIMAGE", "ZRAW" FROM "ZPHOTO" WHERE "Z_PK" = ?"#,
                    arguments: [first.primaryKey]))
            #expect(row[0] as Data? == Data([0x01, 0x02, 0x41]))
            #expect(row[1] as Data? == written)
            // Read: the real bytes, whichever way they're kept.
            #expect(try objects.object(first).data("image") == written)
            #expect(try objects.object(first).data("raw") == written)
            #expect(try objects.object(second).data("image") == fileBytes)
            let all = try objects.fetch("Photo")
            #expect(all.map { $0.data("image") } == [written, fileBytes])
        }
    }
}
