import Foundation
import GRDB
import StepwiseTesting
import Testing

/// The issue's acceptance points, run through the real `stepwise` executable on copies of
/// every corpus store.
@Suite("stepwise CLI on the corpus", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct CorpusCLITests {
    static let apptentive = "apptentive-ios/model/ATDataModel.xcdatamodeld"
    static let moody = "objcio-moody/model/Moody.xcdatamodeld"
    static let wibosco = "wibosco-migration-example/model/CoreDataMigration_Example.xcdatamodeld"

    struct Case: Sendable, CustomTestStringConvertible {
        var bundle: String
        var store: String
        var version: String
        /// Rows expected in one table, read through the WAL where there is one.
        var table: String
        var rows: Int
        var testDescription: String { store }
    }

    static let cases: [Case] = [
        Case(
            bundle: apptentive, store: "apptentive-ios/stores/ATDataModelv1.sqlite", version: "ATDataModel",
            table: "ZATRECORD", rows: 3),
        Case(
            bundle: apptentive, store: "apptentive-ios/stores/ATDataModelv2.sqlite", version: "ATDataModel 2",
            table: "ZATRECORD", rows: 3),
        Case(
            bundle: apptentive, store: "apptentive-ios/stores/ATDataModelv3.sqlite", version: "ATDataModel 3",
            table: "ZATRECORD", rows: 3),
        Case(
            bundle: apptentive, store: "apptentive-ios/stores/ATDataModelv4.sqlite", version: "ATDataModel 4",
            table: "ZATRECORD", rows: 12),
        Case(
            bundle: apptentive, store: "apptentive-ios/stores/ATDataModelv5.sqlite", version: "ATDataModel 5",
            table: "ZATFILEATTACHMENT", rows: 6),
        Case(
            bundle: apptentive, store: "apptentive-ios/stores/ATDataModelv6.sqlite", version: "ATDataModel 6",
            table: "ZQUEUEDREQUEST", rows: 0),
        Case(
            bundle: apptentive, store: "apptentive-ios/stores/v2WALDatabase/ATDataModel.sqlite",
            version: "ATDataModel 2", table: "ZATRECORD", rows: 6),
        Case(
            bundle: apptentive, store: "apptentive-ios/stores/v3WALDatabase/ATDataModel.sqlite",
            version: "ATDataModel 3", table: "ZATRECORD", rows: 3),
        Case(
            bundle: moody, store: "objcio-moody/stores/Moody.moody", version: "Moody", table: "ZGEOGRAPHICREGION",
            rows: 5),
        Case(bundle: moody, store: "objcio-moody/stores/Moody 2.moody", version: "Moody 2", table: "ZMOOD", rows: 4),
        Case(bundle: moody, store: "objcio-moody/stores/Moody 3.moody", version: "Moody 3", table: "ZMOOD", rows: 4),
        Case(bundle: moody, store: "objcio-moody/stores/Moody 4.moody", version: "Moody 4", table: "ZCOUNTRY", rows: 3),
        Case(bundle: moody, store: "objcio-moody/stores/Moody 5.moody", version: "Moody 5", table: "ZCOUNTRY", rows: 3),
        Case(
            bundle: wibosco, store: "wibosco-migration-example/stores/CoreDataMigration_Example_1.sqlite",
            version: "CoreDataMigration_Example", table: "ZPOST", rows: 1001),
        Case(
            bundle: wibosco, store: "wibosco-migration-example/stores/CoreDataMigration_Example_2.sqlite",
            version: "CoreDataMigration_Example 2", table: "ZPOST", rows: 5979),
        Case(
            bundle: wibosco, store: "wibosco-migration-example/stores/CoreDataMigration_Example_3.sqlite",
            version: "CoreDataMigration_Example 3", table: "ZCOLOR", rows: 7995),
        Case(
            bundle: wibosco, store: "wibosco-migration-example/stores/CoreDataMigration_Example_WAL.sqlite",
            version: "CoreDataMigration_Example 4", table: "ZPOST", rows: 84),
    ]

    @Test(arguments: cases)
    func inspectNamesTheVersionByHashAndCountsRowsThroughTheWAL(_ testCase: Case) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(testCase.store, to: directory.url)
        let before = fileBytes(copy)
        let result = try CommandRunner().run([
            "inspect", copy.path, "--models", corpus.url(testCase.bundle).path, "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        #expect(json["matchedVersion"] as? String == testCase.version)
        #expect(json["matchedBy"] as? String == "hash")
        #expect(json["consistent"] as? Bool == true)
        #expect(json["problem"] is NSNull)
        let tables = try #require(json["tables"] as? [[String: Any]])
        let rows = tables.first { $0["name"] as? String == testCase.table }?["rows"] as? Int
        #expect(rows == testCase.rows)
        let hashes = try #require(json["entityHashes"] as? [String: String])
        #expect(hashes.values.allSatisfy { $0.count == 64 })
        #expect(fileBytes(copy) == before, "inspect must not write to the store, its -wal or its -shm")
    }

    @Test func inspectFlagsTheHalfMigratedStore() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore("apptentive-ios/stores/v2CorruptDatabase/ATDataModel.sqlite", to: directory.url)
        let before = fileBytes(copy)
        let result = try CommandRunner().run([
            "inspect", copy.path, "--models", corpus.url(Self.apptentive).path, "--json",
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

    /// `stepwise create` for each version gives the tables, columns, types, indexes and
    /// Z_PRIMARYKEY rows Core Data wrote for it.
    @Test(arguments: cases.filter { !$0.store.contains("WALDatabase") })
    func createGivesTheSameSchemaAsCoreData(_ testCase: Case) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(testCase.store, to: directory.url)
        let created = directory.path("created.sqlite")
        let result = try CommandRunner().run([
            "create", created.path, "--models", corpus.url(testCase.bundle).path, "--version", testCase.version,
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
