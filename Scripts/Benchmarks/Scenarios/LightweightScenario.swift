import Foundation
import Stepwise
import StepwiseModel
import StepwiseStore

/// `lightweight`: one inferred step, Recipes → Recipes Light (``RecipesVariants/lightweight``:
/// add an attribute with a default, drop one, rename one, rename an entity).
///
/// - Stepwise: the whole `upgradeIfNeeded` (lock, identification, plan, the one transaction on
///   the store with its page check and verification: `UpgradePath.oneTransaction`) on a fresh
///   copy of the seed; putting that copy in place is not timed.
/// - Baseline: one `sqlite3` transaction with the same `ALTER TABLE`s on a fresh copy placed
///   the same way: what Core Data's own lightweight migration amounts to, and the floor for any
///   tool that changes the same schema on the store itself (issue 46; it included a `cp` of the
///   store when Stepwise copied it).
struct LightweightScenario: OneStepScenario {
    var target: ObjectModel { RecipesVariants.lightweight }

    /// The `ALTER TABLE`s, with the names of the two layouts, and the renamed entity's indexes
    /// under the names Core Data gives them (they carry the table's name: `ZCOMPONENT_…_INDEX`).
    /// SQLite renames an index only by building it again, so the floor builds them too: without
    /// that, the store would differ from the one Core Data lays out for the new version.
    func script() throws -> String {
        let source = try StoreLayout(model: RecipesVariants.base)
        let destination = try StoreLayout(model: RecipesVariants.lightweight)
        let recipe = try SeedTable(source, "Recipe")
        let newRecipe = try SeedTable(destination, "Recipe")
        let ingredient = try SeedTable(source, "Ingredient")
        let component = try SeedTable(destination, "Component")
        let sourceIndexes = Set(source.indexes.map(\.name))
        let destinationIndexes = Set(destination.indexes.map(\.name))
        let dropped = sourceIndexes.subtracting(destinationIndexes).sorted()
        let created = destination.indexes.filter { !sourceIndexes.contains($0.name) }
        return """
            BEGIN;
            ALTER TABLE \(recipe.table) ADD COLUMN \(try newRecipe.column("rating")) INTEGER DEFAULT 0;
            ALTER TABLE \(recipe.table) DROP COLUMN \(try recipe.column("cuisine"));
            ALTER TABLE \(recipe.table) RENAME COLUMN \(try recipe.column("directions")) TO \(try newRecipe.column("instructions"));
            ALTER TABLE \(ingredient.table) RENAME TO \(component.table);
            \(dropped.map { "DROP INDEX \($0.quotedSQLIdentifier);" }.joined(separator: "\n"))
            \(created.map { "\($0.createStatement);" }.joined(separator: "\n"))
            COMMIT;

            """
    }

    var facts: StoreFacts {
        get throws {
            let layout = try StoreLayout(model: RecipesVariants.lightweight)
            let recipe = try SeedTable(layout, "Recipe")
            return StoreFacts(
                counting: layout,
                extra: [
                    (
                        "recipes rated 0",
                        "SELECT count(*) FROM \(recipe.table) WHERE \(try recipe.column("rating")) = 0"
                    ),
                    (
                        "instruction characters",
                        "SELECT total(length(\(try recipe.column("instructions")))) FROM \(recipe.table)"
                    ),
                    // Both sides must leave the indexes the new version's layout names.
                    (
                        "indexes the layout names",
                        """
                        SELECT count(*) FROM sqlite_master WHERE type = 'index'
                        AND name IN (\(layout.indexes.map { "'\($0.name)'" }.joined(separator: ", ")))
                        """
                    ),
                ])
        }
    }
}
