import StepwiseTesting
import Testing

// The "Testing every upgrade path" example, as an app team would write it, with only
// `import StepwiseTesting` and `import Testing`: what the product must give a team's tests.
// `modelURL` and `myPolicies` stand for the app's own (MatrixReadmeExampleInputs.swift).

private let matrix = Result { try UpgradeMatrix(bundleAt: modelURL, policies: myPolicies) }

@Test(arguments: try matrix.get().cases)
func upgrades(_ pair: UpgradeMatrix.Pair) throws {
    try matrix.get().check(pair)
}
