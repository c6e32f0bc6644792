import Foundation
import GRDB
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The issue's acceptance points, run through the real `stepwise` executable on copies of
/// every corpus store.
@Suite("stepwise CLI on the corpus", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct CorpusCLITests {
    /// Rows expected in one table of each consistent store, read through the WAL where there is
    /// one (corpus README §4.2).
    static let expectedRows: [String: (table: String, rows: Int)] = [
        "v1": ("ZATRECORD", 3), "v2": ("ZATRECORD", 3), "v3": ("ZATRECORD", 3), "v4": ("ZATRECORD", 12),
        "v5": ("ZATFILEATTACHMENT", 6), "v6": ("ZQUEUEDREQUEST", 0), "2W": ("ZATRECORD", 6), "3W": ("ZATRECORD", 3),
        "M1": ("ZGEOGRAPHICREGION", 5), "M2": ("ZMOOD", 4), "M3": ("ZMOOD", 4), "M4": ("ZCOUNTRY", 3),
        "M5": ("ZCOUNTRY", 3), "W1": ("ZPOST", 1001), "W2": ("ZPOST", 5979), "W3": ("ZCOLOR", 7995),
        "WW": ("ZPOST", 84),
    ]

    @Test func everyConsistentStoreHasARowExpectation() {
        #expect(Self.expectedRows.keys.sorted() == CorpusStore.consistent.map(\.shortName).sorted())
    }

    @Test(arguments: CorpusStore.consistent)
    func inspectNamesTheVersionByHashAndCountsRowsThroughTheWAL(_ store: CorpusStore) throws {
        let expected = try #require(Self.expectedRows[store.shortName])
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(store, to: directory.url)
        let before = fileBytes(copy)
        let result = try CommandRunner().run([
            "inspect", copy.path, "--models", corpus.url(store.bundle).path, "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        #expect(json["matchedVersion"] as? String == store.version)
        #expect(json["matchedBy"] as? String == "hash")
        #expect(json["consistent"] as? Bool == true)
        #expect(json["problem"] is NSNull)
        let tables = try #require(json["tables"] as? [[String: Any]])
        let rows = tables.first { $0["name"] as? String == expected.table }?["rows"] as? Int
        #expect(rows == expected.rows)
        let hashes = try #require(json["entityHashes"] as? [String: String])
        #expect(hashes.values.allSatisfy { $0.count == 64 })
        #expect(fileBytes(copy) == before, "inspect must not write to the store, its -wal or its -shm")
    }

    @Test func inspectFlagsTheHalfMigratedStore() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(CorpusStore.corrupt, to: directory.url)
        let before = fileBytes(copy)
        let result = try CommandRunner().run([
            "inspect", copy.path, "--models", corpus.url(CorpusBundle.apptentive).path, "--json",
        ])
        #expect(result.status == 1)
        let json = try result.json()
        #expect(json["consistent"] as? Bool == false)
        #expect(json["matchedVersion"] is NSNull)
        #expect(json["matchedBy"] is NSNull)
        let problem = try #require(json["problem"] as? String)
        #expect(problem.contains("ATDataModel 3"))
        #expect(problem.contains("ATDataModel 2"))
        #expect(fileBytes(copy) == before)
    }

    /// `stepwise create` for each version, in the forms of the release that wrote its corpus
    /// store, gives the tables, columns, types, indexes and Z_PRIMARYKEY rows Core Data wrote.
    @Test(arguments: CorpusStore.onePerVersion)
    func createGivesTheSameSchemaAsCoreData(_ store: CorpusStore) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(store, to: directory.url)
        let created = directory.path("created.sqlite")
        // In the forms of the release that wrote the corpus store.
        let release = try DatabaseQueue(path: copy.path).read { db in
            try StoreMetadata.read(from: db, path: copy.path).release
        }
        let result = try CommandRunner().run([
            "create", created.path, "--models", corpus.url(store.bundle).path, "--version", store.version,
            "--core-data-release", String(release.frameworkVersion),
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let expected = try schemaSummary(copy)
        let actual = try schemaSummary(created)
        // Z_MODELCACHE holds Apple's archived model: Core Data writes it only in some versions,
        // and its presence has no effect on the layout, so it is left out of the comparison.
        #expect(
            actual.tables.filter { $0.key != "Z_MODELCACHE" } == expected.tables.filter { $0.key != "Z_MODELCACHE" })
        #expect(actual.indexes == expected.indexes)
        #expect(actual.primaryKeyRows == expected.primaryKeyRows)
    }

    struct SchemaSummary {
        var tables: [String: Set<String>]
        var indexes: Set<String>
        var primaryKeyRows: [String]
    }

    /// Tables → "COLUMN TYPE" sets, index names with their columns, and Z_PRIMARYKEY rows without Z_MAX.
    func schemaSummary(_ url: URL) throws -> SchemaSummary {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            var tables: [String: Set<String>] = [:]
            for table in try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            {
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.quotedDatabaseIdentifier))")
                tables[table] = Set(columns.map { "\($0["name"] as String) \($0["type"] as String)" })
            }
            var indexes: Set<String> = []
            for (name, table) in try Row.fetchAll(
                db, sql: "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index'"
            ).map({ ($0["name"] as String, $0["tbl_name"] as String) }) {
                let columns = try Row.fetchAll(db, sql: "PRAGMA index_info(\(name.quotedDatabaseIdentifier))").map {
                    $0["name"] as String? ?? ""
                }
                indexes.insert("\(table).\(name)(\(columns.joined(separator: ",")))")
            }
            let primaryKeyRows = try Row.fetchAll(
                db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"
            )
            .map { "\($0["Z_ENT"] as Int) \($0["Z_NAME"] as String) \($0["Z_SUPER"] as Int)" }
            return SchemaSummary(tables: tables, indexes: indexes, primaryKeyRows: primaryKeyRows)
        }
    }

    func fileBytes(_ url: URL) -> [Data?] {
        ["", "-wal", "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: url.path + $0)) }
    }
}
