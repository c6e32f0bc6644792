// snippet.hide
// EntityMigrationPolicies.md, "Change a policy, change its version". Built by `swift build`, never
// run.
// snippet.show
import Stepwise

// snippet.hide
final class ChefPolicy: EntityMigrationPolicy {}
var policies = PolicyRegistry()
// snippet.show
policies.register("ChefPolicy", version: "2") { ChefPolicy() }
