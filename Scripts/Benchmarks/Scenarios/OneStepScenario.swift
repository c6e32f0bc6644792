import Foundation
import Stepwise
import StepwiseModel

/// A scenario whose Stepwise side upgrades the seed (``RecipesVariants/base``) to ``target`` in
/// one `upgradeIfNeeded`, against ``script()`` run by `sqlite3` on the store in one transaction:
/// the SQL the upgrade amounts to, and its floor (`lightweight`, `large`).
protocol OneStepScenario: ChildScenario {
    /// The version the seed is upgraded to.
    var target: ObjectModel { get }
    /// The floor's SQL, a transaction of its own.
    func script() throws -> String
}

extension OneStepScenario {
    var baselineCopiesSeed: Bool { false }

    func runStepwise(store: URL) throws -> [String] {
        let upgrader = try Upgrader(history: VersionHistory([RecipesVariants.base, target]))
        return try UpgradeCheck.expect(try upgrader.upgradeIfNeededSynchronously(storeAt: store), to: target.name)
    }

    func runBaseline(store: URL, seed: URL) throws -> [String] {
        try SQLiteShell.run(try script(), on: store)
        return []
    }
}
