// snippet.hide
// TestingEveryUpgradePath.md, "Seed what your data always holds": the matrix's test with seeding
// constraints. Built by `swift build`, never run.
import Foundation
import Stepwise
import StepwiseTesting
import Testing

let modelURL = URL(fileURLWithPath: "Shop.xcdatamodeld")
let matrix = Result { try UpgradeMatrix(bundleAt: modelURL, policies: PolicyRegistry()) }
// snippet.show
let seeding = SeedingConstraints(
    rows: RowCounts(default: 20, ["Order": 60]),  // rows per entity
    every: ["Order.customer"],  // a relationship set in every row
    unique: ["Order.number"],  // no two rows share a value
    values: ["Order.status": ["open", "shipped", "delivered"]])  // values from a list

@Test(arguments: try matrix.get().cases)
func upgrades(_ pair: UpgradeMatrix.Pair) throws {
    try matrix.get().check(pair, seeding: seeding)
}
