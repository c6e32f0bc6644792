// snippet.hide
// TestingEveryUpgradePath.md, "Policies that write other entities". Built by `swift build`, never
// run.
import Stepwise

// snippet.show
final class OrderPolicy: EntityMigrationPolicy {
    override var writesOtherEntities: [String: Set<String>] { ["Customer": ["orderCount"]] }
    // …
}
