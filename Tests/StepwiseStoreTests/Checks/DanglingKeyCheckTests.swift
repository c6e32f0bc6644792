import GRDB
import StepwiseModel
import Testing

@testable import StepwiseStore

/// ``DanglingKeyCheck`` answers as a lookup per row would, on dense and sparse keys alike.
@Suite("Dangling to-one keys")
struct DanglingKeyCheckTests {
    /// A database with `ZCHEF` (keys `chefs`, `Z_ENT` 1 or as given) and `ZRECIPE` whose `ZCHEF`
    /// holds `keys`.
    static func database(
        chefs: [(key: Int64, entity: Int)], keys: [(any DatabaseValueConvertible)?]
    ) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: #"CREATE TABLE "ZCHEF" ("Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER)"#)
            try db.execute(
                sql: #"CREATE TABLE "ZRECIPE" ("Z_PK" INTEGER PRIMARY KEY, "Z_ENT" INTEGER, "ZCHEF" INTEGER)"#)
            try db.execute(sql: #"CREATE INDEX "ZRECIPE_ZCHEF_INDEX" ON "ZRECIPE" ("ZCHEF")"#)
            for chef in chefs {
                try db.execute(sql: #"INSERT INTO "ZCHEF" VALUES (?, ?)"#, arguments: [chef.key, chef.entity])
            }
            for key in keys {
                try db.execute(sql: #"INSERT INTO "ZRECIPE" ("Z_ENT", "ZCHEF") VALUES (2, ?)"#, arguments: [key])
            }
        }
        return queue
    }

    static func mayDangle(_ queue: DatabaseQueue, targetEntityNumbers: [Int]? = nil) throws -> Bool {
        try queue.read { db in
            try DanglingKeyCheck.anyKeyMayDangle(
                db, table: "ZRECIPE", column: "ZCHEF", targetTable: "ZCHEF", targetEntityNumbers: targetEntityNumbers)
        }
    }

    static let dense: [(key: Int64, entity: Int)] = (1...5).map { ($0, 1) }
    static let sparse: [(key: Int64, entity: Int)] = [1, 2, 4, 5].map { ($0, 1) }

    @Test("dense keys: every key in range is sound; outside it, or not an integer, one dangles")
    func denseKeys() throws {
        #expect(try !Self.mayDangle(Self.database(chefs: Self.dense, keys: [1, 5, 3, nil, 3])))
        #expect(try Self.mayDangle(Self.database(chefs: Self.dense, keys: [1, 6])))
        #expect(try Self.mayDangle(Self.database(chefs: Self.dense, keys: [0, 2])))
        #expect(try Self.mayDangle(Self.database(chefs: Self.dense, keys: [2, 2.5])))
        #expect(try Self.mayDangle(Self.database(chefs: Self.dense, keys: [2, "two"])))
    }

    @Test("sparse keys: each distinct key is looked up, so a key in a hole dangles")
    func sparseKeys() throws {
        #expect(try !Self.mayDangle(Self.database(chefs: Self.sparse, keys: [1, 2, 4, 5, 5])))
        #expect(try Self.mayDangle(Self.database(chefs: Self.sparse, keys: [1, 3])))
    }

    @Test("a target of another entity dangles when the target's entities are named")
    func targetEntities() throws {
        let mixed: [(key: Int64, entity: Int)] = [(1, 1), (2, 7), (3, 1)]
        #expect(try !Self.mayDangle(Self.database(chefs: mixed, keys: [1, 2, 3])))
        #expect(try Self.mayDangle(Self.database(chefs: mixed, keys: [1, 2, 3]), targetEntityNumbers: [1]))
        #expect(try !Self.mayDangle(Self.database(chefs: mixed, keys: [1, 3]), targetEntityNumbers: [1]))
    }

    @Test("an empty target: any key dangles, no key is sound")
    func emptyTarget() throws {
        #expect(try Self.mayDangle(Self.database(chefs: [], keys: [1])))
        #expect(try !Self.mayDangle(Self.database(chefs: [], keys: [nil])))
    }

    @Test("extreme keys don't overflow the density check")
    func extremeKeys() throws {
        let extremes: [(key: Int64, entity: Int)] = [(Int64.min, 1), (Int64.max, 1)]
        #expect(try !Self.mayDangle(Self.database(chefs: extremes, keys: [Int64.min])))
        #expect(try Self.mayDangle(Self.database(chefs: extremes, keys: [0])))
    }

    @Test("the first dangling key: a key to a row of a sibling entity, or to nothing, with the count")
    func firstDanglingKey() throws {
        let model = ObjectModel("Kitchen") {
            Entity("Person", isAbstract: true) { Attribute("name", .string) }
            Entity("Chef", parent: "Person") {}
            Entity("Critic", parent: "Person") {}
            Entity("Recipe") { Relationship("chef", to: "Chef") }
        }
        let layout = try StoreLayout(model: model)
        let chef = try #require(layout.entity(named: "Chef"))
        let critic = try #require(layout.entity(named: "Critic"))
        let recipe = try #require(layout.entity(named: "Recipe"))
        let column = try #require(recipe.relationship(named: "chef")?.foreignKeyColumn)
        let queue = try DatabaseQueue()
        try queue.write { db in
            for statement in try StoreLayout(model: model).createStatements { try db.execute(sql: statement) }
            try db.execute(
                sql: #"INSERT INTO "ZPERSON" ("Z_PK", "Z_ENT", "Z_OPT") VALUES (1, ?, 1), (2, ?, 1)"#,
                arguments: [chef.number, critic.number])
            let insert =
                "INSERT INTO \"ZRECIPE\" (\"Z_PK\", \"Z_ENT\", \"Z_OPT\", \(column.quotedSQLIdentifier)) VALUES (?, ?, 1, ?)"
            try db.execute(sql: insert, arguments: [1, recipe.number, 1])
            #expect(
                try DanglingKeyCheck.firstDanglingKey(db, column: column, of: recipe, pointingTo: chef, layout: layout)
                    == nil)
            try db.execute(sql: insert, arguments: [2, recipe.number, 2])  // a critic, not a chef
            try db.execute(sql: insert, arguments: [3, recipe.number, "two"])
            let dangling = try DanglingKeyCheck.firstDanglingKey(
                db, column: column, of: recipe, pointingTo: chef, layout: layout)
            #expect(dangling == .init(primaryKey: 2, key: 2, count: 2))
        }
    }
}
