import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The `Z_DA_…` triggers of derived attributes (issue 24): the texts Core Data writes, the
/// values they keep current, and the recompute statement a step runs.
@Suite("Derived attribute layout")
struct DerivedAttributeLayoutTests {
    /// An attribute derived by `derivation`.
    static func derived(_ name: String, _ type: AttributeType, _ derivation: Derivation) -> Attribute {
        var attribute = Attribute(name, type)
        attribute.derivation = derivation
        return attribute
    }

    /// The shapes of Photos' two derived attributes: `Asset.derivedCameraCaptureDevice =
    /// additionalAttributes.cameraCaptureDevice` and `GraphNode.primaryLabelCode = primaryLabel.code`.
    static let photosModel = ObjectModel("Photos") {
        Entity("Asset") {
            Attribute("uuid", .string)
            derived(
                "derivedCameraCaptureDevice", .integer16,
                Derivation(
                    expression: "additionalAttributes.cameraCaptureDevice",
                    kind: .keyPath(["additionalAttributes", "cameraCaptureDevice"])))
            Relationship("additionalAttributes", to: "AdditionalAssetAttributes", inverse: "asset")
        }
        Entity("AdditionalAssetAttributes") {
            Attribute("cameraCaptureDevice", .integer16)
            Relationship("asset", to: "Asset", inverse: "additionalAttributes")
        }
        Entity("GraphNode") {
            derived(
                "primaryLabelCode", .integer32,
                Derivation(expression: "primaryLabel.code", kind: .keyPath(["primaryLabel", "code"])))
            Relationship("primaryLabel", to: "GraphLabel", inverse: "nodes")
        }
        Entity("GraphLabel") {
            Attribute("code", .integer32)
            Relationship("nodes", to: "GraphNode", inverse: "primaryLabel").toMany()
        }
    }

    static let photosStores = [
        "real-stores/RhetTbull-PhotoScript/tests/test_libraries/Test-PhotoScript-13.0.1.photoslibrary/database/Photos.sqlite",
        "real-stores/RhetTbull-PhotoScript/tests/test_libraries/Test-PhotoScript-15.7.1.photoslibrary/database/Photos.sqlite",
    ]

    @Test(
        "The created triggers are the real Photos store's, byte for byte",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: photosStores)
    func triggersMatchPhotos(store: String) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory(prefix: "stepwise-derived")
        let copy = try corpus.copyStore(store, to: directory.url)
        let queue = try DatabaseQueue(path: copy.path)
        defer { try? queue.close() }
        let real = try queue.read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'Z\\_DA\\_%' ESCAPE '\\'"
            )
        }
        let realTexts = Dictionary(uniqueKeysWithValues: real.map { ($0["name"] as String, $0["sql"] as String) })
        let layout = try StoreLayout(model: Self.photosModel)
        var compared = 0
        for derived in layout.derivedAttributes {
            for (name, statement) in zip(derived.triggerNames, derived.triggerStatements) {
                guard let text = realTexts[name] else { continue }
                #expect(statement == text, "\(name)")
                compared += 1
            }
        }
        // 13.0.1 has Asset's four; 15.7.1 also GraphNode's four.
        #expect(compared == realTexts.count)
        #expect(compared >= 4)
    }

    @Test("Triggers keep a key path through a to-one current; the recompute statement agrees")
    func keyPathValues() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-derived")
        let store = directory.path("Photos.sqlite")
        try StoreCreator.createStore(at: store, model: Self.photosModel)
        let layout = try StoreLayout(model: Self.photosModel)
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        try queue.write { db in
            CoreDataSQLFunctions.register(in: db)
            try db.execute(
                sql:
                    "INSERT INTO ZADDITIONALASSETATTRIBUTES (Z_PK, Z_ENT, Z_OPT, ZCAMERACAPTUREDEVICE) VALUES (1, 2, 1, 7)"
            )
            try db.execute(sql: "INSERT INTO ZASSET (Z_PK, Z_ENT, Z_OPT, ZADDITIONALATTRIBUTES) VALUES (1, 1, 1, 1)")
            try db.execute(sql: "INSERT INTO ZASSET (Z_PK, Z_ENT, Z_OPT) VALUES (2, 1, 1)")
            #expect(try Int.fetchOne(db, sql: "SELECT ZDERIVEDCAMERACAPTUREDEVICE FROM ZASSET WHERE Z_PK = 1") == 7)
            try db.execute(sql: "UPDATE ZADDITIONALASSETATTRIBUTES SET ZCAMERACAPTUREDEVICE = 9")
            #expect(try Int.fetchOne(db, sql: "SELECT ZDERIVEDCAMERACAPTUREDEVICE FROM ZASSET WHERE Z_PK = 1") == 9)
            try db.execute(sql: "UPDATE ZASSET SET ZADDITIONALATTRIBUTES = 1 WHERE Z_PK = 2")
            #expect(try Int.fetchOne(db, sql: "SELECT ZDERIVEDCAMERACAPTUREDEVICE FROM ZASSET WHERE Z_PK = 2") == 9)
            let maintained = try Row.fetchAll(
                db, sql: "SELECT Z_PK, ZDERIVEDCAMERACAPTUREDEVICE FROM ZASSET ORDER BY Z_PK")
            try db.execute(sql: "UPDATE ZASSET SET ZDERIVEDCAMERACAPTUREDEVICE = NULL")
            for derived in layout.derivedAttributes { try db.execute(sql: derived.recomputeStatement) }
            let recomputed = try Row.fetchAll(
                db, sql: "SELECT Z_PK, ZDERIVEDCAMERACAPTUREDEVICE FROM ZASSET ORDER BY Z_PK")
            #expect(recomputed == maintained)
        }
    }

    static let stringModel = ObjectModel("People") {
        Entity("Person") {
            derived(
                "lowerName", .string,
                Derivation(expression: "lowercase:(card.name)", kind: .string(.lowercase, keyPath: ["card", "name"])))
            Relationship("card", to: "Card", inverse: "person")
        }
        Entity("Card") {
            Attribute("name", .string)
            Relationship("person", to: "Person", inverse: "card")
        }
    }

    @Test("lowercase: through a to-one calls Core Data's function; triggers and recompute agree")
    func stringFunctionValues() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-derived")
        let store = directory.path("People.sqlite")
        try StoreCreator.createStore(at: store, model: Self.stringModel)
        let layout = try StoreLayout(model: Self.stringModel)
        #expect(
            layout.derivedAttributes.first?.triggerStatements.last?.contains("NSCoreDataToLower(NEW.ZNAME)") == true)
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        try queue.write { db in
            CoreDataSQLFunctions.register(in: db)
            try db.execute(sql: "INSERT INTO ZCARD (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, 1, 1, 'Ada LOVELACE')")
            try db.execute(sql: "INSERT INTO ZPERSON (Z_PK, Z_ENT, Z_OPT, ZCARD) VALUES (1, 2, 1, 1)")
            #expect(try String.fetchOne(db, sql: "SELECT ZLOWERNAME FROM ZPERSON") == "ada lovelace")
            try db.execute(sql: "UPDATE ZPERSON SET ZLOWERNAME = NULL")
            for derived in layout.derivedAttributes { try db.execute(sql: derived.recomputeStatement) }
            #expect(try String.fetchOne(db, sql: "SELECT ZLOWERNAME FROM ZPERSON") == "ada lovelace")
        }
    }

    @Test("A shape Core Data keeps in no trigger is refused, naming the entity and attribute")
    func unsupportedShapeRefused() {
        let model = ObjectModel("Shop") {
            Entity("Order") {
                Self.derived(
                    "tagWeight", .integer64,
                    Derivation(
                        expression: "sum:(tags.weight)",
                        kind: .aggregate(.sum, relationship: ["tags"], attribute: "weight")))
                Relationship("tags", to: "Tag", inverse: "orders").toMany()
            }
            Entity("Tag") {
                Attribute("weight", .integer64)
                Relationship("orders", to: "Order", inverse: "tags").toMany()
            }
        }
        #expect {
            _ = try StoreLayout(model: model)
        } throws: { error in
            "\(error)".contains("Order.tagWeight") && "\(error)".contains("a sum of a one-to-many only")
        }
    }
}

/// Schema comparison of the `Z_DA_…` triggers.
@Suite("Derived attribute triggers in schema comparison")
struct DerivedAttributeSchemaTests {
    @Test("A created store matches; a dropped, added or rewritten trigger is reported")
    func triggerDifferences() throws {
        let model = DerivedAttributeLayoutTests.photosModel
        let directory = try TemporaryDirectory(prefix: "stepwise-derived")
        let store = directory.path("Photos.sqlite")
        try StoreCreator.createStore(at: store, model: model)
        let expected = try SQLiteSchema(expectedFor: try StoreLayout(model: model))
        #expect(expected.derivedAttributeTriggers.count == 8)
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        try queue.write { db in
            #expect(try SQLiteSchema.read(from: db).differences(from: expected).isEmpty)
            let dropped = "Z_DA_ZGRAPHLABEL_GraphNode_primaryLabelCode_PARAMETER_UPDATE"
            let rewritten = "Z_DA_ZASSET_Asset_derivedCameraCaptureDevice_SOURCE_INSERT"
            try db.execute(sql: "DROP TRIGGER \(dropped)")
            try db.execute(sql: "DROP TRIGGER \(rewritten)")
            try db.execute(sql: "CREATE TRIGGER \(rewritten) AFTER INSERT ON ZASSET BEGIN SELECT 1; END")
            try db.execute(
                sql: "CREATE TRIGGER Z_DA_ZASSET_Asset_other_SOURCE_INSERT AFTER INSERT ON ZASSET BEGIN SELECT 1; END")
            // Core Data's other triggers stay out of the comparison.
            try db.execute(sql: "CREATE TRIGGER ZT_ZASSET_COUNT AFTER INSERT ON ZASSET BEGIN SELECT 1; END")
            let differences = try SQLiteSchema.read(from: db).differences(from: expected)
            #expect(differences.count == 3)
            #expect(differences.contains(.missingTrigger(table: "ZGRAPHLABEL", trigger: dropped)))
            #expect(
                differences.contains(.extraTrigger(table: "ZASSET", trigger: "Z_DA_ZASSET_Asset_other_SOURCE_INSERT")))
            #expect(
                differences.contains {
                    if case .triggerMismatch(let table, let trigger, _, _) = $0 {
                        return table == "ZASSET" && trigger == rewritten
                    }
                    return false
                })
        }
    }
}
