import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

/// wibosco's CoreDataMigration-Example history, one step at a time from W1, W2 and W3
/// (corpus README §6.5). Posts are matched by `postID` (unique in every store); PKs and
/// colorIDs (random UUIDs) are never compared.
@Suite("wibosco corpus steps", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct WiboscoCorpusStepTests {
    @Test func theStepsUseMigration1to2AndMigration2to3AndInferThreeToFour() throws {
        let runner = try CorpusStepRunner(.wibosco)
        #expect(runner.mappingModels(from: 1).map(\.name) == ["Migration1to2"])
        #expect(runner.mappingModels(from: 2).map(\.name) == ["Migration2to3"])
        #expect(runner.mappingModels(from: 3).isEmpty)
        let twoToThree = try #require(runner.mappingModels(from: 2).first)
        #expect(twoToThree.entityMappings.map(\.name) == ["ToColor", "PostToPost"])
        #expect(
            twoToThree.entityMapping(named: "PostToPost")?.policyName
                == "CoreDataMigration_Example.Post2ToPost3MigrationPolicy")
    }

    /// 1 → 2 (Migration1to2): `hexColor` = `$source.color`.
    @Test func oneToTwoKeepsEveryPostWithItsColorAsHexColor() throws {
        let runner = try CorpusStepRunner(.wibosco)
        let source = try runner.copy("W1")
        let (destination, report) = try runner.step(from: 1, source: source)
        #expect(report.rows == 1001)
        let before = try Self.posts(source, color: "ZCOLOR")
        let after = try Self.posts(destination, color: "ZHEXCOLOR")
        #expect(before.count == 1001)
        #expect(after == before)
        #expect(Set(after.values.map(\.color)).count == 1001)
    }

    /// 2 → 3 (Migration2to3, `Post2ToPost3MigrationPolicy`): a new Color per post, `hex` = old
    /// `hexColor`. W3 is the app's store after this step and more use: its posts include all
    /// 5979 of W2's, with the same postID, date and color hex.
    @Test func twoToThreeReproducesW3sPostsWithOneNewColorEach() throws {
        let runner = try CorpusStepRunner(.wibosco)
        let source = try runner.copy("W2")
        let (destination, report) = try runner.step(from: 2, source: source)
        #expect(report.entityMappings.first { $0.name == "PostToPost" }?.setBased == false)
        let before = try Self.posts(source, color: "ZHEXCOLOR")
        let after = try Self.postsWithColorHex(destination)
        #expect(before.count == 5979)
        #expect(after == before)
        let w3 = try Self.postsWithColorHex(try runner.copy("W3"))
        #expect(w3.count == 7995)
        #expect(before.allSatisfy { w3[$0.key] == $0.value }, "every W2 post is in W3 with the same date and color")

        let colors = try CorpusStepRunner.read(destination) { db in
            (
                rows: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCOLOR") ?? 0,
                linkedPosts: try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT ZPOST) FROM ZCOLOR") ?? 0,
                colorsOfPosts: try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT ZCOLOR) FROM ZPOST") ?? 0,
                distinctIDs: try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT ZCOLORID) FROM ZCOLOR") ?? 0,
                idLengths: Set(try Int.fetchAll(db, sql: "SELECT LENGTH(ZCOLORID) FROM ZCOLOR"))
            )
        }
        #expect(colors.rows == 5979)
        #expect(colors.linkedPosts == 5979, "each color's post is set (the one-to-one's inverse)")
        #expect(colors.colorsOfPosts == 5979, "one color per post, never shared")
        #expect(colors.distinctIDs == 5979)
        #expect(colors.idLengths == [36], "colorIDs are UUID strings")
        #expect(try CorpusStepRunner.primaryKeyRows(destination) == ["Color 0 5979", "Post 0 5979"])
        // Real Core Data output kept the store UUID across this step (W2 → W3, README §6.7).
        #expect((try CorpusStepRunner.metadata(destination)).zUUID == "D5151864-19A8-4014-AEC0-0DD1501E4140")
    }

    /// 3 → 4 (inferred): `hide` is new, optional with default NO.
    @Test func threeToFourKeepsEveryPostAndHidesNone() throws {
        let runner = try CorpusStepRunner(.wibosco)
        let source = try runner.copy("W3")
        let (destination, report) = try runner.step(from: 3, source: source)
        #expect(report.kind == .inferred)
        #expect(report.rows == 7995 * 2)
        #expect(try Self.postsWithColorHex(destination) == Self.postsWithColorHex(source))
        let hide = try CorpusStepRunner.read(destination) { db in
            try Row.fetchAll(db, sql: "SELECT ZHIDE, COUNT(*) AS n FROM ZPOST GROUP BY ZHIDE").map {
                "\($0["ZHIDE"] as DatabaseValue)=\($0["n"] as Int)"
            }
        }
        #expect(hide == ["0=7995"])
    }

    /// Each step keeps the store UUID and writes the hashes Core Data wrote in the real store
    /// of the destination version (W2, W3, and WW for version 4).
    @Test(arguments: [(1, "W2"), (2, "W3"), (3, "WW")])
    func eachStepKeepsTheStoreUUIDAndWritesTheNextStoresHashes(_ number: Int, _ next: String) throws {
        let runner = try CorpusStepRunner(.wibosco)
        let source = try runner.copy("W\(number)")
        let (destination, _) = try runner.step(from: number, source: source)
        let (sourceMetadata, sourceUUID) = try CorpusStepRunner.metadata(source)
        let (metadata, zUUID) = try CorpusStepRunner.metadata(destination)
        #expect(zUUID == sourceUUID)
        #expect(metadata.storeUUID == sourceMetadata.storeUUID)
        #expect(metadata.versionHashes == (try runner.version(number + 1)).entityVersionHashes)
        #expect(metadata.versionHashes == (try CorpusStepRunner.metadata(try runner.copy(next))).metadata.versionHashes)
    }

    @Test func theChainFromW1KeepsEveryPostWithOneColorEachAndHidesNone() throws {
        let runner = try CorpusStepRunner(.wibosco)
        let source = try runner.copy("W1")
        let destination = try runner.chain(from: 1, to: 4, source: source)
        #expect(try Self.postsWithColorHex(destination) == Self.posts(source, color: "ZCOLOR"))
        let counts = try CorpusStepRunner.read(destination) { db in
            (
                posts: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPOST") ?? 0,
                colors: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCOLOR") ?? 0,
                hidden: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPOST WHERE ZHIDE IS NOT 0") ?? -1
            )
        }
        #expect(counts.posts == 1001)
        #expect(counts.colors == 1001)
        #expect(counts.hidden == 0)
    }

    // MARK: Helpers

    struct Post: Hashable {
        var date: Double?
        var color: String?
    }

    /// Posts by postID, with the color held in `colorColumn` (`ZCOLOR` in v1, `ZHEXCOLOR` in v2).
    static func posts(_ url: URL, color colorColumn: String) throws -> [String: Post] {
        try CorpusStepRunner.read(url) { db in
            var posts: [String: Post] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT ZPOSTID, ZDATE, \(colorColumn) AS color FROM ZPOST") {
                posts[row["ZPOSTID"]] = Post(date: row["ZDATE"], color: row["color"])
            }
            return posts
        }
    }

    /// Posts by postID, with their Color's `hex` (versions 3 and 4).
    static func postsWithColorHex(_ url: URL) throws -> [String: Post] {
        try CorpusStepRunner.read(url) { db in
            var posts: [String: Post] = [:]
            let rows = try Row.fetchAll(
                db, sql: "SELECT p.ZPOSTID, p.ZDATE, c.ZHEX FROM ZPOST p LEFT JOIN ZCOLOR c ON c.Z_PK = p.ZCOLOR")
            for row in rows {
                posts[row["ZPOSTID"]] = Post(date: row["ZDATE"], color: row["ZHEX"])
            }
            return posts
        }
    }
}
