// snippet.hide
// GettingStarted.md, "Upgrade at launch". Built by `swift build`, never run: the model and the
// store are placeholders, so running it stops at the first line that reads them.
import Foundation
// snippet.show
import Stepwise

// snippet.hide
final class ChefNamePolicy: EntityMigrationPolicy {}
let storeURL = URL(fileURLWithPath: "Recipes.sqlite")
// snippet.show
var policies = PolicyRegistry()
policies.register("ChefNamePolicy") { ChefNamePolicy() }  // by the class names your mapping models use

let upgrader = try Upgrader(
    bundleAt: Bundle.main.url(forResource: "Model", withExtension: "momd")!,
    policies: policies,
    options: UpgradeOptions(keepBackup: true))
let report = try await upgrader.upgradeIfNeeded(storeAt: storeURL)
switch report.outcome {
case .noStore: break  // a first launch: nothing to upgrade
case .upToDate: break
case .upgraded: print("\(report.from) → \(report.to) in \(report.steps.count) step(s)")
}
let dbPool = try upgrader.openDatabasePool(storeAt: storeURL)
// snippet.hide
_ = dbPool
