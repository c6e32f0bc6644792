import Foundation
import GRDB
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `stepwise upgrade` on copies of real Core Data stores, with the corpus's own `.xcmappingmodel`
/// files, which the CLI finds beside the bundle. Each test reads its expectations
/// from a second, untouched copy of the same store.
@Suite("stepwise upgrade on the corpus", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct CorpusUpgradeCLITests {
    let corpus: Corpus
    let directory: TemporaryDirectory

    init() throws {
        corpus = try Corpus.required()
        directory = try TemporaryDirectory()
    }

    /// A copy to upgrade and a copy to read expectations from, in separate folders.
    func copies(of store: CorpusStore) throws -> (upgraded: URL, reference: URL) {
        let upgraded = directory.path("upgraded")
        let reference = directory.path("reference")
        for folder in [upgraded, reference] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        return (try corpus.copyStore(store, to: upgraded), try corpus.copyStore(store, to: reference))
    }

    func upgrade(_ store: URL, _ bundle: CorpusBundle, _ arguments: String...) throws -> [String: Any] {
        let result = try CommandRunner.testTool().run(
            [
                "upgrade", store.path, "--models", corpus.url(bundle.path).path,
                "--json",
            ] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        return try result.json()
    }

    /// Runs `body` on the store, through its `-wal`.
    func read<T>(_ store: URL, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    @Test func apptentivesWALStoreGoesFromVersion3To4WithItsThreeMessages() throws {
        let (store, reference) = try copies(of: try CorpusStore.named("3W"))
        let json = try upgrade(store, .apptentive, "--to", "ATDataModel 4")
        #expect(json["from"] as? String == "ATDataModel 3")
        #expect(json["to"] as? String == "ATDataModel 4")
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.map { $0["kind"] as? String } == ["explicit"])

        // All three rows live in the -wal of the original; they must all be migrated.
        let sql = "SELECT Z_ENT, ZBODY, ZPENDINGMESSAGEID FROM ZATRECORD ORDER BY ZPENDINGMESSAGEID, ZBODY"
        let expected = try read(reference) { db in try Row.fetchAll(db, sql: sql) }
        let actual = try read(store) { db in try Row.fetchAll(db, sql: sql) }
        #expect(expected.count == 3)
        #expect(actual.count == 3)
        // Keys may be renumbered by the step; the messages' entity, body and id may not change.
        for column in ["Z_ENT", "ZBODY", "ZPENDINGMESSAGEID"] {
            #expect(
                actual.map { $0[column] as DatabaseValue } == expected.map { $0[column] as DatabaseValue }, "\(column)")
        }
        let hidden = try read(store) { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZATRECORD WHERE ZHIDDEN IS NOT NULL AND ZHIDDEN != 0")
        }
        #expect(hidden == 0)
        let inspected = try CommandRunner.testTool().run([
            "inspect", store.path, "--models", corpus.url(CorpusBundle.apptentive.path).path, "--json",
        ])
        #expect(try inspected.json()["matchedVersion"] as? String == "ATDataModel 4")
    }

    @Test func moodysFirstStoreGoesToMoody2WithRenamedRemoteIDs() throws {
        let (store, reference) = try copies(of: try CorpusStore.named("M1"))
        let json = try upgrade(store, .moody, "--to", "Moody 2")
        #expect(json["from"] as? String == "Moody")
        #expect(json["to"] as? String == "Moody 2")
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.map { $0["kind"] as? String } == ["inferred"])

        let expected = try read(reference) { db in
            try String.fetchAll(db, sql: "SELECT ZREMOTEIDENTIFIER FROM ZMOOD ORDER BY ZREMOTEIDENTIFIER")
        }
        let actual = try read(store) { db in
            try String.fetchAll(db, sql: "SELECT ZREMOTEID FROM ZMOOD ORDER BY ZREMOTEID")
        }
        #expect(expected.count == 4)
        #expect(actual == expected)
        #expect(try read(store) { db in try Int.fetchAll(db, sql: "SELECT ZRATING FROM ZMOOD") } == [0, 0, 0, 0])
        #expect(try read(store) { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZGEOGRAPHICREGION") } == 5)
    }

    @Test func wiboscosThirdStoreGoesToVersion4KeepingAll7995Posts() throws {
        let (store, reference) = try copies(of: try CorpusStore.named("W3"))
        let json = try upgrade(store, .wibosco)
        #expect(json["from"] as? String == "CoreDataMigration_Example 3")
        #expect(json["to"] as? String == "CoreDataMigration_Example 4")
        let steps = try #require(json["steps"] as? [[String: Any]])
        #expect(steps.map { $0["kind"] as? String } == ["inferred"])
        #expect(steps.first?["rows"] as? Int == 7995 * 2)

        let sql = """
            SELECT ZPOST.ZPOSTID, ZPOST.ZDATE, ZCOLOR.ZHEX FROM ZPOST LEFT JOIN ZCOLOR ON ZCOLOR.Z_PK = ZPOST.ZCOLOR
            ORDER BY ZPOST.ZPOSTID, ZPOST.ZDATE
            """
        let expected = try read(reference) { db in try Row.fetchAll(db, sql: sql) }
        let actual = try read(store) { db in try Row.fetchAll(db, sql: sql) }
        #expect(expected.count == 7995)
        #expect(actual == expected)
        let notHidden = try read(store) { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPOST WHERE ZHIDE = 0")
        }
        #expect(notHidden == 7995)
    }
}
