import Foundation
import GRDB
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `stepwise inspect` names Core Data's private tables apart from the model's, and a store
/// that has them is identified like any other.
@Suite("stepwise inspect and Core Data's private tables")
struct PrivateTablesCLITests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static let swiftDataStore =
        "real-stores/Karim-ezzedine-CartKit/Tests/CartKitStorageSwiftDataTests/LegacySwiftData/CartKitSwiftData_v1.sqlite"

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func inspectListsTheHistoryTablesOfASwiftDataStoreApart() throws {
        let copy = try Corpus.required().copyStore(Self.swiftDataStore, to: directory.url)
        let text = try CommandRunner().run(["inspect", copy.path])
        #expect(text.status == 0, "\(text.standardError)")
        let lines = text.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("Core Data's private tables") })
        let tablesHeading = try #require(lines.firstIndex(of: "Tables"))
        let modelTables = lines[(tablesHeading + 1)..<heading].filter { !$0.isEmpty }
        #expect(
            modelTables.map { $0.split(separator: " ").first.map(String.init) ?? "" } == [
                "ZCARTITEMMODEL", "ZCARTITEMMODIFIERMODEL", "ZCARTMODEL", "Z_METADATA", "Z_PRIMARYKEY",
            ])
        let privateLines = lines[(heading + 1)...].prefix { !$0.isEmpty }
        #expect(
            privateLines.map { $0.split(separator: " ", maxSplits: 1).first.map(String.init) ?? "" } == [
                "ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING", "Z_MODELCACHE",
            ])
        #expect(
            privateLines.contains { $0.contains("ATRANSACTIONSTRING") && $0.hasSuffix("2 rows  persistent history") })
        #expect(privateLines.contains { $0.contains("Z_MODELCACHE") && $0.hasSuffix("1 row  cached model") })

        let json = try CommandRunner().run(["inspect", copy.path, "--json"]).json()
        let tables = try #require(json["tables"] as? [[String: Any]])
        let kinds = Dictionary(
            uniqueKeysWithValues: tables.map { ($0["name"] as? String ?? "", $0["coreDataPrivate"]) })
        #expect(kinds["ACHANGE"] as? String == "persistentHistory")
        #expect(kinds["ATRANSACTIONSTRING"] as? String == "persistentHistory")
        #expect(kinds["Z_MODELCACHE"] as? String == "modelCache")
        #expect(kinds["ZCARTMODEL"] is NSNull)
    }

    @Test func aStoreWithHistoryAndCloudKitTablesIsIdentifiedByHash() throws {
        _ = try SampleHistories.write(to: directory.url)
        let bundle = directory.path("Recipes.xcdatamodeld")
        let store = directory.path("Mirrored.sqlite")
        try StoreCreator.createStore(at: store, model: RecipesHistory.v1)
        try DatabaseQueue(path: store.path).write { db in
            try CoreDataPrivateTablesFixture.addTables(to: db)
            try CoreDataPrivateTablesFixture.recordTransaction(
                [.init(entity: 1, primaryKey: 1, type: .insert)], author: "Chef:1", in: db)
            try CoreDataPrivateTablesFixture.mirror(entity: 1, primaryKey: 1, recordName: "Chef:1", in: db)
        }
        let result = try CommandRunner().run(["inspect", store.path, "--models", bundle.path, "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        #expect(json["matchedVersion"] as? String == "Recipes")
        #expect(json["matchedBy"] as? String == "hash")
        #expect(json["consistent"] as? Bool == true)
        #expect(json["problem"] is NSNull)
        let tables = try #require(json["tables"] as? [[String: Any]])
        let privateTables = tables.filter { !($0["coreDataPrivate"] is NSNull) }
        #expect(
            privateTables.map { $0["name"] as? String ?? "" } == [
                "ACHANGE", "ANSCKMETADATAENTRY", "ANSCKRECORDMETADATA", "ATRANSACTION", "ATRANSACTIONSTRING",
            ])
        #expect(
            privateTables.map { $0["coreDataPrivate"] as? String ?? "" } == [
                "persistentHistory", "cloudKitMirroring", "cloudKitMirroring", "persistentHistory", "persistentHistory",
            ])
        #expect(privateTables.map { $0["rows"] as? Int ?? -1 } == [1, 1, 1, 1, 1])
    }
}
