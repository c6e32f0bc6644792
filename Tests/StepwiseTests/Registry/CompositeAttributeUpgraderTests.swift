import Foundation
import GRDB
import Stepwise
import StepwiseTesting
import Testing

/// The library takes a bundle with a composite attribute where an app meets it (issue 43): the
/// upgrader's first upgrade, a registry built from the bundle, and a store created for it.
@Suite("Composite attributes in the library")
struct CompositeAttributeUpgraderTests {
    @Test func theUpgraderAddsACompositeAndTheRegistryKnowsItsStores() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-composite-library")
        let bundle = directory.path("Library.xcdatamodeld")
        let store = directory.path("Library.sqlite")
        let first = ObjectModel("Library") { Entity("Book") { Attribute("title", .string) } }
        let second = ObjectModel("Library 2") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute.composite("author", elements: [Attribute("person", .string), Attribute("year", .integer64)])
            }
        }
        try XcodeModelWriter.writeBundle([first, second], current: "Library 2", to: bundle)
        try StoreCreator.createStore(at: store, model: first)
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: #"INSERT INTO "ZBOOK" ("Z_PK", "Z_ENT", "Z_OPT", "ZTITLE") VALUES (1, 1, 1, 'Emma')"#)
            try db.execute(sql: #"UPDATE "Z_PRIMARYKEY" SET "Z_MAX" = 1 WHERE "Z_NAME" = 'Book'"#)
        }

        let report = try Upgrader(bundleAt: bundle).upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.from == "Library")
        #expect(report.to == "Library 2")
        let row = try DatabaseQueue(path: store.path).read { db in
            try Row.fetchOne(db, sql: #"SELECT "ZTITLE", "ZPERSON", "ZYEAR" FROM "ZBOOK""#).map { "\($0)" }
        }
        #expect(row == #"[ZTITLE:"Emma" ZPERSON:NULL ZYEAR:NULL]"#)
        #expect(
            try VersionRegistry(history: VersionHistory([first, second])).identify(storeAt: store).version?.name
                == "Library 2")
        try StoreCreator.createStore(at: directory.path("New.sqlite"), model: second)
        #expect(
            try VersionRegistry(history: VersionHistory([first, second])).identify(
                storeAt: directory.path("New.sqlite")
            )
            .version?.name == "Library 2")
    }
}
