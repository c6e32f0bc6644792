import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// Derivations from the row's own values (`now()`, an attribute, a string function of one): two
/// triggers on the entity's table, as decompiled Core Data writes them. No corpus store has one;
/// the `now()` update trigger's text is also shown by a public write-up of a real store.
@Suite("Derived attribute layout: the row's own values")
struct DerivedAttributeSameRowTests {
    static func model(_ derivations: [(String, AttributeType, Derivation)]) -> ObjectModel {
        ObjectModel("Items") {
            Entity("Item") {
                Attribute("title", .string)
                for (name, type, derivation) in derivations {
                    DerivedAttributeLayoutTests.derived(name, type, derivation)
                }
            }
        }
    }

    @Test("now() watches Z_OPT, as Core Data's trigger does")
    func nowTriggerText() throws {
        let layout = try StoreLayout(
            model: Self.model([("update", .date, Derivation(expression: "now()", kind: .now))]))
        let derived = try #require(layout.derivedAttributes.first)
        #expect(derived.triggerNames == ["Z_DA_ZITEM_Item_update_INSERT", "Z_DA_ZITEM_Item_update_UPDATE"])
        #expect(
            derived.triggerStatements[1]
                == "CREATE TRIGGER Z_DA_ZITEM_Item_update_UPDATE AFTER UPDATE OF Z_OPT ON ZITEM FOR EACH ROW BEGIN "
                + "UPDATE ZITEM SET ZUPDATE = NSCoreDataNow() WHERE Z_PK = NEW.Z_PK; SELECT "
                + "NSCoreDataDATriggerUpdatedAffectedObjectValue('ZITEM', Z_ENT, Z_PK, 'update', ZUPDATE) FROM ZITEM "
                + "WHERE Z_PK = NEW.Z_PK; END")
        #expect(
            derived.triggerStatements[0].contains("AFTER INSERT ON ZITEM FOR EACH ROW WHEN (NEW.Z_OPT NOT NULL) BEGIN"))
    }

    @Test("an attribute and a string function of it are kept current by the triggers and the recompute")
    func ownAttributeValues() throws {
        let model = Self.model([
            ("copy", .string, Derivation(expression: "title", kind: .keyPath(["title"]))),
            (
                "folded", .string,
                Derivation(expression: "canonical:(title)", kind: .string(.canonical, keyPath: ["title"]))
            ),
        ])
        let layout = try StoreLayout(model: model)
        let directory = try TemporaryDirectory(prefix: "stepwise-derived-row")
        let url = directory.path("Items.sqlite")
        try StoreCreator.createStore(at: url, model: model)
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        let values = try queue.write { db -> [[String?]] in
            try db.execute(sql: #"INSERT INTO "ZITEM" ("Z_ENT", "Z_OPT", "ZTITLE") VALUES (1, 1, 'Crème')"#)
            try db.execute(sql: #"INSERT INTO "ZITEM" ("Z_ENT", "Z_OPT", "ZTITLE") VALUES (1, 1, 'Old')"#)
            try db.execute(sql: #"UPDATE "ZITEM" SET "ZTITLE" = 'ÉTÉ' WHERE "Z_PK" = 2"#)
            let byTriggers = try Row.fetchAll(db, sql: #"SELECT "ZCOPY", "ZFOLDED" FROM "ZITEM" ORDER BY "Z_PK""#)
            try db.execute(sql: #"UPDATE "ZITEM" SET "ZCOPY" = NULL, "ZFOLDED" = NULL"#)
            for derived in layout.derivedAttributes { try db.execute(sql: derived.recomputeStatement) }
            let recomputed = try Row.fetchAll(db, sql: #"SELECT "ZCOPY", "ZFOLDED" FROM "ZITEM" ORDER BY "Z_PK""#)
            #expect(recomputed == byTriggers)
            return byTriggers.map { [$0[0], $0[1]] }
        }
        #expect(values == [["Crème", "creme"], ["ÉTÉ", "ete"]])
    }
}
