import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import StepwiseMapping

/// Core Data reads every row of a lone entity's table (a root without subentities) as that
/// entity, whatever its `Z_ENT` holds (`EntityLayout.ownsEveryRowOfItsTable`). Artsy's hand-made
/// test stores have such a row: an Artwork whose `Z_ENT` is Collection's number.
@Suite("Steps: rows of a lone entity's table, whatever their Z_ENT")
struct LoneEntityRowsTests {
    static let before = ObjectModel("Art") {
        Entity("Artwork") { Attribute("title", .string) }
        Entity("Collection") { Attribute("name", .string) }
    }

    /// Adds an attribute: a step that alters `ZARTWORK` in place.
    static let after = ObjectModel("Art 2") {
        Entity("Artwork") {
            Attribute("title", .string)
            Attribute("year", .integer32)
        }
        Entity("Collection") { Attribute("name", .string) }
    }

    /// A store with two artworks, one of them with `Collection`'s `Z_ENT`.
    static func store(at url: URL) throws {
        try StepFixtures.store(at: url, model: before) { objects in
            _ = try objects.insert("Artwork", ["title": "kept"])
            _ = try objects.insert("Artwork", ["title": "stray"])
            _ = try objects.insert("Collection", ["name": "c"])
        }
        let layout = try StoreLayout(model: before)
        let collection = try #require(layout.entity(named: "Collection"))
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(
                sql: #"UPDATE "ZARTWORK" SET "Z_ENT" = ? WHERE "ZTITLE" = 'stray'"#, arguments: [collection.number])
        }
    }

    @Test("ObjectContext reads the row as the table's entity")
    func objectContextReadsTheRow() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("art.sqlite")
        try Self.store(at: url)
        let titles = try StepFixtures.read(url, Self.before) { objects in
            (try objects.fetch("Artwork").map { $0.string("title") ?? "" }.sorted(), try objects.count("Artwork"))
        }
        #expect(titles.0 == ["kept", "stray"])
        #expect(titles.1 == 2)
    }

    @Test("an inferred step carries the row, with the entity's own number", arguments: [false, true])
    func anInferredStepCarriesTheRow(inPlace: Bool) throws {
        let directory = try TemporaryDirectory()
        let source = directory.url.appendingPathComponent("before.sqlite")
        let destination = directory.url.appendingPathComponent("after.sqlite")
        try Self.store(at: source)
        // Adding an optional attribute alters the table in place; a new entity sorting first
        // renumbers every entity, and the stray number makes the step rebuild instead.
        let target =
            inPlace
            ? Self.after
            : ObjectModel("Art 2") {
                Entity("Artwork") { Attribute("title", .string) }
                Entity("Collection") { Attribute("name", .string) }
                Entity("Aardvark") { Attribute("name", .string) }
            }
        let mapping = try MappingInference.inferMapping(from: Self.before, to: target)
        let report = try MigrationStep(from: Self.before, to: target, mappingModels: [mapping])
            .run(source: source, destination: destination)
        #expect(report.drops == [])
        let artwork = try #require(try StoreLayout(model: target).entity(named: "Artwork"))
        let rows = try DatabaseQueue(path: destination.path).read { db in
            try Row.fetchAll(db, sql: #"SELECT "Z_ENT", "ZTITLE" FROM "ZARTWORK" ORDER BY "ZTITLE""#).map {
                "\($0["ZTITLE"] as String? ?? "") \($0["Z_ENT"] as Int? ?? 0)"
            }
        }
        #expect(rows.count == 2)
        #expect(rows.first == "kept \(artwork.number)")
        if !inPlace {
            // A new entity sorting first renumbers every entity: the step rebuilds, writing each row's number.
            #expect(rows.last == "stray \(artwork.number)")
        }
        let titles = try StepFixtures.read(destination, target) { objects in
            try objects.fetch("Artwork").map { $0.string("title") ?? "" }.sorted()
        }
        #expect(titles == ["kept", "stray"])
    }
}
