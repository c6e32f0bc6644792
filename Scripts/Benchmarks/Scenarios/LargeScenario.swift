import Foundation
import Stepwise
import StepwiseModel
import StepwiseStore

/// `large`: one schema-only step that removes and renames nothing SQLite must rebuild
/// (``RecipesVariants/additive``: add an attribute with a default, rename one) on a store ten times `lightweight`'s
/// (10M recipes, about 2.3 GB; 1M with `--quick`), against one `sqlite3` transaction of the same
/// `ALTER TABLE`s on the store (issue 46).
///
/// None of those `ALTER`s reads a row, so the floor stays in milliseconds however large the
/// store. What Stepwise adds is what it reads to be safe: the `quick_check` of the store's pages
/// (the damaged-store refusal), which grows with the store, and the verification of the schema
/// and metadata, which doesn't. `stepwise_s` is what an app's launch waits for; the issue's
/// target is under 2 s at this size. `extra_disk_ratio` is the peak extra disk ÷ the store:
/// the issue's 0.2× target, for a step that rewrites no table.
struct LargeScenario: ChildScenario {
    var baselineCopiesSeed: Bool { false }

    func runStepwise(store: URL) throws -> [String] {
        let upgrader = try Upgrader(history: VersionHistory([RecipesVariants.base, RecipesVariants.additive]))
        return try UpgradeCheck.expect(
            try upgrader.upgradeIfNeededSynchronously(storeAt: store), to: RecipesVariants.additive.name)
    }

    func runBaseline(store: URL, seed: URL) throws -> [String] {
        try SQLiteShell.run(try Self.script(), on: store)
        return []
    }

    /// The `ALTER TABLE`s, with the names of the two layouts.
    static func script() throws -> String {
        let source = try StoreLayout(model: RecipesVariants.base)
        let destination = try StoreLayout(model: RecipesVariants.additive)
        let recipe = try SeedTable(source, "Recipe")
        let newRecipe = try SeedTable(destination, "Recipe")
        return """
            BEGIN;
            ALTER TABLE \(recipe.table) ADD COLUMN \(try newRecipe.column("rating")) INTEGER DEFAULT 0;
            ALTER TABLE \(recipe.table) RENAME COLUMN \(try recipe.column("directions")) TO \(try newRecipe.column("instructions"));
            COMMIT;

            """
    }

    var facts: StoreFacts {
        get throws {
            let layout = try StoreLayout(model: RecipesVariants.additive)
            let recipe = try SeedTable(layout, "Recipe")
            return StoreFacts(
                counting: layout,
                extra: [
                    (
                        "recipes rated 0",
                        "SELECT count(*) FROM \(recipe.table) WHERE \(try recipe.column("rating")) = 0"
                    ),
                    (
                        "recipes with a cuisine",
                        "SELECT count(*) FROM \(recipe.table) WHERE \(try recipe.column("cuisine")) IS NOT NULL"
                    ),
                ])
        }
    }
}
