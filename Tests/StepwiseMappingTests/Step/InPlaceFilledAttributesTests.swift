import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import StepwiseMapping

/// An in-place step's validation pass scans for NULLs only in the required attributes the step
/// could have left empty: an attribute added with a value, given a value where NULL, or kept
/// from a required one can't be.
@Suite("In-place steps: required attributes known filled")
struct InPlaceFilledAttributesTests {
    static let before = ObjectModel("Pantry") {
        Entity("Jar") {
            Attribute("label", .string).required()
            Attribute("note", .string)
            Attribute("size", .integer16)
        }
    }

    /// `label` kept (renamed `title`), `grams` added with a default, `size` made required with a
    /// default, `note` made required with a default: every required attribute is filled.
    static let after = ObjectModel("Pantry 2") {
        Entity("Jar") {
            Attribute("title", .string).required().renamed(from: "label")
            Attribute("note", .string).required().defaultValue("none")
            Attribute("size", .integer16).required().defaultValue("1")
            Attribute("grams", .integer32).required().defaultValue("0")
        }
    }

    static func plan() throws -> (InPlacePlan, StoreLayout, StoreLayout, MappingModel) {
        let source = try StoreLayout(model: before)
        let target = try StoreLayout(model: after)
        let mapping = try MappingInference.inferMapping(from: before, to: after)
        let plan = try #require(
            InPlacePlan.make(mapping: mapping, source: source, destination: target, allowsRenumbering: false))
        return (plan, source, target, mapping)
    }

    @Test("kept, added and defaulted required attributes are known filled")
    func everyKindIsKnownFilled() throws {
        let (plan, source, destination, mapping) = try Self.plan()
        let filled = plan.requiredAttributesKnownFilled(
            mapping: mapping, sourceModel: Self.before, destinationModel: Self.after, source: source,
            destination: destination)
        #expect(filled == ["Jar.title", "Jar.note", "Jar.size", "Jar.grams"])
    }

    @Test("an attribute that was optional and stays unfilled is scanned")
    func anOptionalSourceIsNotKnownFilled() throws {
        // As if `note` had turned required with no default: the plan keeps its column as it was.
        let (made, source, destination, mapping) = try Self.plan()
        var plan = made
        plan.tables = plan.tables.map { table in
            var table = table
            table.defaultsForNull.removeAll { $0.column == "ZNOTE" }
            return table
        }
        let filled = plan.requiredAttributesKnownFilled(
            mapping: mapping, sourceModel: Self.before, destinationModel: Self.after, source: source,
            destination: destination)
        #expect(!filled.contains("Jar.note"))
        #expect(filled.contains("Jar.title"))
    }

    /// As Core Data's own lightweight migration: a NULL that was already in a required column,
    /// against the source's own model, is carried, where the scan used to refuse the store.
    /// Rows and values come through as they were.
    @Test("a NULL already in a kept required column is carried")
    func aNullAlreadyInTheSourceIsCarried() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Pantry.sqlite")
        try StoreCreator.createStore(at: url, model: Self.before)
        let layout = try StoreLayout(model: Self.before)
        try DatabaseQueue(path: url.path).write { db in
            let objects = ObjectContext(db, layout: layout)
            _ = try objects.insert("Jar", ["label": "Flour"])
            _ = try objects.insert("Jar", ["label": "Salt", "size": 3])
            try db.execute(sql: #"UPDATE "ZJAR" SET "ZLABEL" = NULL WHERE "ZLABEL" = 'Salt'"#)
        }
        let destination = directory.path("Pantry 2.sqlite")
        let report = try MigrationStep(from: Self.before, to: Self.after).run(source: url, destination: destination)
        #expect(report.strategy == .inPlace)
        let rows = try DatabaseQueue(path: destination.path).read { db in
            try Row.fetchAll(
                db, sql: #"SELECT "ZTITLE", "ZNOTE", "ZSIZE", "ZGRAMS" FROM "ZJAR" ORDER BY "Z_PK""#)
        }
        #expect(rows.count == 2)
        #expect(rows[0]["ZTITLE"] as String? == "Flour")
        #expect(rows[0]["ZNOTE"] as String? == "none")
        #expect(rows[0]["ZSIZE"] as Int? == 1)
        #expect(rows[1]["ZTITLE"] as String? == nil)
        #expect(rows[1]["ZSIZE"] as Int? == 3)
        #expect(rows[1]["ZGRAMS"] as Int? == 0)
    }

    /// A derived attribute is computed again by the step (`DerivedValues`): a key path through
    /// a nil to-one gives NULL, so even a required one kept from a required one is scanned.
    @Test("a required derived attribute is scanned, kept or not")
    func aDerivedAttributeIsNeverKnownFilled() throws {
        func model(_ name: String, extra: [Attribute]) throws -> ObjectModel {
            var shelf = Entity("Shelf") { Attribute("name", .string) }
            shelf.relationships = [Relationship("jars", to: "Jar", inverse: "shelf").toMany()]
            var jar = Entity("Jar") { Attribute("label", .string).required() }
            var shelfName = Attribute("shelfName", .string).required()
            shelfName.derivation = Derivation(parsing: "shelf.name")
            jar.attributes += [shelfName] + extra
            jar.relationships = [Relationship("shelf", to: "Shelf", inverse: "jars")]
            return ObjectModel(name, versionIdentifiers: [name], entities: [jar, shelf])
        }
        let before = try model("Shelves", extra: [])
        let after = try model("Shelves 2", extra: [Attribute("grams", .integer32).required().defaultValue("0")])
        let source = try StoreLayout(model: before)
        let target = try StoreLayout(model: after)
        let mapping = try MappingInference.inferMapping(from: before, to: after)
        let plan = try #require(
            InPlacePlan.make(mapping: mapping, source: source, destination: target, allowsRenumbering: false))
        let filled = plan.requiredAttributesKnownFilled(
            mapping: mapping, sourceModel: before, destinationModel: after, source: source, destination: target)
        #expect(filled == ["Jar.label", "Jar.grams"])
    }
}
