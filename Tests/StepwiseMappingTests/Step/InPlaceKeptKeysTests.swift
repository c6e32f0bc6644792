import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import StepwiseMapping

/// An in-place step keeps every key as the source held it; the keys it can't have changed
/// aren't read again by its validation pass, and those it could have changed are.
@Suite("In-place steps: kept keys")
struct InPlaceKeptKeysTests {
    static let before = ObjectModel("Kitchen") {
        Entity("Chef") {
            Attribute("name", .string)
            Relationship("recipes", to: "Recipe", inverse: "chef").toMany()
        }
        Entity("Recipe") {
            Attribute("title", .string)
            Relationship("chef", to: "Chef", inverse: "recipes")
            Relationship("tags", to: "Tag", inverse: "recipes").toMany()
        }
        Entity("Tag") {
            Attribute("label", .string)
            Relationship("recipes", to: "Recipe", inverse: "tags").toMany()
        }
    }

    /// Adds an attribute and renames `Recipe` to `Dish`: every key and join row is kept.
    static let kept = ObjectModel("Kitchen 2") {
        Entity("Chef") {
            Attribute("name", .string)
            Relationship("recipes", to: "Dish", inverse: "chef").toMany()
        }
        Entity("Dish") {
            Attribute("title", .string)
            Attribute("servings", .integer16)
            Relationship("chef", to: "Chef", inverse: "recipes")
            Relationship("tags", to: "Tag", inverse: "recipes").toMany()
        }.renamed(from: "Recipe")
        Entity("Tag") {
            Attribute("label", .string)
            Relationship("recipes", to: "Dish", inverse: "tags").toMany()
        }
    }

    /// `Tag` is removed (it sorts last: no entity is renumbered), and with it its rows.
    static let removed = ObjectModel("Kitchen 3") {
        Entity("Chef") {
            Attribute("name", .string)
            Relationship("recipes", to: "Recipe", inverse: "chef").toMany()
        }
        Entity("Recipe") {
            Attribute("title", .string)
            Relationship("chef", to: "Chef", inverse: "recipes")
        }
    }

    static func plan(to destination: ObjectModel) throws -> (InPlacePlan?, StoreLayout, StoreLayout) {
        let source = try StoreLayout(model: before)
        let target = try StoreLayout(model: destination)
        let mapping = try MappingInference.inferMapping(from: before, to: destination)
        return (
            InPlacePlan.make(mapping: mapping, source: source, destination: target, allowsRenumbering: false),
            source, target
        )
    }

    @Test("a step that only adds and renames keeps every key and join row")
    func renamesAndAdditionsKeepEveryKey() throws {
        let (plan, source, destination) = try Self.plan(to: Self.kept)
        let made = try #require(plan)
        #expect(
            made.relationshipsWithKeptKeys(source: source, destination: destination) == [
                "Dish.chef", "Dish.tags", "Tag.recipes",
            ])
    }

    @Test("a step that removes rows keeps no key unread")
    func removedRowsKeepNoKey() throws {
        let (plan, source, destination) = try Self.plan(to: Self.removed)
        let made = try #require(plan)
        #expect(made.tables.contains { !$0.removedEntityNumbers.isEmpty } || !made.droppedTables.isEmpty)
        #expect(made.relationshipsWithKeptKeys(source: source, destination: destination).isEmpty)
    }

    /// The step reads a kept key no more than Core Data's own lightweight migration does: a
    /// recipe whose chef is gone upgrades in place and keeps its key, where checking every key
    /// used to refuse it. A dangling key the step makes (by removing rows) is still refused.
    @Test("a kept key is carried as it was")
    func aKeyThatAlreadyDangledIsCarried() throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Kitchen.sqlite")
        try StoreCreator.createStore(at: url, model: Self.before)
        let layout = try StoreLayout(model: Self.before)
        try DatabaseQueue(path: url.path).write { db in
            let objects = ObjectContext(db, layout: layout)
            let chef = try objects.insert("Chef", ["name": "Ada"])
            let recipe = try objects.insert("Recipe", ["title": "Soup"])
            try objects.setToOne(recipe, "chef", to: chef)
            try db.execute(sql: #"DELETE FROM "ZCHEF""#)
        }
        let destination = directory.path("Kitchen 2.sqlite")
        let report = try MigrationStep(from: Self.before, to: Self.kept).run(source: url, destination: destination)
        #expect(report.strategy == .inPlace)
        let key = try DatabaseQueue(path: destination.path).read { db in
            try Int64.fetchOne(db, sql: #"SELECT "ZCHEF" FROM "ZDISH""#)
        }
        #expect(key == 1)
    }
}
