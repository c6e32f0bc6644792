import Foundation
import GRDB
import StepwiseModel
import StepwiseTesting
import Testing

@testable import StepwiseStore

/// The row-by-row path's leaner statements (issue 12) write what the general ones write:
/// values bound in place (`BoundStatement`), plain to-one writes, to-ones written by the
/// insert, and the cursor's direct reads.
@Suite("Row path statements")
struct RowPathStatementTests {
    static let model = ObjectModel("Kitchen") {
        Entity("Dish") {
            Attribute("name", .string)
            Attribute("price", .double)
            Attribute("photo", .binary)
            Relationship("cuisine", to: "Cuisine", inverse: "dishes")
            Relationship("plate", to: "Plate", inverse: "dish")
            Relationship("menu", to: "Menu", inverse: "dishes")
        }
        Entity("Cuisine") {
            Attribute("name", .string)
            Relationship("dishes", to: "Dish", inverse: "cuisine").toMany()
            Unique("name")
        }
        Entity("Spicy", parent: "Cuisine") {
            Attribute("heat", .integer16)
        }
        Entity("Plate") {
            Attribute("size", .integer16)
            Relationship("dish", to: "Dish", inverse: "plate")
        }
        Entity("Menu") {
            Attribute("title", .string)
            Relationship("dishes", to: "Dish", inverse: "menu").ordered()
        }
    }

    let directory: TemporaryDirectory
    let queue: DatabaseQueue
    let layout: StoreLayout

    init() throws {
        directory = try TemporaryDirectory()
        let url = directory.path("Kitchen.sqlite")
        _ = try StoreCreator.createStore(at: url, model: Self.model)
        queue = try DatabaseQueue(path: url.path)
        layout = try StoreLayout(model: Self.model)
    }

    /// Every row of `table` but `Z_OPT`, which the insert path leaves at 1.
    func rows(_ table: String, in queue: DatabaseQueue? = nil) throws -> [String] {
        try (queue ?? self.queue).read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY Z_PK").map { row in
                row.columnNames.filter { $0 != "Z_OPT" }.map { "\($0)=\(row[$0] as DatabaseValue)" }
                    .joined(separator: " ")
            }
        }
    }

    @Test func onlyAPlainForeignKeyIsWrittenByTheInsert() throws {
        let found = try queue.write { db -> [Bool] in
            let objects = ObjectContext(db, layout: layout)
            return [
                // The inverse of `cuisine` is a to-many: plain (Cuisine has a subentity, so
                // the insert also writes the destination's Z_ENT).
                try objects.prepareInsert("Dish", attributes: ["name"], toOne: ["cuisine"]) != nil,
                try objects.plainToOneWrite("Dish", "cuisine") != nil,
                // A one-to-one and a to-one whose inverse is ordered need setToOne.
                try objects.prepareInsert("Dish", attributes: ["name"], toOne: ["plate"]) != nil,
                try objects.plainToOneWrite("Dish", "plate") != nil,
                try objects.prepareInsert("Dish", attributes: ["name"], toOne: ["menu"]) != nil,
                try objects.plainToOneWrite("Dish", "menu") != nil,
            ]
        }
        #expect(found == [true, true, false, false, false, false])
    }

    @Test func aToOneWrittenByTheInsertEqualsSetToOneAfterIt() throws {
        let dishes: [(String?, Int?)] = [("Mapo tofu", 0), ("Bread", 1), (nil, nil)]
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            let cuisines = [
                try objects.insert("Spicy", ["name": "Sichuan", "heat": 5]),
                try objects.insert("Cuisine", ["name": "Plain"]),
            ]
            let prepared = try #require(try objects.prepareInsert("Dish", attributes: ["name"], toOne: ["cuisine"]))
            for (name, cuisine) in dishes {
                _ = try objects.insert(
                    prepared, values: [name?.databaseValue ?? .null], toOne: [cuisine.map { cuisines[$0] }])
            }
        }
        // The same objects in another store, linked by setToOne after a plain insert.
        let otherURL = directory.path("Other.sqlite")
        try StoreCreator.createStore(at: otherURL, model: Self.model)
        let other = try DatabaseQueue(path: otherURL.path)
        defer { try? other.close() }
        try other.write { db in
            let objects = ObjectContext(db, layout: layout)
            let cuisines = [
                try objects.insert("Spicy", ["name": "Sichuan", "heat": 5]),
                try objects.insert("Cuisine", ["name": "Plain"]),
            ]
            let prepared = try objects.prepareInsert("Dish", attributes: ["name"])
            for (name, cuisine) in dishes {
                let dish = try objects.insert(prepared, values: [name?.databaseValue ?? .null])
                try objects.setToOne(dish, "cuisine", to: cuisine.map { cuisines[$0] })
            }
        }
        let written = try rows("ZDISH", in: queue)
        #expect(written == (try rows("ZDISH", in: other)))
        #expect(written.count == 3)
        // The destination's Z_ENT is stored beside its key: Cuisine has a subentity.
        let spicy = try #require(layout.entity(named: "Spicy")).number
        #expect(written.first?.hasSuffix("=\(spicy)") == true || written.first?.contains("=\(spicy) ") == true)
    }

    @Test func aStatementBoundInPlaceRunsAgainAfterAFailure() throws {
        let failures = try queue.write { db -> [Bool] in
            let objects = ObjectContext(db, layout: layout)
            let prepared = try objects.prepareInsert("Cuisine", attributes: ["name"])
            _ = try objects.insert(prepared, values: ["Thai".databaseValue])
            // A policy may catch a uniqueness failure and go on: the next row must not see it.
            var failures: [Bool] = []
            do {
                _ = try objects.insert(prepared, values: ["Thai".databaseValue])
                failures.append(false)
            } catch let error as DatabaseError {
                failures.append(error.resultCode == .SQLITE_CONSTRAINT)
            }
            _ = try objects.insert(prepared, values: ["Lao".databaseValue])
            // The plain to-one write reports a missing row, then works again.
            let dish = try objects.insert("Dish", ["name": "Larb"])
            do {
                try objects.setToOne(
                    ObjectID(entity: "Dish", primaryKey: 999), "cuisine", to: ObjectID(entity: "Cuisine", primaryKey: 1)
                )
                failures.append(false)
            } catch let error as StoreError {
                failures.append(error.kind == .rowNotFound(entity: "Dish", primaryKey: 999))
            }
            try objects.setToOne(dish, "cuisine", to: ObjectID(entity: "Cuisine", primaryKey: 3))
            return failures
        }
        #expect(failures == [true, true])
        let names = try queue.read { db in try String.fetchAll(db, sql: "SELECT ZNAME FROM ZCUISINE ORDER BY Z_PK") }
        #expect(names == ["Thai", "Lao"])
        #expect(try rows("ZDISH").first?.contains("ZCUISINE=3") == true)
    }

    @Test func theCursorReadsWhatALookupByIdReads() throws {
        let photo = Data([0, 1, 2, 255])
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            let cuisine = try objects.insert("Spicy", ["name": "Sichuan", "heat": 5])
            _ = try objects.insert("Dish", ["name": "Mapo tofu", "price": 12.5, "photo": photo, "cuisine": cuisine])
            _ = try objects.insert("Dish", [:])
            _ = try objects.insert("Dish", ["name": "", "price": 3])
        }
        let (streamed, looked, cuisines) = try queue.read { db in
            let objects = ObjectContext(db, layout: layout)
            let streamed = try objects.fetch("Dish")
            return (streamed, try streamed.map { try objects.object($0.id) }, try objects.fetch("Cuisine").map(\.id))
        }
        #expect(streamed.count == 3)
        #expect(streamed == looked)
        #expect(streamed.first?.data("photo") == photo)
        #expect(streamed.first?.double("price") == 12.5)
        #expect(streamed.first?["cuisine"] == 1.databaseValue)
        #expect(streamed[1]["name"] == .null)
        #expect(cuisines == [ObjectID(entity: "Spicy", primaryKey: 1)])
    }
}
