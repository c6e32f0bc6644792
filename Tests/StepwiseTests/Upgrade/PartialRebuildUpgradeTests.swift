import Foundation
import GRDB
import Logging
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// An upgrade through explicit steps that each transform one entity and copy the other: each
/// step rebuilds one table and keeps the other, and a later step takes the previous
/// checkpoint instead of copying it. A crash there leaves the old store, and the next call
/// starts over and finishes.
@Suite("upgradeIfNeeded: steps that rebuild only what they map")
struct PartialRebuildUpgradeTests {
    static let v1 = ObjectModel("Ledger") {
        Entity("Account") {
            Attribute("name", .string)
            Relationship("entries", to: "Entry", inverse: "account").toMany()
        }
        Entity("Entry") {
            Attribute("note", .string)
            Relationship("account", to: "Account", inverse: "entries")
        }
    }

    /// Account gains `label`, from `name`.
    static let v2 = ObjectModel("Ledger 2") {
        Entity("Account") {
            Attribute("label", .string)
            Attribute("name", .string)
            Relationship("entries", to: "Entry", inverse: "account").toMany()
        }
        Entity("Entry") {
            Attribute("note", .string)
            Relationship("account", to: "Account", inverse: "entries")
        }
    }

    /// Entry gains `memo`, from `note`.
    static let v3 = ObjectModel("Ledger 3") {
        Entity("Account") {
            Attribute("label", .string)
            Attribute("name", .string)
            Relationship("entries", to: "Entry", inverse: "account").toMany()
        }
        Entity("Entry") {
            Attribute("memo", .string)
            Attribute("note", .string)
            Relationship("account", to: "Account", inverse: "entries")
        }
    }

    let directory: TemporaryDirectory
    let store: URL

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-partial")
        store = directory.path("Ledger.sqlite")
        try StoreCreator.createStore(at: store, model: Self.v1)
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: Self.v1))
            let accounts = try (0..<12).map { try objects.insert("Account", ["name": "Account \($0)"]) }
            for index in 0..<90 {
                _ = try objects.insert(
                    "Entry", ["note": "Note \(index)", "account": index % 8 == 0 ? nil : accounts[(index * 5) % 12]])
            }
            // Gaps in Account's keys: the rebuilt accounts get other keys, and the kept entries'
            // keys must follow them.
            for index in [2, 7] {
                for entry in try objects.related(accounts[index], "entries") { try objects.delete(entry) }
                try objects.delete(accounts[index])
            }
        }
        try queue.close()
    }

    func upgrader(fileSystem: FileSystem = FileSystem(), logger: Logger? = nil) throws -> Upgrader {
        var options = UpgradeOptions(lockTimeout: .seconds(30))
        options.fileSystem = fileSystem
        if let logger { options.logger = logger }
        return try Upgrader(
            history: VersionHistory([Self.v1, Self.v2, Self.v3]),
            mappings: [
                MappingDirectory.StepKey(Self.v1.name, Self.v2.name): [
                    try PartialRebuildMapping.transforming(
                        "Account", ["label": "$source.name"], from: Self.v1, to: Self.v2)
                ],
                MappingDirectory.StepKey(Self.v2.name, Self.v3.name): [
                    try PartialRebuildMapping.transforming(
                        "Entry", ["memo": "$source.note"], from: Self.v2, to: Self.v3)
                ],
            ],
            options: options)
    }

    /// Each entry's memo, note and account (name and label), sorted.
    func content() throws -> [String] {
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        return try snapshot.database.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT COALESCE(e."ZMEMO", '-') || ' ' || e."ZNOTE" || ' → ' || COALESCE(a."ZNAME", '-')
                        || ' / ' || COALESCE(a."ZLABEL", '-')
                    FROM "ZENTRY" e LEFT JOIN "ZACCOUNT" a ON a."Z_PK" = e."ZACCOUNT" ORDER BY 1
                    """)
        }
    }

    /// What the upgrade must leave, worked out from the seeded store.
    func expected() throws -> [String] {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT e."ZNOTE" || ' ' || e."ZNOTE" || ' → ' || COALESCE(a."ZNAME", '-')
                        || ' / ' || COALESCE(a."ZNAME", '-')
                    FROM "ZENTRY" e LEFT JOIN "ZACCOUNT" a ON a."Z_PK" = e."ZACCOUNT" ORDER BY 1
                    """)
        }
    }

    @Test func eachStepKeepsTheTableItCopiesAndTheLinksFollow() throws {
        let expected = try expected()
        #expect(expected.count > 60)
        let report = try upgrader().upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.to == Self.v3.name)
        #expect(report.steps.map(\.keptTables) == [["ZENTRY"], ["ZACCOUNT"]])
        #expect(try content() == expected)
    }

    @Test(arguments: ["step.partial-take-source", "step.partial-sync"])
    func aCrashWhileTakingTheCheckpointLeavesTheOldStoreAndTheNextCallFinishes(site: String) throws {
        let expected = try expected()
        let before = StoreBytes(store)
        // The second step's: step 1 copies the store into the work folder (its own site).
        let occurrence = site == "step.partial-sync" ? 1 : 0
        let seen = LockedCounter()
        let faulty = FileSystem { _, reached in
            guard reached == site else { return nil }
            return seen.next() == occurrence ? .crash : nil
        }
        #expect(throws: SimulatedCrash.self) {
            try upgrader(fileSystem: faulty).upgradeIfNeededSynchronously(storeAt: store)
        }
        #expect(StoreBytes(store) == before)
        let report = try upgrader().upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.to == Self.v3.name)
        #expect(try content() == expected)
    }
}

/// Counts calls from any thread.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    /// The number of earlier calls.
    func next() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }
}
