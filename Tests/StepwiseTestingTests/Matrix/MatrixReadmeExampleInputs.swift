import StepwiseTestSupport

// What an app's test target has of its own, kept apart so that MatrixReadmeExampleTests.swift
// compiles with only the imports the example shows: the model bundle and the policy registry.

/// The app's model bundle: here the University sample in `Versions/`.
let modelURL = Corpus.packageRoot.appendingPathComponent("Versions/University.xcdatamodeld")

/// The policies the app passes to `Upgrader`: here those of the sample histories.
let myPolicies = SamplePolicies.registry
