import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// Which pages the one-transaction path checks (`UpgradeRun+OneTransaction`, "Which pages are
/// checked"): those its statements load, with `cell_size_check`, and every page with the full
/// verification. Damage the transaction loads is refused as a damaged store, byte-identical;
/// damage it never loads is carried as it was, neither made nor hidden.
@Suite("upgradeIfNeeded: damage and the one-transaction path")
struct OneTransactionDamageTests {
    static let v1 = ObjectModel("Shelf", versionIdentifiers: ["1"]) {
        Entity("Note") {
            Attribute("title", .string)
            Attribute("body", .string)
        }
        Entity("Tag") {
            Attribute("label", .string).indexed()
        }
    }

    /// `Note.body` dropped: SQLite rewrites every page of `ZNOTE`, and loads none of `ZTAG`'s
    /// (the step counts its rows through the index on `label`, which is smaller).
    static let v2 = ObjectModel("Shelf 2", versionIdentifiers: ["2"]) {
        Entity("Note") {
            Attribute("title", .string)
        }
        Entity("Tag") {
            Attribute("label", .string).indexed()
        }
    }

    /// The file-system sites an upgrade reached: the copy path's first is `work.mkdir`.
    final class Sites: @unchecked Sendable {
        private let lock = NSLock()
        private var reached: [String] = []
        func record(_ site: String) { lock.withLock { reached.append(site) } }
        /// Whether the copy path began (made its work folder).
        var copyPathBegan: Bool { lock.withLock { reached.contains("work.mkdir") } }
    }

    static func upgrader(verification: UpgradeOptions.Verification = .quick, sites: Sites = Sites()) throws
        -> Upgrader
    {
        var options = UpgradeOptions(targetVersion: v2.name, verification: verification, lockTimeout: .seconds(30))
        options.fileSystem = FileSystem(inject: { _, site in
            sites.record(site)
            return nil
        })
        return try Upgrader(history: VersionHistory([v1, v2]), mappings: [:], stages: [], options: options)
    }

    /// A store at v1 with a few notes and tags (each table one page), in `journalMode`: WAL, as
    /// Core Data's stores, or a rollback journal, where the full check runs first on the
    /// upgrade's connection.
    static func store(in directory: TemporaryDirectory, journalMode: String = "wal") throws -> URL {
        let url = directory.path("Shelf.sqlite")
        try StoreCreator.createStore(at: url, model: v1)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: v1))
            for index in 0..<5 {
                _ = try objects.insert("Note", ["title": "note \(index)", "body": "body \(index)"])
                _ = try objects.insert("Tag", ["label": "tag \(index)"])
            }
        }
        // Outside a transaction, as the journal mode can only change there.
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = \(journalMode)") }
        try queue.close()
        #expect(StoreGeneration(mainFile: url).hasNothingToFoldIn)
        return url
    }

    /// The root page of `table`: its only page, in these stores.
    static func rootPage(of table: String, in url: URL) throws -> Int {
        let page = try DatabaseQueue(path: url.path).read { db in
            try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = ?", arguments: [table])
        }
        return try #require(page)
    }

    /// ``store(in:journalMode:)`` with `table`'s only page overwritten with zeros. Returns the
    /// store and that page's number.
    static func damagedStore(in directory: TemporaryDirectory, zeroing table: String, journalMode: String = "wal")
        throws -> (URL, Int)
    {
        let url = try store(in: directory, journalMode: journalMode)
        let page = try rootPage(of: table, in: url)
        var bytes = try Data(contentsOf: url)
        bytes.replaceSubrange((page - 1) * 4_096..<page * 4_096, with: Data(count: 4_096))
        try bytes.write(to: url)
        return (url, page)
    }

    /// Points the first cell of page `number` (a b-tree leaf, not page 1: its cell pointers
    /// start at byte 8) at the page's last byte, so the cell runs past the page's end: damage
    /// inside a page whose header is sound. (SQLite finds this one as it parses the cell even
    /// without `cell_size_check`, which adds the bounds check of every cell as the page loads.)
    static func misplaceFirstCell(ofPage number: Int, in url: URL) throws {
        var bytes = try Data(contentsOf: url)
        let start = (number - 1) * 4_096
        bytes[start + 8] = 0x0F
        bytes[start + 9] = 0xFF
        try bytes.write(to: url)
    }

    static func page(_ number: Int, of url: URL) throws -> Data {
        let bytes = try Data(contentsOf: url)
        return bytes.subdata(in: (number - 1) * 4_096..<number * 4_096)
    }

    /// Upgrades the store at `url`, expecting the transaction itself to refuse it as a damaged
    /// store: a `StoreError` with SQLite's `SQLITE_CORRUPT`, the copy path never begun, and
    /// the file byte-identical. Returns the error for further checks.
    @discardableResult
    static func expectRefusedAsDamage(
        _ url: URL, verification: UpgradeOptions.Verification = .quick,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> StoreError {
        let before = try Data(contentsOf: url)
        let sites = Sites()
        let error = try #require(throws: StoreError.self, sourceLocation: sourceLocation) {
            try upgrader(verification: verification, sites: sites).upgradeIfNeededSynchronously(storeAt: url)
        }
        // Refused by the transaction itself, not by the copy path after a fallback.
        #expect(!sites.copyPathBegan, sourceLocation: sourceLocation)
        if case .sqlite(let code, _) = error.kind {
            #expect(code & 0xFF == 11, "SQLITE_CORRUPT: \(error)", sourceLocation: sourceLocation)
        } else {
            Issue.record("not SQLite's damage: \(error)", sourceLocation: sourceLocation)
        }
        #expect(try Data(contentsOf: url) == before, sourceLocation: sourceLocation)
        return error
    }

    @Test("damage in a page the transaction loads is refused as a damaged store, the file byte-identical")
    func damageTheStepReadsIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-one-transaction-damage")
        let (url, _) = try Self.damagedStore(in: directory, zeroing: "ZNOTE")
        let error = try Self.expectRefusedAsDamage(url)
        #expect(error.path == url.path)
    }

    @Test("damage in a page no statement loads is carried as it was: the upgrade neither makes nor hides it")
    func damageNoStatementLoadsIsCarried() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-one-transaction-damage")
        let (url, page) = try Self.damagedStore(in: directory, zeroing: "ZTAG")
        let damaged = try Self.page(page, of: url)
        let report = try Self.upgrader().upgradeIfNeededSynchronously(storeAt: url)
        #expect(report.path == .oneTransaction)
        #expect(report.to == "Shelf 2")
        #expect(try Self.page(page, of: url) == damaged)
        // quick_check still finds what was there: the next full check, or Core Data, meets it as
        // before. A zeroed root page makes quick_check fail outright rather than list problems.
        let sound: Bool
        do {
            sound = try DatabaseQueue(path: url.path).read { db in
                try String.fetchAll(db, sql: "PRAGMA quick_check") == ["ok"]
            }
        } catch {
            sound = false
        }
        #expect(!sound)
    }

    @Test(
        "the full verification checks every page first: the same damage is refused",
        arguments: ["wal", "delete"])
    func fullVerificationRefusesAnyDamage(journalMode: String) throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-one-transaction-damage")
        let (url, _) = try Self.damagedStore(in: directory, zeroing: "ZTAG", journalMode: journalMode)
        // The store the quick level upgrades (above): only the check of every page finds it.
        try Self.expectRefusedAsDamage(url, verification: .full)
    }

    @Test("a cell that runs past its page, in a page the transaction loads, is refused as damage")
    func aMisplacedCellIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-one-transaction-damage")
        let url = try Self.store(in: directory)
        try Self.misplaceFirstCell(ofPage: try Self.rootPage(of: "ZNOTE", in: url), in: url)
        try Self.expectRefusedAsDamage(url)
    }
}
