import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// `@count` and `sum:` of a one-to-many: triggers on the destination's table that add and
/// subtract as its rows come, move and go (decompiled Core Data; no corpus store has one).
@Suite("Derived attribute layout: counts and sums of a to-many")
struct DerivedAttributeToManyTests {
    static let model = ObjectModel("Shop") {
        Entity("Order") {
            DerivedAttributeLayoutTests.derived(
                "itemCount", .integer64, Derivation(expression: "items.@count", kind: .count(relationship: ["items"])))
            DerivedAttributeLayoutTests.derived(
                "total", .integer64,
                Derivation(
                    expression: "sum:(items.price)", kind: .aggregate(.sum, relationship: ["items"], attribute: "price")
                ))
            Relationship("items", to: "Item", inverse: "order").toMany()
        }
        Entity("Item") {
            Attribute("price", .integer64)
            Relationship("order", to: "Order", inverse: "items")
        }
    }

    @Test("the count's triggers, as Core Data names and writes them")
    func countTriggerTexts() throws {
        let layout = try StoreLayout(model: Self.model)
        let count = try #require(layout.derivedAttributes.first { $0.attributeName == "itemCount" })
        #expect(
            count.triggerNames == [
                "Z_DA_ZITEM_Order_itemCount_PARAMETER_INSERT", "Z_DA_ZITEM_Order_itemCount_PARAMETER_UPDATE_INCREMENT",
                "Z_DA_ZITEM_Order_itemCount_PARAMETER_UPDATE_DECREMENT", "Z_DA_ZITEM_Order_itemCount_PARAMETER_DELETE",
                "Z_DA_ZORDER_Order_itemCount_SOURCE_INSERT",
            ])
        #expect(
            count.triggerStatements[0]
                == "CREATE TRIGGER Z_DA_ZITEM_Order_itemCount_PARAMETER_INSERT AFTER INSERT ON ZITEM FOR EACH ROW WHEN "
                + "(NEW.ZORDER NOT NULL) BEGIN UPDATE ZORDER SET ZITEMCOUNT = IFNULL(ZITEMCOUNT, 0) + 1 WHERE Z_PK = "
                + "NEW.ZORDER; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZORDER', Z_ENT, Z_PK, 'itemCount', "
                + "ZITEMCOUNT) FROM ZORDER WHERE Z_PK = NEW.ZORDER; END")
        let total = try #require(layout.derivedAttributes.first { $0.attributeName == "total" })
        #expect(total.triggerStatements[1].contains("AFTER UPDATE OF ZORDER, ZPRICE ON ZITEM"))
        #expect(
            total.triggerStatements[4].contains("(SELECT IFNULL(SUM(ZPRICE), 0) FROM ZITEM WHERE ZORDER = NEW.Z_PK)"))
    }

    @Test("items added, moved, repriced and deleted keep the count and the sum, as the recompute computes them")
    func valuesFollowTheItems() throws {
        let layout = try StoreLayout(model: Self.model)
        let directory = try TemporaryDirectory(prefix: "stepwise-derived-many")
        let url = directory.path("Shop.sqlite")
        try StoreCreator.createStore(at: url, model: Self.model)
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        try queue.write { db in
            let order = layout.entity(named: "Order")!.number
            let item = layout.entity(named: "Item")!.number
            try db.execute(
                sql: #"INSERT INTO "ZORDER" ("Z_PK", "Z_ENT", "Z_OPT") VALUES (1, ?, 1), (2, ?, 1)"#,
                arguments: [order, order])
            for (pk, owner, price) in [(1, 1, 10), (2, 1, 20), (3, 1, 5), (4, 2, 7)] {
                try db.execute(
                    sql: #"INSERT INTO "ZITEM" ("Z_PK", "Z_ENT", "Z_OPT", "ZORDER", "ZPRICE") VALUES (?, ?, 1, ?, ?)"#,
                    arguments: [pk, item, owner, price])
            }
            try db.execute(sql: #"UPDATE "ZITEM" SET "ZORDER" = 2 WHERE "Z_PK" = 2"#)
            try db.execute(sql: #"UPDATE "ZITEM" SET "ZPRICE" = 6 WHERE "Z_PK" = 3"#)
            try db.execute(sql: #"DELETE FROM "ZITEM" WHERE "Z_PK" = 1"#)
        }
        let byTriggers = try queue.read { db in
            try Row.fetchAll(db, sql: #"SELECT "ZITEMCOUNT", "ZTOTAL" FROM "ZORDER" ORDER BY "Z_PK""#)
        }
        #expect(byTriggers.map { [$0[0] as Int64?, $0[1] as Int64?] } == [[1, 6], [2, 27]])
        let recomputed = try queue.write { db in
            try db.execute(sql: #"UPDATE "ZORDER" SET "ZITEMCOUNT" = NULL, "ZTOTAL" = NULL"#)
            for derived in layout.derivedAttributes { try db.execute(sql: derived.recomputeStatement) }
            return try Row.fetchAll(db, sql: #"SELECT "ZITEMCOUNT", "ZTOTAL" FROM "ZORDER" ORDER BY "Z_PK""#)
        }
        #expect(recomputed == byTriggers)
    }
}
