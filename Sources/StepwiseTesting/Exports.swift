// Test code reaches the matrix, the seeding helpers and the demo's Recipes history through
// `import StepwiseTesting`, as it did before they moved into their own modules.
@_exported import StepwiseDemo
@_exported import StepwiseMatrix
