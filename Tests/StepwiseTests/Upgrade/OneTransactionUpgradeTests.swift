import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// Steps that change only the schema run on the store itself, in one SQLite transaction, with no
/// copy (issue 46): the store keeps its inode, no work folder is made, and a failure leaves the
/// main file byte-identical. A backup, a stage or rows in the `-wal` take the copy path.
@Suite("upgradeIfNeeded: schema-only steps in one transaction on the store")
struct OneTransactionUpgradeTests {
    enum Notes {
        static let v1 = ObjectModel("Notes", versionIdentifiers: ["1"]) {
            Entity("Note") {
                Attribute("title", .string)
                Attribute("body", .string).optional()
            }
        }

        /// An attribute added with a default, and one removed.
        static let v2 = ObjectModel("Notes 2", versionIdentifiers: ["2"]) {
            Entity("Note") {
                Attribute("title", .string)
                Attribute("pinned", .boolean).defaultValue("NO")
            }
        }

        /// `title` renamed `name`, and indexed.
        static let v3 = ObjectModel("Notes 3", versionIdentifiers: ["3"]) {
            Entity("Note") {
                Attribute("name", .string).renamed(from: "title").indexed()
                Attribute("pinned", .boolean).defaultValue("NO")
            }
        }

        /// `name` made unique: the notes seeded with one title break it.
        static let v4Unique = ObjectModel("Notes 4", versionIdentifiers: ["4"]) {
            Entity("Note") {
                Attribute("name", .string)
                Attribute("pinned", .boolean).defaultValue("NO")
                Unique("name")
            }
        }

        static func upgrader(
            _ versions: [ObjectModel], keepBackup: Bool = false, stages: [MigrationStage] = [],
            progress: (@Sendable (UpgradeEvent) -> Void)? = nil
        ) throws -> Upgrader {
            try Upgrader(
                history: VersionHistory(versions), mappings: [:], stages: stages,
                options: UpgradeOptions(
                    targetVersion: versions.last?.name, keepBackup: keepBackup, lockTimeout: .seconds(30),
                    progress: progress))
        }
    }

    /// A store at `Notes.v1` with `count` notes, each titled `title` or "note <n>".
    static func store(in directory: TemporaryDirectory, count: Int = 50, title: String? = nil) throws -> URL {
        let url = directory.path("Notes.sqlite")
        try StoreCreator.createStore(at: url, model: Notes.v1)
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: Notes.v1))
            for index in 0..<count {
                _ = try objects.insert("Note", ["title": title ?? "note \(index)", "body": "body \(index)"])
            }
        }
        try queue.close()
        return url
    }

    static func inode(of url: URL) throws -> UInt64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return try #require((attributes[.systemFileNumber] as? NSNumber)?.uint64Value)
    }

    /// Events seen, for a check of what the run did (a copy announces itself).
    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [UpgradeEvent] = []
        func record(_ event: UpgradeEvent) { lock.withLock { seen.append(event) } }
        var copied: Bool {
            lock.withLock { seen.contains { if case .copying = $0 { return true } else { return false } } }
        }
    }

    @Test("inferred schema-only steps alter the store itself: same inode, every value kept, no work folder")
    func schemaOnlyChainRunsOnTheStore() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-one-transaction")
        let url = try Self.store(in: directory)
        let inode = try Self.inode(of: url)
        let events = Events()
        let report = try Notes.upgrader([Notes.v1, Notes.v2, Notes.v3], progress: events.record)
            .upgradeIfNeededSynchronously(storeAt: url)
        #expect(report.outcome == .upgraded)
        #expect(report.path == .oneTransaction)
        #expect(report.copyReason == nil)
        #expect(report.steps.last?.to == "Notes 3")
        #expect(report.steps.allSatisfy { $0.strategy == .inPlace })
        #expect(!events.copied)
        #expect(try Self.inode(of: url) == inode)
        #expect(!FileManager.default.fileExists(atPath: StoreFiles(store: url).workDirectory.path))
        // The drop of `body` is counted in the store before the step ran.
        #expect(report.steps.flatMap(\.drops).contains { $0.property == "body" && $0.count == 50 })
        let snapshot = try StoreSnapshot(of: url)
        defer { snapshot.close() }
        try snapshot.database.read { db in
            let names = try String.fetchAll(db, sql: #"SELECT "ZNAME" FROM "ZNOTE" ORDER BY "Z_PK""#)
            #expect(names == (0..<50).map { "note \($0)" })
            #expect(try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "ZNOTE" WHERE "ZPINNED" = 0"#) == 50)
            let metadata = try StoreMetadata.read(from: db, path: url.path)
            #expect(Notes.v3.isCompatible(withEntityHashes: metadata.versionHashes))
        }
        // Up to date afterwards, by the cheap test.
        #expect(try Notes.upgrader([Notes.v1, Notes.v2, Notes.v3]).needsUpgrade(storeAt: url) == false)
    }

    @Test("a failing schema-only step rolls the transaction back: the main file is byte-identical")
    func failureLeavesTheStoreByteIdentical() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-one-transaction")
        let url = try Self.store(in: directory, count: 3, title: "same")
        let before = try Data(contentsOf: url)
        let error = try #require(throws: UpgradeError.self) {
            try Notes.upgrader([Notes.v1, Notes.v2, Notes.v3, Notes.v4Unique]).upgradeIfNeededSynchronously(
                storeAt: url)
        }
        // The step that made `name` unique fails, naming the clash: three notes named "same".
        guard case .stepFailed(_, _, _, let to, let underlying) = error.kind,
            let clash = underlying as? MappingError, case .notUnique(let value, let rows) = clash.kind
        else {
            Issue.record("not the uniqueness clash: \(error)")
            return
        }
        #expect(to == "Notes 4")
        #expect(clash.entity == "Note")
        #expect(clash.property == "name")
        #expect(value == "\"same\"")
        #expect(rows.count >= 2)
        #expect(try Data(contentsOf: url) == before)
        let generation = StoreGeneration(mainFile: url)
        #expect(generation.hasNothingToFoldIn)
        #expect(!FileManager.default.fileExists(atPath: StoreFiles(store: url).workDirectory.path))
    }

    @Test("a backup, a stage or rows in the -wal take the copy path", arguments: ["backup", "stage", "wal"])
    func copyPathWhenRequired(reason: String) throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-one-transaction")
        let url = try Self.store(in: directory)
        if reason == "wal" {
            try WALWriter.write(to: url) { db in
                _ = try ObjectContext(db, layout: StoreLayout(model: Notes.v1)).insert("Note", ["title": "in the WAL"])
            }
        }
        let inode = try Self.inode(of: url)
        let events = Events()
        let stages = reason == "stage" ? [MigrationStage(from: "Notes", to: "Notes 2", didMigrate: { _, _ in })] : []
        let report = try Notes.upgrader(
            [Notes.v1, Notes.v2], keepBackup: reason == "backup", stages: stages, progress: events.record
        )
        .upgradeIfNeededSynchronously(storeAt: url)
        #expect(report.outcome == .upgraded)
        #expect(report.path == .copyAndSwap)
        let expected = ["backup": "keeps a backup", "stage": "has a stage", "wal": "-wal"][reason] ?? "?"
        #expect(report.copyReason?.contains(expected) == true)
        // The copy path swaps a new file in: another inode.
        #expect(try Self.inode(of: url) != inode)
        let snapshot = try StoreSnapshot(of: url)
        defer { snapshot.close() }
        let count = try snapshot.database.read { db in try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "ZNOTE""#) }
        #expect(count == (reason == "wal" ? 51 : 50))
    }

    @Test("plan predicts the path and its reason, as the upgrade then takes it")
    func planPredictsThePath() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-one-transaction")
        let url = try Self.store(in: directory)
        let versions = [Notes.v1, Notes.v2, Notes.v3]
        let prepared = try Notes.upgrader(versions).plan(forStoreAt: url)
        #expect(prepared.path == .oneTransaction)
        #expect(prepared.copyReason == nil)
        let withBackup = try Notes.upgrader(versions, keepBackup: true).plan(forStoreAt: url)
        #expect(withBackup.path == .copyAndSwap)
        #expect(withBackup.copyReason?.contains("keeps a backup") == true)
        let staged = try Notes.upgrader(
            [Notes.v1, Notes.v2], stages: [MigrationStage(from: "Notes", to: "Notes 2", didMigrate: { _, _ in })]
        )
        .plan(forStoreAt: url)
        #expect(staged.path == .copyAndSwap)
        #expect(staged.copyReason == "step 'Notes' → 'Notes 2' has a stage (app code)")
        #expect(try Notes.upgrader(versions).upgradeIfNeededSynchronously(storeAt: url).path == prepared.path)
    }

    /// A widening (`count`: integer → string) that rewrites rows, then a step that only adds and
    /// renames. The first is marked by a stage so the planner keeps the two steps apart.
    enum Widening {
        static let v1 = ObjectModel("Items", versionIdentifiers: ["1"]) {
            Entity("Item") {
                Attribute("count", .integer16)
                Attribute("label", .string)
            }
        }
        static let v2 = ObjectModel("Items 2", versionIdentifiers: ["2"]) {
            Entity("Item") {
                Attribute("count", .string)
                Attribute("label", .string)
            }
        }
        static let v3 = ObjectModel("Items 3", versionIdentifiers: ["3"]) {
            Entity("Item") {
                Attribute("count", .string)
                Attribute("name", .string).renamed(from: "label")
                Attribute("stars", .integer16).defaultValue("0")
            }
        }
        static let stage = MigrationStage(from: "Items", to: "Items 2", didMigrate: { _, _ in })
    }

    @Test("a chain that rebuilds, then only alters: one copy, the rest altered in place, as plan says")
    func aRebuildThenSchemaOnlyStepsAltersTheRebuiltStore() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-one-transaction")
        let url = directory.path("Items.sqlite")
        try StoreCreator.createStore(at: url, model: Widening.v1)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: Widening.v1))
            for value in [1, 22, 333] { _ = try objects.insert("Item", ["count": value, "label": "item \(value)"]) }
        }
        try queue.close()
        let upgrader = try Notes.upgrader([Widening.v1, Widening.v2, Widening.v3], stages: [Widening.stage])
        let prepared = try upgrader.plan(forStoreAt: url)
        #expect(prepared.path == .copyAndSwap)
        #expect(prepared.rowRewrites == ["has a stage (app code)", nil])
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: url)
        #expect(report.path == .copyAndSwap)
        #expect(report.copyReason == "step 'Items' → 'Items 2' has a stage (app code)")
        // Step 1 writes a new store; step 2 alters that store, with no copy of its own.
        #expect(report.steps.map(\.strategy) == [.rebuild, .inPlace])
        let snapshot = try StoreSnapshot(of: url)
        defer { snapshot.close() }
        let rows = try snapshot.database.read { db in
            try Row.fetchAll(db, sql: #"SELECT "ZCOUNT", "ZNAME", "ZSTARS" FROM "ZITEM" ORDER BY "Z_PK""#)
        }
        #expect(rows.map { $0["ZCOUNT"] as String? } == ["1", "22", "333"])
        #expect(rows.map { $0["ZNAME"] as String? } == ["item 1", "item 22", "item 333"])
        #expect(rows.map { $0["ZSTARS"] as Int? } == [0, 0, 0])
    }
}
