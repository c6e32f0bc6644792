import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseTesting
import Testing

/// The matrix over a history with a derived attribute (`Note.edited = now()`): seeded stores
/// hold a stamp in every row, every pair keeps it, and the consistency check reports a row
/// without one.
@Suite("UpgradeMatrix: a derived attribute")
struct UpgradeMatrixDerivedAttributeTests {
    static let edited = Derivation(expression: "now()", kind: .now)

    static let v1 = ObjectModel("Notes", versionIdentifiers: ["1"]) {
        Entity("Note") { Attribute("title", .string) }
    }

    /// `edited = now()` more: in place.
    static let v2 = ObjectModel("Notes 2", versionIdentifiers: ["2"]) {
        Entity("Note") {
            Attribute("title", .string)
            Attribute("edited", .date).derivedForTests(edited)
        }
    }

    /// `Folder` sorts first and renumbers Note: the step rebuilds.
    static let v3 = ObjectModel("Notes 3", versionIdentifiers: ["3"]) {
        Entity("Folder") { Attribute("name", .string) }
        Entity("Note") {
            Attribute("title", .string)
            Attribute("edited", .date).derivedForTests(edited)
        }
    }

    static let matrix = Result { try UpgradeMatrix(history: VersionHistory([v1, v2, v3])) }

    static func count(at url: URL, _ sql: String) throws -> Int? {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: sql) }
    }

    @Test func seededStoresStampEveryRowAndAMissingStampIsAProblem() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-matrix-derived")
        let store = directory.path("Notes.sqlite")
        try SeededStore.create(at: store, model: Self.v2, rows: 10)
        #expect(try Self.count(at: store, #"SELECT COUNT("ZEDITED") FROM "ZNOTE""#) == 10)
        #expect(try StoreConsistency.problems(inStoreAt: store, model: Self.v2) == [])

        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in try db.execute(sql: #"UPDATE "ZNOTE" SET "ZEDITED" = NULL WHERE "Z_PK" IN (4, 7)"#) }
        try queue.close()
        let problems = try StoreConsistency.problems(inStoreAt: store, model: Self.v2)
        #expect(problems.map(\.primaryKey) == [4])
        #expect(problems.map(\.property) == ["edited"])
        #expect(problems.first?.reason == "now() value is missing (2 rows)")
    }

    @Test(arguments: try matrix.get().cases)
    func everyPairKeepsTheStamps(_ pair: UpgradeMatrix.Pair) throws {
        let result = try Self.matrix.get().check(pair, rows: 20)
        #expect(result.pair == pair)
        #expect(result.copiedEntities.contains("Note"))
        #expect(result.valuesCompared > 0)
    }
}

extension Attribute {
    /// This attribute, derived as `derivation` says.
    fileprivate func derivedForTests(_ derivation: Derivation) -> Attribute {
        var attribute = self
        attribute.derivation = derivation
        return attribute
    }
}
