import Foundation
import Stepwise
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport

/// `custom`: Recipes → Recipes 2 with the sample mapping (`SampleMappings.recipes1to2`) and
/// policies (`SamplePolicies`): `ChefNamePolicy` splits every chef's name in Swift,
/// `CuisinePolicy` makes one Cuisine per distinct name and links each recipe to it.
///
/// - Stepwise: the whole `upgradeIfNeeded` on a fresh copy of the seed.
/// - Baseline: ``CustomBaseline``, the same per-row work as a hand-written GRDB loop.
struct CustomScenario: ChildScenario {
    var baselineCopiesSeed: Bool { false }

    func runStepwise(store: URL) throws -> [String] {
        return try UpgradeCheck.expect(
            try Self.upgrader().upgradeIfNeededSynchronously(storeAt: store), to: RecipesHistory.v2.name)
    }

    func runBaseline(store: URL, seed: URL) throws -> [String] {
        try CustomBaseline.run(store: store)
        return []
    }

    static func upgrader() throws -> Upgrader {
        let mapping = try MappingFile.decode(
            Data(SampleMappings.recipes1to2.utf8), source: RecipesHistory.v1, destination: RecipesHistory.v2)
        return try Upgrader(
            history: VersionHistory([RecipesHistory.v1, RecipesHistory.v2]),
            mappings: [MappingDirectory.StepKey(RecipesHistory.v1.name, RecipesHistory.v2.name): [mapping]],
            policies: SamplePolicies.registry)
    }

    var facts: StoreFacts {
        get throws {
            let layout = try StoreLayout(model: RecipesHistory.v2)
            let chef = try SeedTable(layout, "Chef")
            let recipe = try SeedTable(layout, "Recipe")
            let cuisine = try SeedTable(layout, "Cuisine")
            let ingredient = try SeedTable(layout, "Ingredient")
            let number = "CAST(substr(r.\(try recipe.column("name")), 8) AS INTEGER)"
            return StoreFacts(
                counting: layout,
                extra: [
                    (
                        "first name characters",
                        "SELECT total(length(\(try chef.column("firstName")))) FROM \(chef.table)"
                    ),
                    ("last name characters", "SELECT total(length(\(try chef.column("lastName")))) FROM \(chef.table)"),
                    (
                        "recipes linked to their cuisine",
                        """
                        SELECT count(*) FROM \(recipe.table) r JOIN \(cuisine.table) c ON c.Z_PK = r.\(try recipe.column("cuisine"))
                        WHERE c.\(try cuisine.column("name")) = 'Cuisine ' || (\(number) % 20)
                        """
                    ),
                    (
                        "recipes linked to their chef",
                        """
                        SELECT count(*) FROM \(recipe.table) r JOIN \(chef.table) c ON c.Z_PK = r.\(try recipe.column("chef"))
                        WHERE c.\(try chef.column("lastName")) LIKE '%Cook' || \(number)
                        """
                    ),
                    (
                        "ingredients linked to their recipe",
                        """
                        SELECT count(*) FROM \(ingredient.table) i JOIN \(recipe.table) r ON r.Z_PK = i.\(try ingredient.column("recipe"))
                        WHERE \(number) % 1000 = CAST(i.\(try ingredient.column("amount")) AS INTEGER)
                        """
                    ),
                ])
        }
    }
}
