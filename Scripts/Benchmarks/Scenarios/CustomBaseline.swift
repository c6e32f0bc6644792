import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport

/// The `custom` baseline: Recipes → Recipes 2 as a developer would hand-write it with GRDB,
/// doing the per-row work the sample policies do (split each chef's name in Swift, look each
/// recipe's cuisine up in a dictionary, insert the cuisine the first time), producing the same
/// rows in Core Data's layout.
///
/// Why it is a fair floor: one process, one transaction, statements prepared once, the source
/// attached to the destination so every read and write goes through one connection, and
/// primary keys kept (no lookup tables, no relationship pass: links are copied as they are).
/// It keeps nothing for a crash and checks nothing, which Stepwise must.
enum CustomBaseline {
    static func run(store: URL) throws {
        let source = try StoreLayout(model: RecipesHistory.v1)
        let destination = try StoreLayout(model: RecipesHistory.v2)
        let uuid = try DatabaseQueueReader.uuid(of: store)
        let output = store.deletingLastPathComponent().appendingPathComponent("baseline-output.sqlite")
        BenchStore.removeStoreFiles(at: output)
        try StoreCreator.createStore(at: output, model: RecipesHistory.v2, uuid: uuid)
        let queue = try DatabaseQueue(path: output.path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS source", arguments: [store.path])
            try db.inTransaction {
                try copy(db, source: source, destination: destination)
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE source")
            try db.checkpoint(.truncate)
        }
        try queue.close()
        BenchStore.removeStoreFiles(at: store)
        try FileManager.default.moveItem(at: output, to: store)
    }

    private static func copy(_ db: Database, source: StoreLayout, destination: StoreLayout) throws {
        let chef = (try SeedTable(source, "Chef"), try SeedTable(destination, "Chef"))
        let recipe = (try SeedTable(source, "Recipe"), try SeedTable(destination, "Recipe"))
        let ingredient = (try SeedTable(source, "Ingredient"), try SeedTable(destination, "Ingredient"))
        let cuisine = try SeedTable(destination, "Cuisine")

        // Chefs: the name split in two, as ChefNamePolicy does.
        let insertChef = try db.makeStatement(
            sql:
                "INSERT INTO \(chef.1.table) (Z_PK, Z_ENT, Z_OPT, \(try chef.1.columns("firstName", "lastName"))) VALUES (?, ?, 1, ?, ?)"
        )
        let chefs = try Row.fetchCursor(
            db, sql: "SELECT Z_PK, \(try chef.0.column("name")) FROM source.\(chef.0.table)")
        while let row = try chefs.next() {
            let key: Int64 = row[0]
            var first: String?
            var last: String?
            if let name: String = row[1] {
                let parts = name.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
                first = parts.first.map(String.init) ?? ""
                last = parts.count > 1 ? String(parts[1]) : ""
            }
            try insertChef.execute(arguments: [key, chef.1.number, first, last])
        }

        // Recipes: copied, rating 0, linked to one Cuisine per distinct name, as CuisinePolicy does.
        let insertCuisine = try db.makeStatement(
            sql: "INSERT INTO \(cuisine.table) (Z_PK, Z_ENT, Z_OPT, \(try cuisine.column("name"))) VALUES (?, ?, 1, ?)")
        let insertRecipe = try db.makeStatement(
            sql: """
                INSERT INTO \(recipe.1.table) (Z_PK, Z_ENT, Z_OPT, \(try recipe.1.columns("name", "directions", "rating", "chef", "cuisine")))
                VALUES (?, ?, 1, ?, ?, 0, ?, ?)
                """)
        let recipes = try Row.fetchCursor(
            db,
            sql:
                "SELECT Z_PK, \(try recipe.0.columns("name", "directions", "cuisine", "chef")) FROM source.\(recipe.0.table)"
        )
        var cuisines: [String: Int64] = [:]
        while let row = try recipes.next() {
            var cuisineKey: Int64?
            if let name: String = row[3] {
                if let known = cuisines[name] {
                    cuisineKey = known
                } else {
                    let made = Int64(cuisines.count + 1)
                    try insertCuisine.execute(arguments: [made, cuisine.number, name])
                    cuisines[name] = made
                    cuisineKey = made
                }
            }
            let key: Int64 = row[0]
            let name: DatabaseValue = row[1]
            let directions: DatabaseValue = row[2]
            let chefKey: Int64? = row[4]
            try insertRecipe.execute(arguments: [key, recipe.1.number, name, directions, chefKey, cuisineKey])
        }

        // Ingredients: copied, `recipes` renamed `recipe`.
        let insertIngredient = try db.makeStatement(
            sql: """
                INSERT INTO \(ingredient.1.table) (Z_PK, Z_ENT, Z_OPT, \(try ingredient.1.columns("name", "amount", "recipe")))
                VALUES (?, ?, 1, ?, ?, ?)
                """)
        let ingredients = try Row.fetchCursor(
            db,
            sql:
                "SELECT Z_PK, \(try ingredient.0.columns("name", "amount", "recipes")) FROM source.\(ingredient.0.table)"
        )
        while let row = try ingredients.next() {
            let key: Int64 = row[0]
            let name: DatabaseValue = row[1]
            let amount: DatabaseValue = row[2]
            let recipeKey: Int64? = row[3]
            try insertIngredient.execute(arguments: [key, ingredient.1.number, name, amount, recipeKey])
        }

        // Keys were kept, so each entity's highest key is its Z_MAX.
        for table in [chef.1, recipe.1, ingredient.1, cuisine] {
            try db.execute(
                sql:
                    "UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = (SELECT ifnull(max(Z_PK), 0) FROM \(table.table)) WHERE \"Z_ENT\" = ?",
                arguments: [table.number])
        }
    }
}
