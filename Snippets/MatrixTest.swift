// snippet.hide
// TestingEveryUpgradePath.md: the matrix as a parameterized Swift Testing test. Built by
// `swift build`, never run: it is a test's source, and `swift test` runs none of the snippets.
import Foundation
import Stepwise
// snippet.show
import StepwiseTesting
import Testing

// snippet.hide
let modelURL = URL(fileURLWithPath: "Model.xcdatamodeld")
let myPolicies = PolicyRegistry()
// snippet.show
let matrix = Result { try UpgradeMatrix(bundleAt: modelURL, policies: myPolicies) }  // + Model.mappings/ beside it

@Test(arguments: try matrix.get().cases)
func upgrades(_ pair: UpgradeMatrix.Pair) throws {
    try matrix.get().check(pair)
}
