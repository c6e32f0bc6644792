import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// Every connection Stepwise writes a store through registers Core Data's trigger functions
/// (``CoreDataSQLFunctions``): a store with Core Data's triggers takes writes from a step, and
/// from the app's own connection after the upgrade, without "no such function".
@Suite("Core Data's trigger functions on every write connection")
struct WriteConnectionSitesTests {
    enum Notes {
        static let v1 = ObjectModel("Notes", versionIdentifiers: ["1"]) {
            Entity("Note") {
                Attribute("title", .string)
                Attribute("titleLower", .string)
            }
        }

        /// An optional attribute more on the same entity: the step runs in place.
        static let v2 = ObjectModel("Notes 2", versionIdentifiers: ["2"]) {
            Entity("Note") {
                Attribute("title", .string)
                Attribute("titleLower", .string)
                Attribute("body", .string)
            }
        }

        static let history = VersionHistory([v1, v2])

        static func upgrader() throws -> Upgrader {
            try Upgrader(history: history, mappings: [:], options: UpgradeOptions(targetVersion: "Notes 2"))
        }
    }

    /// Triggers shaped as Core Data's own (`Z_DA_…` and `ZT_…` in the Photos stores of the
    /// corpus, `real-stores/RhetTbull-PhotoScript`, macOS 15): each calls a notification
    /// function, and two compute a value with `NSCoreDataToLower`. The `ZT_…` ones are kept by
    /// an in-place step; the `Z_DA_…` one is replaced by the destination's derivations (none).
    static let coreDataStyleTriggers = [
        """
        CREATE TRIGGER "ZT_ZNOTE_TITLELOWER_UPDATE" AFTER UPDATE OF "ZTITLE" ON "ZNOTE" FOR EACH ROW BEGIN \
        UPDATE "ZNOTE" SET "ZTITLELOWER" = NSCoreDataToLower(NEW."ZTITLE") WHERE "Z_PK" = NEW."Z_PK"; \
        SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('ZNOTE', "Z_ENT", "Z_PK", 'titleLower', \
        "ZTITLELOWER") FROM "ZNOTE" WHERE "Z_PK" = NEW."Z_PK"; END
        """,
        """
        CREATE TRIGGER "ZT_ZNOTE_TITLELOWER_INSERT" AFTER INSERT ON "ZNOTE" FOR EACH ROW BEGIN \
        UPDATE "ZNOTE" SET "ZTITLELOWER" = NSCoreDataToLower(NEW."ZTITLE") WHERE "Z_PK" = NEW."Z_PK"; END
        """,
        """
        CREATE TRIGGER "Z_DA_ZNOTE_ZTITLE_NOTIFY" AFTER UPDATE OF "ZTITLE" ON "ZNOTE" FOR EACH ROW BEGIN \
        SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZNOTE', NEW."Z_ENT", NEW."Z_PK", 'title', \
        NEW."ZTITLE"); END
        """,
        """
        CREATE TRIGGER "ZT_Z_METADATA_UPDATE" AFTER UPDATE ON "Z_METADATA" FOR EACH ROW BEGIN \
        SELECT NSCoreDataTriggerUpdateAffectedObjectValue('Z_METADATA', 0, NEW."Z_VERSION", 'Z_PLIST', 0); END
        """,
        """
        CREATE TRIGGER "ZT_Z_PRIMARYKEY_UPDATE" AFTER UPDATE ON "Z_PRIMARYKEY" FOR EACH ROW BEGIN \
        SELECT NSCoreDataTriggerUpdateAffectedObjectValue('Z_PRIMARYKEY', 0, NEW."Z_ENT", 'Z_MAX', NEW."Z_MAX"); END
        """,
    ]

    /// A store of `model` with the Core Data-style triggers and one note.
    static func store(_ model: ObjectModel, in directory: TemporaryDirectory) throws -> URL {
        let url = directory.path("Notes.sqlite")
        try StoreCreator.createStore(at: url, model: model)
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        try queue.write { db in
            for trigger in coreDataStyleTriggers { try db.execute(sql: trigger) }
            _ = try ObjectContext(db, layout: try StoreLayout(model: model)).insert("Note", ["title": "Grocery LIST"])
        }
        try queue.close()
        return url
    }

    static func triggerNames(at url: URL) throws -> [String] {
        let snapshot = try StoreSnapshot(of: url)
        defer { snapshot.close() }
        return try snapshot.database.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        }
    }

    static func titles(in queue: some DatabaseReader) throws -> [[String?]] {
        try queue.read { db in
            try Row.fetchAll(db, sql: #"SELECT "ZTITLE", "ZTITLELOWER" FROM "ZNOTE" ORDER BY "Z_PK""#)
                .map { [$0[0], $0[1]] }
        }
    }

    @Test("a connection without the functions fails on Core Data's triggers; one with them writes")
    func configurationRegistersTheFunctions() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-write-sites")
        let url = try Self.store(Notes.v1, in: directory)
        let bare = try DatabaseQueue(path: url.path)
        let error = try #require(throws: DatabaseError.self) {
            try bare.write { db in try db.execute(sql: #"UPDATE "ZNOTE" SET "ZTITLE" = 'x'"#) }
        }
        #expect(error.message?.contains("no such function") == true)
        try bare.close()

        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        try queue.write { db in try db.execute(sql: #"UPDATE "ZNOTE" SET "ZTITLE" = 'Ça Va'"#) }
        #expect(try Self.titles(in: queue) == [["Ça Va", "ça va"]])
        try queue.close()
    }

    @Test("NSCoreDataNow reads the clock the configuration is given")
    func fixedClock() throws {
        let now = Date(timeIntervalSinceReferenceDate: 725_846_400)
        let queue = try DatabaseQueue(configuration: Configuration().registeringCoreDataTriggerFunctions { now })
        let value = try queue.read { db in try Double.fetchOne(db, sql: "SELECT NSCoreDataNow()") }
        #expect(value == 725_846_400)
    }

    @Test("an in-place step writes a store with Core Data's triggers, and the app's queue and pool write it after")
    func stepThenAppConnections() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-write-sites")
        let url = try Self.store(Notes.v1, in: directory)
        let upgrader = try Notes.upgrader()
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: url)
        #expect(report.steps.map(\.strategy) == [.inPlace])
        #expect(try Self.triggerNames(at: url).allSatisfy { $0.hasPrefix("ZT_") })
        #expect(try Self.triggerNames(at: url).count == 4)

        var queue: DatabaseQueue? = try upgrader.openDatabaseQueue(storeAt: url)
        try queue?.write { db in try db.execute(sql: #"UPDATE "ZNOTE" SET "ZTITLE" = 'From The Queue'"#) }
        #expect(try queue.map(Self.titles) == [["From The Queue", "from the queue"]])
        try queue?.close()
        queue = nil

        var pool: DatabasePool? = try upgrader.openDatabasePool(storeAt: url)
        try pool?.write { db in try db.execute(sql: #"UPDATE "ZNOTE" SET "ZTITLE" = 'From The POOL'"#) }
        #expect(try pool.map(Self.titles) == [["From The POOL", "from the pool"]])
        try pool?.close()
        pool = nil
    }

    @Test("a rebuilding step reads a source with Core Data's triggers")
    func rebuildingStep() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-write-sites")
        let url = try Self.store(Notes.v1, in: directory)
        let v3 = ObjectModel("Notes 3", versionIdentifiers: ["3"]) {
            Entity("Folder") { Attribute("name", .string) }
            Entity("Note") {
                Attribute("title", .string)
                Attribute("titleLower", .string)
            }
        }
        // A willMigrate hook sees the source's rows: the step rebuilds.
        let upgrader = try Upgrader(
            history: VersionHistory([Notes.v1, v3]), mappings: [:],
            stages: [MigrationStage(from: Notes.v1.name, to: "Notes 3", willMigrate: { _, _ in })],
            options: UpgradeOptions(targetVersion: "Notes 3"))
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: url)
        #expect(report.steps.map(\.strategy) == [.rebuild])
        let snapshot = try StoreSnapshot(of: url)
        defer { snapshot.close() }
        #expect(try Self.titles(in: snapshot.database) == [["Grocery LIST", "grocery list"]])
    }
}
