import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// `min:`/`max:` of a one-to-many, a many-to-many's `@count`, and relationships to the entity
/// itself (decompiled Core Data; no corpus store has these shapes).
@Suite("Derived attribute layout: extremes, many-to-many counts, self-references")
struct DerivedAttributeExtremesTests {
    static let model = ObjectModel("Shop") {
        Entity("Order") {
            DerivedAttributeLayoutTests.derived(
                "cheapest", .integer64,
                Derivation(
                    expression: "min:(items.price)", kind: .aggregate(.min, relationship: ["items"], attribute: "price")
                ))
            DerivedAttributeLayoutTests.derived(
                "dearest", .integer64,
                Derivation(
                    expression: "max:(items.price)", kind: .aggregate(.max, relationship: ["items"], attribute: "price")
                ))
            DerivedAttributeLayoutTests.derived(
                "tagCount", .integer64, Derivation(expression: "tags.@count", kind: .count(relationship: ["tags"])))
            Relationship("items", to: "Item", inverse: "order").toMany()
            Relationship("tags", to: "Tag", inverse: "orders").toMany()
        }
        Entity("Item") {
            Attribute("price", .integer64)
            Relationship("order", to: "Order", inverse: "items")
        }
        Entity("Tag") {
            Relationship("orders", to: "Order", inverse: "tags").toMany()
        }
    }

    @Test("min:'s triggers, as decompiled Core Data names and writes them")
    func minimumTriggerTexts() throws {
        let layout = try StoreLayout(model: Self.model)
        let cheapest = try #require(layout.derivedAttributes.first { $0.attributeName == "cheapest" })
        #expect(
            cheapest.triggerNames == [
                "Z_DA_ZITEM_Order_cheapest_INSERT", "Z_DA_ZITEM_Order_cheapest_UPDATE_SET",
                "Z_DA_ZITEM_Order_cheapest_UPDATE_UNSET", "Z_DA_ZITEM_Order_cheapest_DELETE",
                "Z_DA_ZORDER_Order_cheapest_INSERT",
            ])
        #expect(
            cheapest.triggerStatements[0]
                == "CREATE TRIGGER Z_DA_ZITEM_Order_cheapest_INSERT AFTER INSERT ON ZITEM FOR EACH ROW WHEN "
                + "(NEW.ZORDER NOT NULL AND NEW.ZPRICE NOT NULL) BEGIN UPDATE ZORDER SET ZCHEAPEST = NEW.ZPRICE WHERE "
                + "Z_PK = NEW.ZORDER AND (ZCHEAPEST IS NULL OR NEW.ZPRICE < ZCHEAPEST); SELECT "
                + "NSCoreDataDATriggerUpdatedAffectedObjectValue('ZORDER', Z_ENT, Z_PK, 'cheapest', ZCHEAPEST) FROM "
                + "ZORDER WHERE Z_PK = NEW.ZORDER AND (ZCHEAPEST IS NULL OR NEW.ZPRICE <= ZCHEAPEST); END")
        #expect(
            cheapest.triggerStatements[2]
                == "CREATE TRIGGER Z_DA_ZITEM_Order_cheapest_UPDATE_UNSET AFTER UPDATE OF ZORDER, ZPRICE ON ZITEM FOR "
                + "EACH ROW WHEN (OLD.ZORDER NOT NULL AND OLD.ZPRICE NOT NULL AND (NEW.ZORDER IS NULL OR NEW.ZPRICE IS "
                + "NULL)) BEGIN UPDATE ZORDER SET ZCHEAPEST = (SELECT MIN(ZPRICE) FROM ZITEM WHERE ZORDER = OLD.ZORDER) "
                + "WHERE Z_PK = OLD.ZORDER AND OLD.ZPRICE <= ZCHEAPEST; SELECT "
                + "NSCoreDataDATriggerUpdatedAffectedObjectValue('ZORDER', Z_ENT, Z_PK, 'cheapest', ZCHEAPEST) FROM "
                + "ZORDER WHERE Z_PK = OLD.ZORDER AND (ZCHEAPEST IS NULL OR OLD.ZPRICE <= ZCHEAPEST); END")
        let dearest = try #require(layout.derivedAttributes.first { $0.attributeName == "dearest" })
        #expect(dearest.triggerStatements[1].contains("(SELECT MAX(ZPRICE) FROM ZITEM WHERE ZORDER = OLD.ZORDER)"))
        #expect(dearest.triggerStatements[1].contains("AND OLD.ZPRICE >= ZDEAREST;"))
    }

    @Test("a many-to-many's count: three triggers, on the join table and the entity's table")
    func manyToManyCountTriggerTexts() throws {
        let layout = try StoreLayout(model: Self.model)
        let count = try #require(layout.derivedAttributes.first { $0.attributeName == "tagCount" })
        let join = try #require(layout.entity(named: "Order")?.relationship(named: "tags")?.joinTableName)
        #expect(
            count.triggerNames == [
                "Z_DA_\(join)_Order_tagCount_PARAMETER_INSERT", "Z_DA_\(join)_Order_tagCount_PARAMETER_DELETE",
                "Z_DA_ZORDER_Order_tagCount_SOURCE_INSERT",
            ])
        #expect(count.triggerStatements[0].contains("SET ZTAGCOUNT = IFNULL(ZTAGCOUNT, 0) + 1 WHERE Z_PK = NEW."))
    }

    @Test("items added, moved, repriced, cleared and deleted keep min: and max:, as the recompute computes them")
    func extremesFollowTheItems() throws {
        try withStore { db, layout in
            let order = layout.entity(named: "Order")!.number
            let item = layout.entity(named: "Item")!.number
            try db.execute(
                sql: #"INSERT INTO "ZORDER" ("Z_PK", "Z_ENT", "Z_OPT") VALUES (1, ?, 1), (2, ?, 1), (3, ?, 1)"#,
                arguments: [order, order, order])
            for (pk, owner, price) in [(1, 1, 10), (2, 1, 20), (3, 1, 5), (4, 2, 7), (5, 2, 9)] {
                try db.execute(
                    sql: #"INSERT INTO "ZITEM" ("Z_PK", "Z_ENT", "Z_OPT", "ZORDER", "ZPRICE") VALUES (?, ?, 1, ?, ?)"#,
                    arguments: [pk, item, owner, price])
            }
            #expect(try extremes(db) == [[5, 20], [7, 9], [nil, nil]])
            try db.execute(sql: #"UPDATE "ZITEM" SET "ZPRICE" = 30 WHERE "Z_PK" = 3"#)  // the minimum rises
            #expect(try extremes(db) == [[10, 30], [7, 9], [nil, nil]])
            try db.execute(sql: #"UPDATE "ZITEM" SET "ZORDER" = 3 WHERE "Z_PK" = 3"#)  // the maximum moves
            #expect(try extremes(db) == [[10, 20], [7, 9], [30, 30]])
            try db.execute(sql: #"UPDATE "ZITEM" SET "ZPRICE" = NULL WHERE "Z_PK" = 4"#)  // the minimum is cleared
            #expect(try extremes(db) == [[10, 20], [9, 9], [30, 30]])
            try db.execute(sql: #"DELETE FROM "ZITEM" WHERE "Z_PK" = 3"#)
            #expect(try extremes(db) == [[10, 20], [9, 9], [nil, nil]])
            try db.execute(
                sql: #"INSERT INTO "ZITEM" ("Z_PK", "Z_ENT", "Z_OPT", "ZORDER", "ZPRICE") VALUES (6, ?, 1, 1, 1)"#,
                arguments: [item])
            let byTriggers = try extremes(db)
            #expect(byTriggers == [[1, 20], [9, 9], [nil, nil]])
            try db.execute(sql: #"UPDATE "ZORDER" SET "ZCHEAPEST" = 99, "ZDEAREST" = 99"#)
            for derived in layout.derivedAttributes { try db.execute(sql: derived.recomputeStatement) }
            #expect(try extremes(db) == byTriggers)
        }
    }

    @Test("links added and removed keep a many-to-many's count, as the recompute computes it")
    func manyToManyCountFollowsTheLinks() throws {
        try withStore { db, layout in
            let order = layout.entity(named: "Order")!.number
            let tag = layout.entity(named: "Tag")!.number
            guard
                case .joinTable(let join, let orderColumn, let tagColumn, _) =
                    layout.entity(named: "Order")?.relationship(named: "tags")?.storage
            else {
                Issue.record("tags is not stored in a join table")
                return
            }
            try db.execute(
                sql: #"INSERT INTO "ZORDER" ("Z_PK", "Z_ENT", "Z_OPT") VALUES (1, ?, 1), (2, ?, 1)"#,
                arguments: [order, order])
            try db.execute(
                sql: #"INSERT INTO "ZTAG" ("Z_PK", "Z_ENT", "Z_OPT") VALUES (1, ?, 1), (2, ?, 1), (3, ?, 1)"#,
                arguments: [tag, tag, tag])
            let link =
                "INSERT INTO \(join.quotedSQLIdentifier) (\(orderColumn.quotedSQLIdentifier), "
                + "\(tagColumn.quotedSQLIdentifier)) VALUES (?, ?)"
            for (orderKey, tagKey) in [(1, 1), (1, 2), (1, 3), (2, 3)] {
                try db.execute(sql: link, arguments: [orderKey, tagKey])
            }
            try db.execute(
                sql: "DELETE FROM \(join.quotedSQLIdentifier) WHERE \(orderColumn.quotedSQLIdentifier) = 1 AND "
                    + "\(tagColumn.quotedSQLIdentifier) = 2")
            let counts = { try Int64?.fetchAll(db, sql: #"SELECT "ZTAGCOUNT" FROM "ZORDER" ORDER BY "Z_PK""#) }
            #expect(try counts() == [2, 1])
            try db.execute(sql: #"UPDATE "ZORDER" SET "ZTAGCOUNT" = NULL"#)
            for derived in layout.derivedAttributes { try db.execute(sql: derived.recomputeStatement) }
            #expect(try counts() == [2, 1])
        }
    }

    @Test("a to-many to the entity itself: its values recompute per row, and min:'s clashing trigger is left out")
    func selfReference() throws {
        let model = ObjectModel("Files") {
            Entity("Folder") {
                Attribute("size", .integer64)
                DerivedAttributeLayoutTests.derived(
                    "childCount", .integer64,
                    Derivation(expression: "children.@count", kind: .count(relationship: ["children"])))
                DerivedAttributeLayoutTests.derived(
                    "smallestChild", .integer64,
                    Derivation(
                        expression: "min:(children.size)",
                        kind: .aggregate(.min, relationship: ["children"], attribute: "size")))
                Relationship("children", to: "Folder", inverse: "parent").toMany()
                Relationship("parent", to: "Folder", inverse: "children")
            }
        }
        let layout = try StoreLayout(model: model)
        let smallest = try #require(layout.derivedAttributes.first { $0.attributeName == "smallestChild" })
        #expect(smallest.triggerNames.count == 4)
        let directory = try TemporaryDirectory(prefix: "stepwise-derived-self")
        let url = directory.path("Files.sqlite")
        try StoreCreator.createStore(at: url, model: model)
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        try queue.write { db in
            let folder = layout.entity(named: "Folder")!.number
            for (pk, parent, size) in [(1, nil, 100), (2, 1, 30), (3, 1, 20), (4, 2, 5)] as [(Int, Int?, Int)] {
                try db.execute(
                    sql:
                        #"INSERT INTO "ZFOLDER" ("Z_PK", "Z_ENT", "Z_OPT", "ZPARENT", "ZSIZE") VALUES (?, ?, 1, ?, ?)"#,
                    arguments: [pk, folder, parent, size])
            }
            let values = {
                try Row.fetchAll(db, sql: #"SELECT "ZCHILDCOUNT", "ZSMALLESTCHILD" FROM "ZFOLDER" ORDER BY "Z_PK""#)
                    .map { [$0[0] as Int64?, $0[1] as Int64?] }
            }
            let byTriggers = try values()
            #expect(byTriggers == [[2, 20], [1, 5], [0, nil], [0, nil]])
            try db.execute(sql: #"UPDATE "ZFOLDER" SET "ZCHILDCOUNT" = NULL, "ZSMALLESTCHILD" = NULL"#)
            for derived in layout.derivedAttributes { try db.execute(sql: derived.recomputeStatement) }
            #expect(try values() == byTriggers)
        }
    }

    @Test("min: over a destination that shares its table with other entities is refused by name")
    func sharedDestinationRefused() {
        let model = ObjectModel("Shop") {
            Entity("Order") {
                DerivedAttributeLayoutTests.derived(
                    "cheapest", .integer64,
                    Derivation(
                        expression: "min:(items.price)",
                        kind: .aggregate(.min, relationship: ["items"], attribute: "price")))
                Relationship("items", to: "Item", inverse: "order").toMany()
            }
            Entity("Item") {
                Attribute("price", .integer64)
                Relationship("order", to: "Order", inverse: "items")
            }
            Entity("Gift", parent: "Item") {}
        }
        #expect {
            _ = try StoreLayout(model: model)
        } throws: { error in
            "\(error)".contains("Order.cheapest") && "\(error)".contains("'Item' shares its table")
        }
    }

    private func withStore(_ body: (Database, StoreLayout) throws -> Void) throws {
        let layout = try StoreLayout(model: Self.model)
        let directory = try TemporaryDirectory(prefix: "stepwise-derived-extremes")
        let url = directory.path("Shop.sqlite")
        try StoreCreator.createStore(at: url, model: Self.model)
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        try queue.write { db in try body(db, layout) }
    }

    private func extremes(_ db: Database) throws -> [[Int64?]] {
        try Row.fetchAll(db, sql: #"SELECT "ZCHEAPEST", "ZDEAREST" FROM "ZORDER" ORDER BY "Z_PK""#)
            .map { [$0[0] as Int64?, $0[1] as Int64?] }
    }
}
