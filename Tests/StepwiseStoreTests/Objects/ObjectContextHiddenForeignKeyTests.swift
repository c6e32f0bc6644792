import Foundation
import GRDB
import StepwiseModel
import StepwiseTesting
import Testing

@testable import StepwiseStore

/// Reading and writing a to-many without inverse kept under a hidden foreign key (Core Data's
/// virtual to-one): no inverse writes the key, so relating, unrelating and deleting do, with the
/// holder's `Z_ENT` and the position beside it when Core Data keeps them.
@Suite("Object access: a hidden foreign key")
struct ObjectContextHiddenForeignKeyTests {
    static let model = ObjectModel("Lists") {
        Entity("List") {
            Attribute("name", .string)
            Relationship("entries", to: "Entry").toMany()
        }
        Entity("Entry") { Attribute("text", .string) }
    }

    let directory: TemporaryDirectory
    let queue: DatabaseQueue
    let layout: StoreLayout

    init() throws {
        directory = try TemporaryDirectory()
        let url = directory.path("Lists.sqlite")
        try StoreCreator.createStore(at: url, model: Self.model)
        queue = try DatabaseQueue(path: url.path)
        layout = try StoreLayout(model: Self.model)
    }

    /// `Z_PK → Z2ENTRIES` of every entry.
    func keys() throws -> [Int64: Int64?] {
        try queue.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: #"SELECT "Z_PK", "Z2ENTRIES" FROM "ZENTRY""#).map {
                    ($0[0] as Int64, $0[1] as Int64?)
                })
        }
    }

    @Test func relateWritesTheKeyAndMovesAnEntryBetweenLists() throws {
        let (first, second, entries) = try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            let first = try objects.insert("List", ["name": "first"])
            let second = try objects.insert("List", ["name": "second"])
            let entries = try (0..<3).map { try objects.insert("Entry", ["text": "e\($0)"]) }
            for entry in entries { try objects.relate(first, "entries", to: entry) }
            return (first, second, entries)
        }
        #expect(try keys() == [1: 1, 2: 1, 3: 1])
        #expect(try queue.read { try ObjectContext($0, layout: layout).related(first, "entries") } == entries)
        // One owner per entry: relating it to another list takes it from the first.
        try queue.write { db in try ObjectContext(db, layout: layout).relate(second, "entries", to: entries[0]) }
        #expect(try keys() == [1: 2, 2: 1, 3: 1])
        try queue.write { db in try ObjectContext(db, layout: layout).unrelate(first, "entries", from: entries[1]) }
        #expect(try keys() == [1: 2, 2: nil, 3: 1])
        let missing = ObjectID(entity: "Entry", primaryKey: 99)
        #expect(throws: StoreError.self) {
            try queue.write { db in try ObjectContext(db, layout: layout).relate(first, "entries", to: missing) }
        }
    }

    @Test func deletingTheOwnerClearsTheKeysItHeld() throws {
        let first = try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            let first = try objects.insert("List", ["name": "first"])
            let second = try objects.insert("List", ["name": "second"])
            let entries = try (0..<3).map { try objects.insert("Entry", ["text": "e\($0)"]) }
            try objects.relate(first, "entries", to: entries[0])
            try objects.relate(first, "entries", to: entries[1])
            try objects.relate(second, "entries", to: entries[2])
            return first
        }
        // Nullify, the default: the entries stay and no longer name the deleted list.
        try queue.write { db in try ObjectContext(db, layout: layout).delete(first) }
        #expect(try keys() == [1: nil, 2: nil, 3: 2])
        #expect(try queue.read { try ObjectContext($0, layout: layout).count("Entry") } == 3)
    }

    /// An ordered to-many without inverse declared by an entity with subentities: the key, the
    /// holder's `Z_ENT` in `Z2_2ENTRIES` and its position in `Z_FOK_2ENTRIES`.
    @Test func anOrderedOneWritesPositionsAndTheHoldersEntity() throws {
        let model = ObjectModel("Lists") {
            Entity("List") { Relationship("entries", to: "Entry").ordered() }
            Entity("Checklist", parent: "List") {}
            Entity("Entry") { Attribute("text", .string) }
        }
        let layout = try StoreLayout(model: model)
        // Entry is 1, List 2, Checklist 3.
        #expect(
            layout.table(named: "ZENTRY")?.columnNames == [
                "Z_PK", "Z_ENT", "Z_OPT", "Z2ENTRIES", "Z2_2ENTRIES", "Z_FOK_2ENTRIES", "ZTEXT",
            ])
        let url = directory.path("Ordered.sqlite")
        try StoreCreator.createStore(at: url, model: model)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        func rows() throws -> [[Int64?]] {
            try queue.read { db in
                try Row.fetchAll(
                    db, sql: #"SELECT "Z2ENTRIES", "Z2_2ENTRIES", "Z_FOK_2ENTRIES" FROM "ZENTRY" ORDER BY "Z_PK""#
                ).map { [$0[0], $0[1], $0[2]] }
            }
        }
        let (list, checklist, entries) = try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            let list = try objects.insert("List", [:])
            let checklist = try objects.insert("Checklist", [:])
            let entries = try (0..<3).map { try objects.insert("Entry", ["text": "e\($0)"]) }
            try objects.relate(checklist, "entries", to: entries[2])
            try objects.relate(checklist, "entries", to: entries[0])
            try objects.relate(list, "entries", to: entries[1])
            // Already in the set: keeps its place.
            try objects.relate(checklist, "entries", to: entries[2])
            return (list, checklist, entries)
        }
        // The list is Z_PK 1, the checklist 2, in their shared table.
        #expect(try rows() == [[2, 3, 2048], [1, 2, 1024], [2, 3, 1024]])
        #expect(
            try queue.read { try ObjectContext($0, layout: layout).related(checklist, "entries") }
                == [entries[2], entries[0]])
        try queue.write { db in try ObjectContext(db, layout: layout).unrelate(checklist, "entries", from: entries[2]) }
        #expect(try rows() == [[2, 3, 2048], [1, 2, 1024], [nil, nil, nil]])
        try queue.write { db in try ObjectContext(db, layout: layout).delete(list) }
        #expect(try rows() == [[2, 3, 2048], [nil, nil, nil], [nil, nil, nil]])
    }
}
