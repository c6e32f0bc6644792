// This repository's tests reach the demo's Recipes history, its mappings, seed and policies
// through `import StepwiseTestSupport`, beside the other sample histories: StepwiseTesting, the
// product, no longer carries them.
@_exported import StepwiseDemo
