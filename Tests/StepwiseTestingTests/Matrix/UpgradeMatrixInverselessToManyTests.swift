import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseTesting
import Testing

/// The matrix over a history whose `Folder.files` has no inverse: seeded stores fill its hidden
/// foreign key (Core Data 1241 and later), and every pair keeps each folder's files.
@Suite("UpgradeMatrix: a to-many without inverse")
struct UpgradeMatrixInverselessToManyTests {
    static let v1 = ObjectModel("Folders", versionIdentifiers: ["1"]) {
        Entity("File") { Attribute("name", .string) }
        Entity("Folder") {
            Attribute("title", .string)
            Relationship("files", to: "File").toMany()
        }
    }

    /// `File.size` more: in place.
    static let v2 = ObjectModel("Folders 2", versionIdentifiers: ["2"]) {
        Entity("File") {
            Attribute("name", .string)
            Attribute("size", .integer64)
        }
        Entity("Folder") {
            Attribute("title", .string)
            Relationship("files", to: "File").toMany()
        }
    }

    /// `Drive` sorts before `Folder`, which becomes Z_ENT 3: the key moves from `Z2FILES` to
    /// `Z3FILES`, and the step rebuilds.
    static let v3 = ObjectModel("Folders 3", versionIdentifiers: ["3"]) {
        Entity("Drive") { Attribute("label", .string) }
        Entity("File") {
            Attribute("name", .string)
            Attribute("size", .integer64)
        }
        Entity("Folder") {
            Attribute("title", .string)
            Relationship("files", to: "File").toMany()
        }
    }

    static let matrix = Result { try UpgradeMatrix(history: VersionHistory([v1, v2, v3])) }

    @Test func seededStoresFillTheHiddenKeyOnceForEachFile() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-matrix-inverseless")
        let store = directory.path("Folders.sqlite")
        try SeededStore.create(at: store, model: Self.v1, rows: 20)
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        let (linked, files, strayKeys) = try queue.read { db in
            (
                try Int.fetchOne(db, sql: #"SELECT COUNT("Z2FILES") FROM "ZFILE""#) ?? -1,
                try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "ZFILE""#) ?? -1,
                try Int.fetchOne(
                    db,
                    sql: #"SELECT COUNT(*) FROM "ZFILE" WHERE "Z2FILES" NOT IN (SELECT "Z_PK" FROM "ZFOLDER")"#) ?? -1
            )
        }
        #expect(files == 20)
        #expect(linked > 0 && linked <= files)
        #expect(strayKeys == 0)
        #expect(try StoreConsistency.problems(inStoreAt: store, model: Self.v1) == [])
    }

    @Test func aHiddenKeyNamingNoFolderIsAProblem() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-matrix-inverseless")
        let store = directory.path("Folders.sqlite")
        try SeededStore.create(at: store, model: Self.v1, rows: 5)
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in try db.execute(sql: #"UPDATE "ZFILE" SET "Z2FILES" = 999 WHERE "Z_PK" = 3"#) }
        try queue.close()
        let problems = try StoreConsistency.problems(inStoreAt: store, model: Self.v1)
        #expect(problems.map(\.primaryKey) == [3])
        #expect(problems.map(\.property) == ["files"])
        #expect(problems.first?.reason.contains("999") == true)
    }

    @Test(arguments: try matrix.get().cases)
    func everyPairKeepsEachFoldersFiles(_ pair: UpgradeMatrix.Pair) throws {
        let result = try Self.matrix.get().check(pair, rows: 20)
        #expect(result.pair == pair)
        #expect(result.copiedEntities.contains("Folder"))
        #expect(result.valuesCompared > 0)
    }

    @Test func theMatrixCoversEveryPair() throws {
        #expect(
            try Self.matrix.get().cases.map(\.description) == [
                "Folders → Folders 2", "Folders → Folders 3", "Folders 2 → Folders 3",
            ])
        #expect(try Self.matrix.get().unreachable.isEmpty)
    }
}
