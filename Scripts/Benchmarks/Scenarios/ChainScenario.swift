import Foundation
import Stepwise
import StepwiseModel
import StepwiseStore

/// `chain`: ten consecutive inferred versions (``RecipesVariants/chain(count:)``) in one
/// `upgradeIfNeeded`, against their `ALTER`-only floor: one `sqlite3` transaction on the store
/// adding the ten columns and dropping `cuisine`, ending in the same schema (issue 46). The ratio
/// says what a long history of schema-only versions costs over the SQL it amounts to.
struct ChainScenario: ChildScenario {
    var baselineCopiesSeed: Bool { false }

    func runStepwise(store: URL) throws -> [String] {
        let chain = RecipesVariants.chain()
        let upgrader = try Upgrader(history: VersionHistory([RecipesVariants.base] + chain))
        return try UpgradeCheck.expect(
            try upgrader.upgradeIfNeededSynchronously(storeAt: store), to: chain[chain.count - 1].name)
    }

    func runBaseline(store: URL, seed: URL) throws -> [String] {
        try SQLiteShell.run(try Self.script(), on: store)
        return []
    }

    /// The `ALTER TABLE`s of the ten versions, in one transaction.
    static func script() throws -> String {
        let source = try SeedTable(try StoreLayout(model: RecipesVariants.base), "Recipe")
        let recipe = try SeedTable(try StoreLayout(model: RecipesVariants.chain()[9]), "Recipe")
        var lines = ["BEGIN;"]
        for k in 1...10 {
            let column = try recipe.column("extra\(k)")
            lines.append(
                k % 2 == 1
                    ? "ALTER TABLE \(recipe.table) ADD COLUMN \(column) INTEGER DEFAULT \(k);"
                    : "ALTER TABLE \(recipe.table) ADD COLUMN \(column) VARCHAR;")
        }
        lines.append("ALTER TABLE \(recipe.table) DROP COLUMN \(try source.column("cuisine"));")
        lines.append("COMMIT;")
        return lines.joined(separator: "\n") + "\n"
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
