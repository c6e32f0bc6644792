import StepwiseCommandLine
import StepwiseTestSupport

/// `stepwise-test-tool`: `stepwise` with every sample and corpus policy (University, Events,
/// the corpus's), for the CLI tests that run those mappings.
@main struct StepwiseTestTool: StepwiseTool {
    static var policies: PolicyRegistry { SamplePolicies.registry }
}
