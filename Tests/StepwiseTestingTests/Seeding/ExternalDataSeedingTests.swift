import Foundation
import GRDB
import Stepwise
import StepwiseStore
import StepwiseTesting
import Testing

/// Seeded stores and the matrix with external-storage attributes: seeds are written as Core
/// Data writes an inline value (``ExternalBinaryValue``), and every upgrade path compares the
/// real bytes.
@Suite("Seeding and the matrix: external binary storage")
struct ExternalDataSeedingTests {
    static let v1 = ObjectModel("Album") {
        Entity("Picture") {
            Attribute("title", .string)
            Attribute("image", .binary).externalStorage()
            Attribute("notes", .binary)
        }
    }
    static let v2 = ObjectModel("Album 2") {
        Entity("Picture") {
            Attribute("title", .string)
            Attribute("image", .binary)
            Attribute("notes", .binary).externalStorage()
        }
    }
    static let v3 = ObjectModel("Album 3") {
        Entity("Picture") {
            Attribute("title", .string)
            Attribute("image", .binary).externalStorage()
            Attribute("caption", .string)
        }
    }
    static let history = VersionHistory([v1, v2, v3])

    @Test("A seeded store writes every external-storage value with the inline marker, other Binary values raw")
    func seededValuesCarryTheMarker() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-external-seed")
        let store = directory.path("Album.sqlite")
        try SeededStore.create(at: store, model: Self.v1, rows: 20)
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        let (images, marked, notes, rawNotes) = try queue.read { db in
            (
                try Int.fetchOne(db, sql: #"SELECT COUNT("ZIMAGE") FROM "ZPICTURE""#) ?? -1,
                try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "ZPICTURE" WHERE substr("ZIMAGE", 1, 1) = x'01'"#)
                    ?? -1,
                try Int.fetchOne(db, sql: #"SELECT COUNT("ZNOTES") FROM "ZPICTURE""#) ?? -1,
                try Data?.fetchAll(db, sql: #"SELECT "ZNOTES" FROM "ZPICTURE" ORDER BY "Z_PK""#)
            )
        }
        #expect(images > 0)
        #expect(marked == images)
        // The same seed for a plain Binary: the bytes without a marker, read back equal.
        #expect(notes > 0)
        let decoded = try queue.read { db in
            try ObjectContext(db, layout: StoreLayout(model: Self.v1)).fetch("Picture").map { $0.data("image") }
        }
        let rawImages = try queue.read { db in
            try Data?.fetchAll(db, sql: #"SELECT "ZIMAGE" FROM "ZPICTURE" ORDER BY "Z_PK""#)
        }
        #expect(decoded == rawImages.map { $0.map { Data($0.dropFirst()) } })
        #expect(rawNotes.count == 20)
    }

    @Test("Every upgrade path of a history that moves values in and out of external storage passes the matrix")
    func matrixPasses() throws {
        let matrix = try UpgradeMatrix(history: Self.history)
        #expect(matrix.cases.count == 3)
        for pair in matrix.cases {
            try matrix.check(pair, rows: 12)
        }
    }
}
