import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Core Data's private tables are recognized by name, their `Z_PRIMARYKEY` rows by number, in
/// test stores and in every real store of the corpus, and schema comparisons leave them out.
@Suite("CoreDataPrivateTables")
struct CoreDataPrivateTablesTests {
    @Test(arguments: [
        ("ACHANGE", CoreDataPrivateTables.Kind.persistentHistory), ("ATRANSACTION", .persistentHistory),
        ("ATRANSACTIONSTRING", .persistentHistory), ("atransaction", .persistentHistory),
        ("ANSCKRECORDMETADATA", .cloudKitMirroring), ("ANSCKHISTORYANALYZERSTATE", .cloudKitMirroring),
        ("ANSCKMETADATAENTRY", .cloudKitMirroring), ("Z_MODELCACHE", .modelCache),
    ])
    func recognizesEachPrivateTableByName(_ name: String, _ kind: CoreDataPrivateTables.Kind) {
        #expect(CoreDataPrivateTables.kind(ofTable: name) == kind)
        #expect(CoreDataPrivateTables.isPrivateTable(name))
    }

    @Test(arguments: ["ZCHANGE", "ZTRANSACTION", "Z_PRIMARYKEY", "Z_METADATA", "Z_6DISPLAYTYPES", "ACHANGES", "ANSC"])
    func leavesTheModelsTablesAlone(_ name: String) {
        #expect(CoreDataPrivateTables.kind(ofTable: name) == nil)
    }

    @Test func carriesHistoryAndCloudKitTablesButNotTheModelCache() {
        #expect(CoreDataPrivateTables.Kind.allCases.filter(\.isCarried) == [.persistentHistory, .cloudKitMirroring])
    }

    @Test func recognizesPrivateEntityNumbersFrom16001() {
        #expect(!CoreDataPrivateTables.isPrivateEntityNumber(1))
        #expect(!CoreDataPrivateTables.isPrivateEntityNumber(16000))
        #expect(CoreDataPrivateTables.isPrivateEntityNumber(16001))
        #expect(CoreDataPrivateTables.isPrivateEntityNumber(17012))
    }

    /// A Recipes store with the history and CloudKit tables of a SwiftData store.
    func mirroredRecipes() throws -> (DatabaseQueue, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        let url = directory.path("Recipes.sqlite")
        try StoreCreator.createStore(at: url, model: RecipesHistory.v1)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try CoreDataPrivateTablesFixture.addTables(to: db) }
        return (queue, directory)
    }

    @Test func readsEachTableWithItsStatementsIndexesAndEntityReference() throws {
        let (queue, directory) = try mirroredRecipes()
        defer { _ = directory }
        let tables = try queue.read { db in try CoreDataPrivateTables.tables(in: db) }
        #expect(
            tables.map(\.name) == [
                "ACHANGE", "ANSCKMETADATAENTRY", "ANSCKRECORDMETADATA", "ATRANSACTION", "ATRANSACTIONSTRING",
            ])
        let change = try #require(tables.first)
        #expect(change.createStatement == CoreDataPrivateTablesFixture.historyStatements(.swiftData)[0])
        #expect(change.indexStatements == ["CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)"])
        #expect(change.columns.prefix(4) == ["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE"])
        #expect(tables.map { $0.indexStatements.count } == [1, 0, 2, 6, 1])
        #expect(
            tables.compactMap(\.entityReference).map { "\($0.table).\($0.entityColumn),\($0.primaryKeyColumn)" } == [
                "ACHANGE.ZENTITY,ZENTITYPK", "ANSCKRECORDMETADATA.ZENTITYID,ZENTITYPK",
            ])
    }

    @Test func schemaComparisonsAndVersionMatchingLeaveThePrivateTablesOut() throws {
        let (queue, directory) = try mirroredRecipes()
        defer { _ = directory }
        let (schema, rows, modelRows) = try queue.read { db in
            (
                try SQLiteSchema.read(from: db), try PrimaryKeyRow.readAll(from: db),
                try PrimaryKeyRow.readAll(from: db, includingCoreDataPrivate: false)
            )
        }
        let expected = try SQLiteSchema(expectedFor: StoreLayout(model: RecipesHistory.v1))
        #expect(schema.tables.count == expected.tables.count + 5)
        #expect(schema.differences(from: expected) == [])
        #expect(schema == expected)
        #expect(Set([schema, expected]).count == 1)
        #expect(schema.removingCoreDataPrivateTables().tables.map(\.name) == expected.tables.map(\.name))
        #expect(
            rows.filter(\.isCoreDataPrivate).map(\.name) == [
                "CHANGE", "TRANSACTION", "TRANSACTIONSTRING", "NSCKMetadataEntry", "NSCKRecordMetadata",
            ])
        #expect(modelRows == rows.filter { !$0.isCoreDataPrivate })
        #expect(modelRows.map(\.ignoringMaximum) == (try StoreLayout(model: RecipesHistory.v1)).primaryKeyRows)
    }

    // MARK: Real stores

    static let realStores = [
        ("log2timeline-plaso/test_data/macos/knowledgec-10.13.db", ["ACHANGE", "ATRANSACTION", "Z_MODELCACHE"]),
        (
            "log2timeline-plaso/test_data/ios/NoteStore.sqlite",
            ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING", "Z_MODELCACHE"]
        ),
        (
            "log2timeline-plaso/test_data/ios/RMAdminStore-Local.sqlite",
            ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING", "Z_MODELCACHE"]
        ),
        (
            "RhetTbull-PhotoScript/tests/test_libraries/Test-PhotoScript-15.7.1.photoslibrary/database/Photos.sqlite",
            ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING", "Z_MODELCACHE"]
        ),
        (
            "Karim-ezzedine-CartKit/Tests/CartKitStorageSwiftDataTests/LegacySwiftData/CartKitSwiftData_v1.sqlite",
            ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING", "Z_MODELCACHE"]
        ),
    ]

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: realStores)
    func recognizesThePrivateTablesAndRowsOfRealStores(_ path: String, _ names: [String]) throws {
        let directory = try TemporaryDirectory()
        let copy = try Corpus.required().copyStore("real-stores/" + path, to: directory.url)
        let queue = try DatabaseQueue(path: copy.path)
        defer { try? queue.close() }
        let (tables, schema, privateRows, others) = try queue.read { db in
            (
                try CoreDataPrivateTables.tables(in: db), try SQLiteSchema.read(from: db),
                try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT >= 16001"),
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'A%'")
            )
        }
        #expect(tables.map(\.name) == names)
        #expect(tables.filter { $0.kind == .persistentHistory }.allSatisfy { !$0.indexStatements.isEmpty })
        // Every A… table is Core Data's, and no private table is left for the comparison.
        #expect(Set(others).isSubset(of: Set(names)))
        #expect(
            !schema.removingCoreDataPrivateTables().tables.contains { CoreDataPrivateTables.isPrivateTable($0.name) })
        #expect(
            schema.removingCoreDataPrivateTables().indexes.allSatisfy {
                !CoreDataPrivateTables.isPrivateTable($0.table)
            })
        // The history's Z_PRIMARYKEY rows: 16001 CHANGE, 16002 TRANSACTION (16003 TRANSACTIONSTRING).
        let history = privateRows.map { "\($0[0] as Int) \($0[1] as String)" }
        #expect(history.prefix(2) == ["16001 CHANGE", "16002 TRANSACTION"])
        #expect(history.count == (names.contains("ATRANSACTIONSTRING") ? 3 : 2))
    }
}
