import Foundation
import StepwiseTesting
import Testing

// The README's "Prove every upgrade path in your CI" example, as an app team would write it,
// with only `import StepwiseTesting` and `import Testing`.

private let modelURL = Corpus.packageRoot.appendingPathComponent("Versions/University.xcdatamodeld")
private let myPolicies = SamplePolicies.registry

private let matrix = Result { try UpgradeMatrix(bundleAt: modelURL, policies: myPolicies) }

@Test(arguments: try matrix.get().cases)
func upgrades(_ pair: UpgradeMatrix.Pair) throws {
    try matrix.get().check(pair)
}
