import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// A step that replaces a table frees its pages without zeroing them, since the next step's
/// tables are built in them; the run's last step removes what is left, so the upgraded store
/// has no free page and no byte of a value the upgrade dropped (``FreePages``).
@Suite("upgradeIfNeeded: no free page, and no dropped value, left in the upgraded store")
struct PartialRebuildFreePagesTests {
    /// Accounts have a `secret`, dropped by the first step.
    static let v1 = ObjectModel("Vault") {
        Entity("Account") {
            Attribute("name", .string)
            Attribute("secret", .string)
        }
        Entity("Entry") { Attribute("note", .string) }
    }

    static let v2 = ObjectModel("Vault 2") {
        Entity("Account") { Attribute("name", .string) }
        Entity("Entry") { Attribute("note", .string) }
    }

    /// Entry gains `memo`, from `note`.
    static let v3 = ObjectModel("Vault 3") {
        Entity("Account") { Attribute("name", .string) }
        Entity("Entry") {
            Attribute("memo", .string)
            Attribute("note", .string)
        }
    }

    static let marker = "dropped-secret-7f3a"

    static func firstStep() throws -> MappingModel {
        try PartialRebuildMapping.transforming("Account", ["name": "$source.name"], from: v1, to: v2)
    }

    let directory: TemporaryDirectory
    let store: URL

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-free-pages")
        store = directory.path("Vault.sqlite")
        try StoreCreator.createStore(at: store, model: Self.v1)
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: Self.v1))
            // Enough accounts for the table to span many pages.
            for index in 0..<400 {
                _ = try objects.insert(
                    "Account",
                    [
                        "name": "Account \(index)",
                        "secret": "\(Self.marker) \(index) \(String(repeating: "x", count: 60))",
                    ])
            }
            for index in 0..<200 { _ = try objects.insert("Entry", ["note": "Note \(index)"]) }
        }
        _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try queue.close()
    }

    /// Whether any of the store's files holds the marker's bytes.
    static func holdsMarker(_ store: URL) -> Bool {
        let marker = Data(marker.utf8)
        return ["", "-wal", "-journal"].contains { suffix in
            guard let bytes = FileManager.default.contents(atPath: store.path + suffix) else { return false }
            return bytes.range(of: marker) != nil
        }
    }

    static func freePages(_ store: URL) throws -> Int {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? -1 }
    }

    @Test func theUpgradedStoreHasNoFreePageAndNoDroppedValue() throws {
        #expect(Self.holdsMarker(store))
        let upgrader = try Upgrader(
            history: VersionHistory([Self.v1, Self.v2, Self.v3]),
            mappings: [
                MappingDirectory.StepKey(Self.v1.name, Self.v2.name): [try Self.firstStep()],
                MappingDirectory.StepKey(Self.v2.name, Self.v3.name): [
                    try PartialRebuildMapping.transforming(
                        "Entry", ["memo": "$source.note"], from: Self.v2, to: Self.v3)
                ],
            ],
            options: UpgradeOptions(lockTimeout: .seconds(30)))
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.to == Self.v3.name)
        #expect(report.steps.map(\.keptTables) == [["ZENTRY"], ["ZACCOUNT"]])
        #expect(try Self.freePages(store) == 0)
        #expect(!Self.holdsMarker(store))
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        let rows = try snapshot.database.read { db in
            (
                try Int.fetchOne(db, sql: #"SELECT count(*) FROM "ZACCOUNT" WHERE "ZNAME" LIKE 'Account %'"#),
                try Int.fetchOne(db, sql: #"SELECT count(*) FROM "ZENTRY" WHERE "ZMEMO" = "ZNOTE""#)
            )
        }
        #expect(rows.0 == 400)
        #expect(rows.1 == 200)
    }

    /// A step the runner tells that more steps follow leaves the replaced table's pages free
    /// and as they were: the next step overwrites them. On its own, a step removes them.
    @Test(arguments: [false, true])
    func aStepLeavesTheReplacedTablesPagesOnlyWhenAnotherStepFollows(leavesNoFreePages: Bool) throws {
        let output = directory.path("step-\(leavesNoFreePages).sqlite")
        var step = MigrationStep(from: Self.v1, to: Self.v2, mappingModels: [try Self.firstStep()])
        step.leavesNoFreePages = leavesNoFreePages
        let report = try step.run(source: store, destination: output)
        #expect(report.keptTables == ["ZENTRY"])
        #expect((try Self.freePages(output) > 0) == !leavesNoFreePages)
        #expect(Self.holdsMarker(output) == !leavesNoFreePages)
    }
}
