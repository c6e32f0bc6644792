import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// An explicit mapping that re-links every relationship through
/// `destinationInstancesForEntityMappingNamed:sourceInstances:` (the `relink` benchmark's
/// shape) runs set-based: foreign keys written by pass 1's `INSERT`, keys shifted instead of
/// ranked where they are dense, plain indexes built after the rows. Whatever the keys, it must
/// build the same store as the row-by-row path and keep Core Data's dense renumbering.
@Suite("Set-based relink")
struct SetBasedRelinkTests {
    enum Kitchen {
        static let v1 = ObjectModel("Kitchen") {
            Entity("Chef") {
                Attribute("name", .string)
                Relationship("recipes", to: "Recipe", inverse: "chef").toMany()
            }
            Entity("Ingredient") {
                Attribute("name", .string)
                Relationship("recipes", to: "Recipe", inverse: "ingredients")
            }
            Entity("Recipe") {
                Attribute("name", .string).indexed()
                Relationship("chef", to: "Chef", inverse: "recipes")
                Relationship("ingredients", to: "Ingredient", inverse: "recipes").toMany()
            }
        }

        /// `Ingredient.recipes` renamed `recipe`: its foreign-key column changes name.
        static let v2 = ObjectModel("Kitchen 2") {
            Entity("Chef") {
                Attribute("name", .string)
                Relationship("recipes", to: "Recipe", inverse: "chef").toMany()
            }
            Entity("Ingredient") {
                Attribute("name", .string)
                Relationship("recipe", to: "Recipe", inverse: "ingredients")
            }
            Entity("Recipe") {
                Attribute("name", .string).indexed()
                Relationship("chef", to: "Chef", inverse: "recipes")
                Relationship("ingredients", to: "Ingredient", inverse: "recipe").toMany()
            }
        }

        static func mapping(policy: String?) -> String {
            let policyKey = policy.map { #", "policy": "\#($0)""# } ?? ""
            func link(_ mapping: String, _ path: String) -> String {
                #"FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"\#(mapping)\", $source.\#(path))"#
            }
            return """
                {
                  "source": "Kitchen", "destination": "Kitchen 2",
                  "entityMappings": [
                    { "name": "ChefToChef", "source": "Chef", "destination": "Chef"\(policyKey),
                      "relationships": { "recipes": "\(link("RecipeToRecipe", "recipes"))" } },
                    { "name": "RecipeToRecipe", "source": "Recipe", "destination": "Recipe"\(policyKey),
                      "relationships": { "chef": "\(link("ChefToChef", "chef"))",
                                         "ingredients": "\(link("IngredientToIngredient", "ingredients"))" } },
                    { "name": "IngredientToIngredient", "source": "Ingredient", "destination": "Ingredient"\(policyKey),
                      "relationships": { "recipe": "\(link("RecipeToRecipe", "recipes"))" } }
                  ]
                }
                """
        }

        /// 5 chefs, 40 recipes (every third without a chef), 100 ingredients (every seventh
        /// without a recipe), linked out of key order; `deleting` removes some of each, leaving
        /// gaps in the keys.
        static func seed(deleting: Bool) -> (ObjectContext) throws -> Void {
            { objects in
                let chefs = try (0..<5).map { try objects.insert("Chef", ["name": "Chef \($0)"]) }
                let recipes = try (0..<40).map { index in
                    try objects.insert(
                        "Recipe", ["name": "Recipe \(39 - index)", "chef": index % 3 == 0 ? nil : chefs[index % 5]])
                }
                for index in 0..<100 {
                    let ingredient = try objects.insert("Ingredient", ["name": "Ingredient \(index)"])
                    if index % 7 != 0 { try objects.relate(ingredient, "recipes", to: recipes[(index * 13) % 40]) }
                }
                guard deleting else { return }
                try objects.delete(chefs[1])
                for index in stride(from: 2, to: 40, by: 9) { try objects.delete(recipes[index]) }
            }
        }
    }

    final class PassivePolicy: EntityMigrationPolicy {}

    struct Result {
        let report: StepReport
        let dump: [String: [String]]
        let indexes: [String]
        /// `(Z_PK, name)` of the source's and the destination's recipes, in key order.
        let sourceRecipes: [(Int64, String?)]
        let recipes: [(Int64, String?)]
    }

    static func recipes(_ url: URL, _ model: ObjectModel) throws -> [(Int64, String?)] {
        try StepFixtures.read(url, model) { objects in
            try objects.fetch("Recipe").map { ($0.id.primaryKey, $0.string("name")) }.sorted { $0.0 < $1.0 }
        }
    }

    func run(deleting: Bool, policy: String?) throws -> Result {
        let directory = try TemporaryDirectory()
        let source = directory.path("Kitchen.sqlite")
        let destination = directory.path("Kitchen 2.sqlite")
        try StepFixtures.store(at: source, model: Kitchen.v1, Kitchen.seed(deleting: deleting))
        var policies = PolicyRegistry()
        policies.register("Passive") { PassivePolicy() }
        let models = try StepFixtures.mappingModels(
            [Kitchen.mapping(policy: policy)], from: Kitchen.v1, to: Kitchen.v2)
        // The whole-store rebuild, both ways: a partial rebuild would keep Chef's rows and keys.
        var step = MigrationStep(from: Kitchen.v1, to: Kitchen.v2, mappingModels: models, policies: policies)
        step.allowsPartialRebuild = false
        let report = try step.run(source: source, destination: destination)
        let queue = try DatabaseQueue(path: destination.path)
        defer { try? queue.close() }
        let indexes = try queue.read { db in
            try String.fetchAll(
                db, sql: "SELECT name || ': ' || sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        }
        return Result(
            report: report, dump: try StepFixtures.dump(destination), indexes: indexes.sorted(),
            sourceRecipes: try Self.recipes(source, Kitchen.v1), recipes: try Self.recipes(destination, Kitchen.v2))
    }

    /// The indexes of a new store at `model`'s version, as ``run(deleting:policy:)`` lists them.
    func schemaIndexes(_ model: ObjectModel) throws -> [String] {
        let directory = try TemporaryDirectory()
        let url = directory.path("empty.sqlite")
        try StoreCreator.createStore(at: url, model: model)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try String.fetchAll(
                db, sql: "SELECT name || ': ' || sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        }.sorted()
    }

    @Test(arguments: [false, true])
    func setBasedBuildsTheRowByRowStore(deleting: Bool) throws {
        let setBased = try run(deleting: deleting, policy: nil)
        let rowByRow = try run(deleting: deleting, policy: "Passive")
        #expect(setBased.report.entityMappings.map(\.setBased) == [true, true, true])
        #expect(rowByRow.report.entityMappings.map(\.setBased) == [false, false, false])
        #expect(setBased.dump == rowByRow.dump)
        #expect(setBased.indexes == (try schemaIndexes(Kitchen.v2)))
    }

    @Test func sparseKeysAreRenumberedDenselyInSourceOrder() throws {
        let result = try run(deleting: true, policy: nil)
        // 40 recipes less 5 deleted: the source has gaps, the destination keys 1…35 in the
        // source's key order.
        #expect(result.sourceRecipes.count == 35)
        #expect(result.sourceRecipes.map(\.0) != Array(1...35))
        #expect(result.recipes.map(\.0) == Array(1...35))
        #expect(result.recipes.map(\.1) == result.sourceRecipes.map(\.1))
    }

    @Test func denseKeysKeepTheirValues() throws {
        let result = try run(deleting: false, policy: nil)
        #expect(result.recipes.map(\.0) == Array(1...40))
        #expect(result.recipes.map(\.1) == result.sourceRecipes.map(\.1))
    }

    @Test func pass2ReportsTheLinksTheInsertWrote() throws {
        let result = try run(deleting: false, policy: nil)
        let links = Dictionary(uniqueKeysWithValues: result.report.entityMappings.map { ($0.name, $0.links) })
        // 100 ingredients, every seventh without a recipe: 85 linked by the INSERT.
        #expect(links["IngredientToIngredient"] == 85)
        // 40 recipes, every third without a chef: 26 linked by the INSERT; the ingredients'
        // foreign keys were already in place when the inverse ran.
        #expect(links["RecipeToRecipe"] == 26)
    }
}

/// Both ends of one destination relationship mapped from different source relationships: the
/// `INSERT` writes `Ingredient.recipe` from `$source.spare`, then `Recipe.ingredients` (from
/// `$source.ingredients`) changes some of those keys in pass 2, and `Ingredient.recipe` must
/// then be written again where it has a pair: the last mapping's links win, as before.
@Suite("Set-based relink: both ends disagree")
struct SetBasedRelinkConflictTests {
    static let v1 = ObjectModel("Pantry") {
        Entity("Ingredient") {
            Attribute("name", .string)
            Relationship("recipes", to: "Recipe", inverse: "ingredients")
            Relationship("spare", to: "Recipe")
        }
        Entity("Recipe") {
            Attribute("name", .string)
            Relationship("ingredients", to: "Ingredient", inverse: "recipes").toMany()
        }
    }

    static let v2 = ObjectModel("Pantry 2") {
        Entity("Ingredient") {
            Attribute("name", .string)
            Relationship("recipe", to: "Recipe", inverse: "ingredients")
        }
        Entity("Recipe") {
            Attribute("name", .string)
            Relationship("ingredients", to: "Ingredient", inverse: "recipe").toMany()
        }
    }

    static func link(_ mapping: String, _ path: String) -> String {
        #"FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"\#(mapping)\", $source.\#(path))"#
    }

    static let mapping = """
        {
          "source": "Pantry", "destination": "Pantry 2",
          "entityMappings": [
            { "name": "RecipeToRecipe", "source": "Recipe", "destination": "Recipe",
              "relationships": { "ingredients": "\(link("IngredientToIngredient", "ingredients"))" } },
            { "name": "IngredientToIngredient", "source": "Ingredient", "destination": "Ingredient",
              "relationships": { "recipe": "\(link("RecipeToRecipe", "spare"))" } }
          ]
        }
        """

    @Test func theLastMappingsLinksWinWhereItHasOne() throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("Pantry.sqlite")
        let destination = directory.path("Pantry 2.sqlite")
        // Ingredient i: recipes → recipe i % 4 (every fifth none), spare → recipe (i + 1) % 4
        // (every third none).
        var expected: [String: String?] = [:]
        try StepFixtures.store(at: source, model: Self.v1) { objects in
            let recipes = try (0..<4).map { try objects.insert("Recipe", ["name": "Recipe \($0)"]) }
            for index in 0..<30 {
                let ingredient = try objects.insert("Ingredient", ["name": "Ingredient \(index)"])
                let owner = index % 5 == 0 ? nil : index % 4
                let spare = index % 3 == 0 ? nil : (index + 1) % 4
                if let owner { try objects.relate(ingredient, "recipes", to: recipes[owner]) }
                if let spare { try objects.relate(ingredient, "spare", to: recipes[spare]) }
                expected["Ingredient \(index)"] = (spare ?? owner).map { "Recipe \($0)" }
            }
        }
        let models = try StepFixtures.mappingModels([Self.mapping], from: Self.v1, to: Self.v2)
        let report = try MigrationStep(from: Self.v1, to: Self.v2, mappingModels: models)
            .run(source: source, destination: destination)
        #expect(report.entityMappings.map(\.setBased) == [true, true])
        let actual = try StepFixtures.read(destination, Self.v2) { objects in
            var actual: [String: String?] = [:]
            for ingredient in try objects.fetch("Ingredient") {
                let recipe = try objects.related(ingredient.id, "recipe").first
                actual[ingredient.string("name") ?? ""] = try recipe.map { try objects.object($0).string("name") ?? "" }
            }
            return actual
        }
        #expect(actual == expected)
    }
}
