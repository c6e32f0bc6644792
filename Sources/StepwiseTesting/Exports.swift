// What an app team's tests need, through one `import StepwiseTesting`: the upgrade matrix,
// seeded stores, store consistency checks and temporary directories, all from StepwiseMatrix.
// This repository's own fixtures (the corpus, the sample histories, the CLI runners) are in
// StepwiseTestSupport, which is not a product.
@_exported import StepwiseMatrix
