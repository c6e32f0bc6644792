// snippet.hide
// EntityMigrationPolicies.md, "Register it". Built by `swift build`, never run.
import Foundation
// snippet.show
import Stepwise

// snippet.hide
final class ChefPolicy: EntityMigrationPolicy {}
final class CuisinePolicy: EntityMigrationPolicy {}
let modelURL = URL(fileURLWithPath: "Recipes.xcdatamodeld")
// snippet.show
var policies = PolicyRegistry()
policies.register("ChefPolicy") { ChefPolicy() }
policies.register("CuisinePolicy") { CuisinePolicy() }
let upgrader = try Upgrader(bundleAt: modelURL, policies: policies)
// snippet.hide
_ = upgrader
