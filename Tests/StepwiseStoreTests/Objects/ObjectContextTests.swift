import Foundation
import GRDB
import StepwiseModel
import StepwiseTesting
import Testing

@testable import StepwiseStore

@Suite("Object access")
struct ObjectContextTests {
    static let model = ObjectModel("Zoo") {
        Entity("Animal", isAbstract: true) {
            Attribute("name", .string).required()
            Attribute("born", .date)
            Relationship("keeper", to: "Keeper", inverse: "animals")
        }
        Entity("Dog", parent: "Animal") {
            Attribute("goodBoy", .boolean).defaultValue("YES")
        }
        Entity("Cat", parent: "Animal") {
            Attribute("lives", .integer16).defaultValue("9")
        }
        Entity("Keeper") {
            Attribute("name", .string).required()
            Relationship("animals", to: "Animal", inverse: "keeper").ordered().deletionRule(.cascade)
            Relationship("badge", to: "Badge", inverse: "keeper").deletionRule(.deny)
            Relationship("zones", to: "Zone", inverse: "keepers").toMany()
        }
        Entity("Badge") {
            Attribute("number", .integer32)
            Relationship("keeper", to: "Keeper", inverse: "badge")
        }
        Entity("Zone") {
            Attribute("name", .string)
            Relationship("keepers", to: "Keeper", inverse: "zones").toMany()
        }
    }

    let directory: TemporaryDirectory
    let queue: DatabaseQueue
    let layout: StoreLayout

    init() throws {
        directory = try TemporaryDirectory()
        let url = directory.path("Zoo.sqlite")
        _ = try StoreCreator.createStore(at: url, model: Self.model)
        queue = try DatabaseQueue(path: url.path)
        layout = try StoreLayout(model: Self.model)
    }

    func write<T>(_ body: (ObjectContext) throws -> T) throws -> T {
        try queue.write { db in try body(ObjectContext(db, layout: layout)) }
    }

    func read<T>(_ body: (ObjectContext) throws -> T) throws -> T {
        try queue.read { db in try body(ObjectContext(db, layout: layout)) }
    }

    func related(_ id: ObjectID, _ relationship: String) throws -> [ObjectID] {
        try read { try $0.related(id, relationship) }
    }

    func count(_ entity: String) throws -> Int {
        try read { try $0.count(entity) }
    }

    @Test func insertTakesKeysFromTheRootsZMaxAndRecordsTheConcreteEntity() throws {
        let (rex, tom) = try write { objects in
            (try objects.insert("Dog", ["name": "Rex"]), try objects.insert("Cat", ["name": "Tom", "lives": 7]))
        }
        #expect(rex == ObjectID(entity: "Dog", primaryKey: 1))
        #expect(tom == ObjectID(entity: "Cat", primaryKey: 2))
        let rows = try queue.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, Z_ENT, Z_OPT FROM ZANIMAL ORDER BY Z_PK")
        }
        let dog = try #require(layout.entity(named: "Dog"))
        let cat = try #require(layout.entity(named: "Cat"))
        #expect(rows.map { $0["Z_ENT"] as Int } == [dog.number, cat.number])
        #expect(rows.map { $0["Z_OPT"] as Int } == [1, 1])
        let animal = try #require(layout.entity(named: "Animal"))
        let max = try queue.read { db in
            try Int.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [animal.number])
        }
        #expect(max == 2)
    }

    @Test func fetchReadsValuesAndConvertsDates() throws {
        let born = Date(timeIntervalSinceReferenceDate: 123_456.5)
        try write { objects in _ = try objects.insert("Cat", ["name": "Tom", "lives": 7, "born": born]) }
        let cats = try read { try $0.fetch("Cat") }
        #expect(cats.count == 1)
        #expect(cats[0].string("name") == "Tom")
        #expect(cats[0].int("lives") == 7)
        #expect(cats[0].date("born") == born)
        let stored = try queue.read { db in try Double.fetchOne(db, sql: "SELECT ZBORN FROM ZANIMAL") }
        #expect(stored == 123_456.5)
    }

    @Test func updateChangesValuesAndBumpsZOpt() throws {
        let tom = try write { objects in try objects.insert("Cat", ["name": "Tom"]) }
        try write { objects in try objects.update(tom, ["name": "Thomas", "lives": 8]) }
        let object = try read { try $0.object(tom) }
        #expect(object.string("name") == "Thomas")
        #expect(object.int("lives") == 8)
        #expect(object.version == 2)
    }

    @Test func predicatesRunAsSQL() throws {
        try write { objects in
            for (name, lives) in [("Tom", 9), ("Tabby", 3), ("Felix", 9), ("Garfield", 1)] {
                _ = try objects.insert("Cat", ["name": name, "lives": lives])
            }
            _ = try objects.insert("Dog", ["name": "Tobby"])
        }
        func names(_ entity: String, _ predicate: ObjectPredicate?) throws -> [String] {
            try queue.read { db in
                try ObjectContext(db, layout: layout).fetch(entity, where: predicate).compactMap { $0.string("name") }
            }
        }
        func count(_ entity: String, _ predicate: ObjectPredicate? = nil, subentities: Bool = true) throws -> Int {
            try queue.read { db in
                try ObjectContext(db, layout: layout).count(entity, where: predicate, includingSubentities: subentities)
            }
        }
        #expect(try names("Cat", .equal("lives", 9)) == ["Tom", "Felix"])
        #expect(try names("Animal", .beginsWith("name", "T")) == ["Tom", "Tabby", "Tobby"])
        #expect(try names("Cat", .contains("name", "fi")) == ["Garfield"])
        #expect(
            try names("Cat", .compare("lives", .less, 5.databaseValue) || .equal("name", "Tom")) == [
                "Tom", "Tabby", "Garfield",
            ])
        #expect(try names("Cat", !.equal("lives", 9)) == ["Tabby", "Garfield"])
        #expect(try names("Cat", .isIn("name", ["Felix", "Nobody"].map(\.databaseValue))) == ["Felix"])
        #expect(try names("Animal", .isNil("keeper")).count == 5)
        #expect(try count("Animal") == 5)
        #expect(try count("Animal", subentities: false) == 0)
        #expect(try count("Cat", .equal("lives", 9)) == 2)
    }

    @Test func aCursorStreamsEveryRow() throws {
        try write { objects in
            for index in 0..<1000 { _ = try objects.insert("Zone", ["name": "zone \(index)"]) }
        }
        let (count, last) = try queue.read { db -> (Int, String?) in
            let cursor = try ObjectContext(db, layout: layout).cursor("Zone")
            var count = 0
            var last: String?
            while let object = try cursor.next() {
                count += 1
                last = object.string("name")
            }
            return (count, last)
        }
        #expect(count == 1000)
        #expect(last == "zone 999")
    }

    @Test func anOrderedToManyKeepsItsOrderThroughTheInverseForeignKey() throws {
        let (keeper, animals) = try write { objects -> (ObjectID, [ObjectID]) in
            let keeper = try objects.insert("Keeper", ["name": "Ann"])
            let animals = try ["C", "A", "B"].map { try objects.insert("Cat", ["name": $0]) }
            for animal in animals { try objects.relate(keeper, "animals", to: animal) }
            return (keeper, animals)
        }
        #expect(try related(keeper, "animals") == animals)
        #expect(try related(animals[1], "keeper") == [keeper])
        let positions = try queue.read { db in
            try Int.fetchAll(db, sql: "SELECT Z_FOK_KEEPER FROM ZANIMAL ORDER BY Z_PK")
        }
        #expect(positions == [1024, 2048, 3072])
    }

    @Test func settingTheSameToOneAgainKeepsItsPlaceInTheOrderedInverse() throws {
        let (keeper, animals, other) = try write { objects -> (ObjectID, [ObjectID], ObjectID) in
            let keeper = try objects.insert("Keeper", ["name": "Ann"])
            let other = try objects.insert("Keeper", ["name": "Bob"])
            let animals = try ["C", "A", "B"].map { try objects.insert("Cat", ["name": $0]) }
            for animal in animals { try objects.relate(keeper, "animals", to: animal) }
            // Again, from the to-one side: nothing moves (a migration's second mapping does this).
            for animal in animals { try objects.setToOne(animal, "keeper", to: keeper) }
            return (keeper, animals, other)
        }
        #expect(try related(keeper, "animals") == animals)
        // A new keeper appends; coming back appends again.
        try write { objects in
            try objects.setToOne(animals[0], "keeper", to: other)
            try objects.setToOne(animals[0], "keeper", to: keeper)
        }
        #expect(try related(keeper, "animals") == [animals[1], animals[2], animals[0]])
    }

    @Test func aOneToOneKeepsForeignKeysOnBothSides() throws {
        let (keeper, first, second) = try write { objects -> (ObjectID, ObjectID, ObjectID) in
            let keeper = try objects.insert("Keeper", ["name": "Ann"])
            let first = try objects.insert("Badge", ["number": 1])
            let second = try objects.insert("Badge", ["number": 2])
            try objects.relate(keeper, "badge", to: first)
            try objects.relate(second, "keeper", to: keeper)
            return (keeper, first, second)
        }
        #expect(try related(keeper, "badge") == [second])
        #expect(try related(second, "keeper") == [keeper])
        #expect(try related(first, "keeper") == [])
    }

    @Test func aManyToManyUsesItsJoinTableFromBothSides() throws {
        let (ann, bob, north, south) = try write { objects -> (ObjectID, ObjectID, ObjectID, ObjectID) in
            let ann = try objects.insert("Keeper", ["name": "Ann"])
            let bob = try objects.insert("Keeper", ["name": "Bob"])
            let north = try objects.insert("Zone", ["name": "North"])
            let south = try objects.insert("Zone", ["name": "South"])
            try objects.relate(ann, "zones", to: north)
            try objects.relate(ann, "zones", to: south)
            try objects.relate(north, "keepers", to: bob)
            try objects.relate(ann, "zones", to: north)  // twice: still one row
            return (ann, bob, north, south)
        }
        #expect(Set(try related(ann, "zones")) == [north, south])
        #expect(Set(try related(north, "keepers")) == [ann, bob])
        #expect(try related(bob, "zones") == [north])
        try write { objects in try objects.unrelate(north, "keepers", from: ann) }
        #expect(try related(ann, "zones") == [south])
    }

    @Test func deletionRulesNullifyCascadeAndDeny() throws {
        let (ann, badge, north) = try write { objects -> (ObjectID, ObjectID, ObjectID) in
            let ann = try objects.insert("Keeper", ["name": "Ann"])
            for name in ["Rex", "Tom"] {
                try objects.relate(ann, "animals", to: try objects.insert("Dog", ["name": name]))
            }
            let badge = try objects.insert("Badge", ["number": 7])
            try objects.relate(ann, "badge", to: badge)
            let north = try objects.insert("Zone", ["name": "North"])
            try objects.relate(ann, "zones", to: north)
            return (ann, badge, north)
        }
        // Deny: the badge blocks the keeper's deletion, and the transaction leaves everything in place.
        let denied = try #require(throws: StoreError.self) { try write { objects in try objects.delete(ann) } }
        #expect(denied.description.contains("badge"))
        #expect(try count("Animal") == 2)

        // Nullify: deleting the badge clears the keeper's foreign key.
        try write { objects in try objects.delete(badge) }
        #expect(try related(ann, "badge") == [])

        // Cascade: deleting the keeper deletes its animals and its join rows, not the zone.
        try write { objects in try objects.delete(ann) }
        #expect(try count("Animal") == 0)
        #expect(try count("Keeper") == 0)
        #expect(try count("Zone") == 1)
        #expect(try related(north, "keepers") == [])
    }

    @Test func unknownNamesAreTypedErrors() throws {
        let unknownEntity = try #require(throws: StoreError.self) {
            try write { objects in try objects.insert("Lion") }
        }
        #expect(unknownEntity.kind == .unknownEntity("Lion"))
        let unknownProperty = try #require(throws: StoreError.self) {
            try write { objects in try objects.insert("Cat", ["wings": 2]) }
        }
        #expect(unknownProperty.kind == .unknownProperty(entity: "Cat", property: "wings"))
        let abstract = try #require(throws: StoreError.self) {
            try write { objects in try objects.insert("Animal", ["name": "x"]) }
        }
        #expect(abstract.description.contains("abstract"))
    }
}
