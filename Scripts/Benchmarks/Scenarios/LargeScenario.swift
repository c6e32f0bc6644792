import Foundation
import Stepwise
import StepwiseModel
import StepwiseStore

/// `large`: one schema-only step that rewrites and rebuilds nothing
/// (``RecipesVariants/additive``: add an attribute with a default, rename one) on a store ten
/// times `lightweight`'s (10M recipes, about 2.4 GB; 1M with `--quick`), against one `sqlite3`
/// transaction of the same `ALTER TABLE`s on the store (issue 46).
///
/// None of those `ALTER`s reads a row, so the floor doesn't grow with the rows. Nor should
/// Stepwise's side: the one transaction checks the pages it loads rather than every page, and
/// an in-place step scans no required attribute it kept or added with a value. What is left is
/// counting each entity's rows through its narrowest index for the report. `stepwise_s` is what
/// an app's launch waits for; the issue's target is under 2 s at this size. `extra_disk_ratio`
/// is the peak extra disk ÷ the store: the issue's 0.2× target, for a step that rewrites no table.
struct LargeScenario: OneStepScenario {
    var target: ObjectModel { RecipesVariants.additive }

    /// The `ALTER TABLE`s, with the names of the two layouts.
    func script() throws -> String {
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
