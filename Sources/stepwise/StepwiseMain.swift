import StepwiseCommandLine
import StepwiseDemo

/// `stepwise`: Stepwise's commands, knowing the demo's Recipes policies only.
@main struct StepwiseMain: StepwiseTool {
    static var policies: PolicyRegistry { DemoPolicies.registry }
}
