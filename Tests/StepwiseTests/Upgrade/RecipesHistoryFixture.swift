import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

/// A Recipes v1 store's persistent history and CloudKit records, and what an upgrade to
/// Recipes 4 must make of them.
///
/// Every chef, ingredient and recipe gets an insert change in its own transaction, authored
/// `<Entity>:<name>`, and a CloudKit record named `<Entity>:<name>#<key>`. Julia Child's
/// `name` and `recipes` and Mole Poblano's `directions` and `name` are updated; a recipe
/// "Gone" is inserted and deleted (its changes and a pending CloudKit deletion name an object
/// that no longer exists). The store also gets a `Z_MODELCACHE`.
enum RecipesHistoryFixture {
    static func add(to store: URL) throws {
        let layout = try StoreLayout(model: RecipesHistory.v1)
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        try queue.write { db in
            try CoreDataPrivateTablesFixture.addTables(to: db)
            try db.execute(sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            try db.execute(sql: "INSERT INTO Z_MODELCACHE VALUES (x'0102')")
            let objects = ObjectContext(db, layout: layout)
            let gone = try objects.insert("Recipe", ["name": "Gone"])
            for name in ["Chef", "Ingredient", "Recipe"] {
                let entity = try #require(layout.entity(named: name))
                let rows = try Row.fetchAll(
                    db, sql: "SELECT Z_PK, ZNAME FROM \(entity.tableName.quotedDatabaseIdentifier) ORDER BY Z_PK")
                for row in rows {
                    let key: Int64 = row[0]
                    let label = "\(name):\(row[1] as String)"
                    try CoreDataPrivateTablesFixture.recordTransaction(
                        [.init(entity: entity.number, primaryKey: key, type: .insert)], author: label, in: db)
                    try CoreDataPrivateTablesFixture.mirror(
                        entity: entity.number, primaryKey: key, recordName: "\(label)#\(key)", in: db)
                }
            }
            let chef = try #require(layout.entity(named: "Chef"))
            let recipe = try #require(layout.entity(named: "Recipe"))
            let julia = try #require(try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ZCHEF WHERE ZNAME = 'Julia Child'"))
            try CoreDataPrivateTablesFixture.recordTransaction(
                [
                    .init(
                        entity: chef.number, primaryKey: julia, type: .update,
                        columns: HistoryChangeMask(entity: chef, in: layout).bytes(setting: ["name", "recipes"]))
                ], author: "Chef:Julia Child", in: db)
            try CoreDataPrivateTablesFixture.recordTransaction(
                [
                    .init(
                        entity: recipe.number, primaryKey: 1, type: .update,
                        columns: HistoryChangeMask(entity: recipe, in: layout).bytes(setting: ["directions", "name"]))
                ], author: "Recipe:Mole Poblano", in: db)
            try objects.delete(gone)
            try db.execute(sql: "DELETE FROM ANSCKRECORDMETADATA WHERE ZCKRECORDNAME LIKE 'Recipe:Gone#%'")
            try CoreDataPrivateTablesFixture.recordTransaction(
                [.init(entity: recipe.number, primaryKey: gone.primaryKey, type: .delete)], author: "Recipe:deleted",
                in: db)
            try CoreDataPrivateTablesFixture.mirror(
                entity: recipe.number, primaryKey: gone.primaryKey, recordName: "Recipe:deleted",
                needsCloudDelete: true,
                in: db)
        }
    }

    /// One history change as the tests compare them.
    struct Change: Hashable {
        var entity: Int
        var key: Int64
        var type: CoreDataPrivateTablesFixture.ChangeType
        var mask: [UInt8]?
        var author: String
    }

    /// One CloudKit record.
    struct Record: Hashable {
        var name: String
        var entity: Int
        var key: Int64
    }

    /// What a store holds in its private tables, read from a private copy.
    struct Facts {
        var changes: [Change]
        var records: [Record]
        /// `sqlite_master.sql` of the private tables and their indexes, by name.
        var schema: [String: String]
        var privateRows: [PrimaryKeyRow]
        var hasModelCache: Bool
        /// `<Entity>:<name>` of the object each change names, in the Recipes 4 layout, for
        /// changes of objects that exist.
        var namedObjects: [String] = []

        init(_ store: URL) throws {
            let snapshot = try StoreSnapshot(of: store)
            defer { snapshot.close() }
            (changes, records, schema, privateRows, hasModelCache) = try snapshot.database.read { db in
                let changes = try CoreDataPrivateTablesFixture.changes(in: db).map {
                    Change(
                        entity: $0.change.entity, key: $0.change.primaryKey, type: $0.change.type,
                        mask: $0.change.columns, author: $0.author ?? "")
                }
                let records = try Row.fetchAll(
                    db, sql: "SELECT ZCKRECORDNAME, ZENTITYID, ZENTITYPK FROM ANSCKRECORDMETADATA ORDER BY Z_PK"
                ).map { Record(name: $0[0], entity: $0[1], key: $0[2]) }
                let schema = try Row.fetchAll(
                    db, sql: "SELECT name, sql FROM sqlite_master WHERE tbl_name LIKE 'A%' AND sql IS NOT NULL")
                return (
                    changes, records,
                    Dictionary(uniqueKeysWithValues: schema.map { ($0[0] as String, $0[1] as String) }),
                    try PrimaryKeyRow.readAll(from: db).filter(\.isCoreDataPrivate),
                    try db.tableExists("Z_MODELCACHE")
                )
            }
        }
    }

    /// `<Entity>:<name>` of the object at `key` of entity `number`, in the Recipes 4 layout
    /// (chefs are named by their first and last names there); nil when there is none.
    static func name(of number: Int, _ key: Int64, in db: Database) throws -> String? {
        let layout = try StoreLayout(model: RecipesHistory.v4)
        guard let entity = layout.entity(number: number) else { return nil }
        let name = entity.name == "Chef" ? "ZFIRSTNAME || ' ' || ZLASTNAME" : "ZNAME"
        return try String.fetchOne(
            db,
            sql: "SELECT \(name) FROM \(entity.tableName.quotedDatabaseIdentifier) WHERE Z_PK = ? AND Z_ENT = ?",
            arguments: [key, number]
        ).map { "\(entity.name):\($0)" }
    }

    /// Checks the store upgraded to Recipes 4 from one with `before`'s private tables, and
    /// returns what it holds.
    @discardableResult
    static func checkUpgraded(_ store: URL, before: Facts) throws -> Facts {
        var after = try Facts(store)
        #expect(after.schema == before.schema, "the private tables' DDL changed")
        #expect(after.privateRows == before.privateRows, "Core Data's Z_PRIMARYKEY rows changed")
        #expect(!after.hasModelCache, "the old model's cache was kept")
        #expect(after.changes.map(\.author) == before.changes.map(\.author))
        #expect(after.changes.map(\.type) == before.changes.map(\.type))
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        let (named, recordNames, recipeMaximum, recipeKeys, ingredientMaximum) = try snapshot.database.read { db in
            (
                try after.changes.filter { !$0.author.hasPrefix("Recipe:Gone") && $0.author != "Recipe:deleted" }
                    .map { try name(of: $0.entity, $0.key, in: db) ?? "nothing at \($0.entity)#\($0.key)" },
                try after.records.map { try name(of: $0.entity, $0.key, in: db) },
                try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Recipe'") ?? 0,
                try Int64.fetchAll(db, sql: "SELECT Z_PK FROM ZRECIPE"),
                try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Ingredient'") ?? 0
            )
        }
        after.namedObjects = named
        // Every change of a living object names it under its new number and key.
        #expect(
            named
                == after.changes.map(\.author).filter { !$0.hasPrefix("Recipe:Gone") && $0 != "Recipe:deleted" })
        // The deleted recipe's changes and pending CloudKit deletion share one new key, above
        // every recipe's, that Z_MAX has passed.
        let gone = Set(
            after.changes.filter { $0.author == "Recipe:Gone" || $0.author == "Recipe:deleted" }.map(\.key))
        #expect(gone.count == 1)
        #expect(gone.first == recipeMaximum)
        #expect(recipeKeys.allSatisfy { $0 < recipeMaximum })
        #expect(after.records.first { $0.name == "Recipe:deleted" }?.key == recipeMaximum)
        // Each record names its object; of the two "chiles" merged into one shared ingredient,
        // the first record keeps it and the second gets a key of its own.
        for (record, name) in zip(after.records, recordNames) where record.name != "Recipe:deleted" {
            let label = String(record.name.prefix { $0 != "#" })
            if label == "Ingredient:chiles", name == nil {
                #expect(record.key == ingredientMaximum)
            } else {
                #expect(name == label, "\(record.name)")
            }
        }
        #expect(recordNames.filter { $0 == "Ingredient:chiles" }.count == 1)
        // Masks, by name: Julia Child's `name` is gone and `recipes` moved to a to-many after
        // `email`, `firstName` and `lastName`; Mole Poblano's bits keep their places.
        #expect(after.changes.filter { $0.type == .update }.map(\.mask) == [[0b0001_0000], [0b0011_0000]])
        return after
    }
}
