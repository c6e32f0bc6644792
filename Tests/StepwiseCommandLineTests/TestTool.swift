import StepwiseTestSupport

extension CommandRunner {
    /// `stepwise-test-tool`: `stepwise` with every sample and corpus policy (University, Events,
    /// the corpus's), for the tests that run mappings naming them. The stock `stepwise` knows
    /// only the Recipes demo's.
    static func testTool() throws -> CommandRunner {
        try CommandRunner(executable: "stepwise-test-tool")
    }
}
