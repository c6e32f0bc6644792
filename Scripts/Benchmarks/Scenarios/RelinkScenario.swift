import Foundation
import Stepwise
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// `relink`: Recipes → Recipes Relinked (``RecipesVariants/relinked``) through an explicit
/// mapping whose relationships all go through
/// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", …)`: a
/// rebuild that Stepwise runs set-based (`INSERT … SELECT`, then one `UPDATE … FROM` per
/// relationship through its lookup tables), re-linking the to-many `Recipe.ingredients` whose
/// foreign key changed name.
///
/// - Stepwise: the whole `upgradeIfNeeded` on a fresh copy of the seed.
/// - Baseline: a new store made by ``StoreCreator``, then one `sqlite3` transaction of
///   `INSERT … SELECT` from the attached original, each link resolved by a join on the kept
///   primary keys, then a rename over the original: the least SQL that produces the same rows.
struct RelinkScenario: ChildScenario {
    var baselineCopiesSeed: Bool { false }

    static let mappingFile = """
        {
          "source": "Recipes",
          "destination": "Recipes Relinked",
          "entityMappings": [
            {
              "name": "ChefToChef", "source": "Chef", "destination": "Chef",
              "relationships": { "recipes": "\(manager), \\"RecipeToRecipe\\", $source.recipes)" }
            },
            {
              "name": "RecipeToRecipe", "source": "Recipe", "destination": "Recipe",
              "relationships": {
                "chef": "\(manager), \\"ChefToChef\\", $source.chef)",
                "ingredients": "\(manager), \\"IngredientToIngredient\\", $source.ingredients)"
              }
            },
            {
              "name": "IngredientToIngredient", "source": "Ingredient", "destination": "Ingredient",
              "relationships": { "recipe": "\(manager), \\"RecipeToRecipe\\", $source.recipes)" }
            }
          ]
        }
        """
    private static let manager = "FUNCTION($manager, \\\"destinationInstancesForEntityMappingNamed:sourceInstances:\\\""

    func runStepwise(store: URL) throws -> [String] {
        let source = RecipesVariants.base
        let destination = RecipesVariants.relinked
        let mapping = try MappingFile.decode(Data(Self.mappingFile.utf8), source: source, destination: destination)
        let upgrader = try Upgrader(
            history: VersionHistory([source, destination]),
            mappings: [MappingDirectory.StepKey(source.name, destination.name): [mapping]])
        return try UpgradeCheck.expect(try upgrader.upgradeIfNeededSynchronously(storeAt: store), to: destination.name)
    }

    func runBaseline(store: URL, seed: URL) throws -> [String] {
        let uuid = try DatabaseQueueReader.uuid(of: store)
        let output = store.deletingLastPathComponent().appendingPathComponent("baseline-output.sqlite")
        BenchStore.removeStoreFiles(at: output)
        try StoreCreator.createStore(at: output, model: RecipesVariants.relinked, uuid: uuid)
        try SQLiteShell.run(try Self.script(attaching: store), on: output)
        BenchStore.removeStoreFiles(at: store)
        try FileManager.default.moveItem(at: output, to: store)
        return []
    }

    static func script(attaching store: URL) throws -> String {
        let source = try StoreLayout(model: RecipesVariants.base)
        let destination = try StoreLayout(model: RecipesVariants.relinked)
        let chef = (try SeedTable(source, "Chef"), try SeedTable(destination, "Chef"))
        let recipe = (try SeedTable(source, "Recipe"), try SeedTable(destination, "Recipe"))
        let ingredient = (try SeedTable(source, "Ingredient"), try SeedTable(destination, "Ingredient"))
        let path = store.path.replacingOccurrences(of: "'", with: "''")
        return """
            ATTACH DATABASE '\(path)' AS source;
            BEGIN;
            INSERT INTO \(chef.1.table) (Z_PK, Z_ENT, Z_OPT, \(try chef.1.columns("name", "training", "recipes")))
            SELECT c.Z_PK, \(chef.1.number), 1, c.\(try chef.0.column("name")), c.\(try chef.0.column("training")), r.Z_PK
            FROM source.\(chef.0.table) c LEFT JOIN source.\(recipe.0.table) r ON r.Z_PK = c.\(try chef.0.column("recipes"));
            INSERT INTO \(recipe.1.table) (Z_PK, Z_ENT, Z_OPT, \(try recipe.1.columns("name", "directions", "cuisine", "chef")))
            SELECT r.Z_PK, \(recipe.1.number), 1, r.\(try recipe.0.column("name")), r.\(try recipe.0.column("directions")),
                   r.\(try recipe.0.column("cuisine")), c.Z_PK
            FROM source.\(recipe.0.table) r LEFT JOIN source.\(chef.0.table) c ON c.Z_PK = r.\(try recipe.0.column("chef"));
            INSERT INTO \(ingredient.1.table) (Z_PK, Z_ENT, Z_OPT, \(try ingredient.1.columns("name", "amount", "recipe")))
            SELECT i.Z_PK, \(ingredient.1.number), 1, i.\(try ingredient.0.column("name")), i.\(try ingredient.0.column("amount")), r.Z_PK
            FROM source.\(ingredient.0.table) i LEFT JOIN source.\(recipe.0.table) r ON r.Z_PK = i.\(try ingredient.0.column("recipes"));
            \([chef.1, recipe.1, ingredient.1].map { table in
                "UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = (SELECT ifnull(max(Z_PK), 0) FROM \(table.table)) WHERE \"Z_ENT\" = \(table.number);"
            }.joined(separator: "\n"))
            COMMIT;
            DETACH DATABASE source;
            PRAGMA wal_checkpoint(TRUNCATE);

            """
    }

    var facts: StoreFacts {
        get throws {
            let layout = try StoreLayout(model: RecipesVariants.relinked)
            let chef = try SeedTable(layout, "Chef")
            let recipe = try SeedTable(layout, "Recipe")
            let ingredient = try SeedTable(layout, "Ingredient")
            let number = "CAST(substr(r.\(try recipe.column("name")), 8) AS INTEGER)"
            return StoreFacts(
                counting: layout,
                extra: [
                    (
                        "ingredients linked to their recipe",
                        """
                        SELECT count(*) FROM \(ingredient.table) i JOIN \(recipe.table) r ON r.Z_PK = i.\(try ingredient.column("recipe"))
                        WHERE \(number) % 1000 = CAST(i.\(try ingredient.column("amount")) AS INTEGER)
                        """
                    ),
                    (
                        "recipes linked to their chef",
                        """
                        SELECT count(*) FROM \(recipe.table) r JOIN \(chef.table) c ON c.Z_PK = r.\(try recipe.column("chef"))
                        WHERE c.\(try chef.column("name")) LIKE '%Cook' || \(number)
                        """
                    ),
                    (
                        "chefs linked to their recipe",
                        """
                        SELECT count(*) FROM \(chef.table) c JOIN \(recipe.table) r ON r.Z_PK = c.\(try chef.column("recipes"))
                        WHERE c.\(try chef.column("name")) LIKE '%Cook' || \(number)
                        """
                    ),
                ])
        }
    }
}
