import Foundation
import Stepwise
import StepwiseModel
import StepwiseStore

/// `chain`: ten consecutive inferred versions (``RecipesVariants/chain(count:)``) in one
/// `upgradeIfNeeded`, against one inferred step straight from the first to the last, on the
/// same store, ending in the same schema.
///
/// Both sides are Stepwise: the ratio says what a long history costs over the one step it
/// amounts to (ideally nothing: the steps can share one copy and one transaction).
struct ChainScenario: ChildScenario {
    var baselineCopiesSeed: Bool { false }

    func runStepwise(store: URL) throws -> [String] {
        let chain = RecipesVariants.chain()
        let upgrader = try Upgrader(history: VersionHistory([RecipesVariants.base] + chain))
        return try UpgradeCheck.expect(
            try upgrader.upgradeIfNeededSynchronously(storeAt: store), to: chain[chain.count - 1].name)
    }

    func runBaseline(store: URL, seed: URL) throws -> [String] {
        let last = RecipesVariants.chain()[9]
        let upgrader = try Upgrader(history: VersionHistory([RecipesVariants.base, last]))
        return try UpgradeCheck.expect(try upgrader.upgradeIfNeededSynchronously(storeAt: store), to: last.name)
    }

    var facts: StoreFacts {
        get throws {
            let layout = try StoreLayout(model: RecipesVariants.chain()[9])
            let recipe = try SeedTable(layout, "Recipe")
            return StoreFacts(
                counting: layout,
                extra: [
                    ("extra1 = 1", "SELECT count(*) FROM \(recipe.table) WHERE \(try recipe.column("extra1")) = 1"),
                    ("extra9 = 9", "SELECT count(*) FROM \(recipe.table) WHERE \(try recipe.column("extra9")) = 9"),
                    (
                        "direction characters",
                        "SELECT total(length(\(try recipe.column("directions")))) FROM \(recipe.table)"
                    ),
                ])
        }
    }
}
