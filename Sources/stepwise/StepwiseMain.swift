import StepwiseCommandLine
import StepwiseDemo

/// `stepwise`: Stepwise's commands, knowing the demo's Recipes policies only.
@main struct StepwiseMain: StepwiseTool {
    static var policies: PolicyRegistry { DemoPolicies.registry }
    /// A team's mappings name their own policies, which this tool can't know: `check` leaves
    /// policies to the team's own tool or to `HistoryCheck` in its tests.
    static var checksPolicies: Bool { false }
}
