import Foundation
import StepwiseCommandLine
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// A team's tool speaks its own name: help, hints and messages say `stepwise-test-tool`, never
/// `stepwise`, which that team doesn't have.
@Suite("The tool's own name")
struct ToolNameTests {
    static let commands = [
        "demo", "inspect", "create", "schema", "diff", "migrate-step", "plan", "upgrade", "rollback", "discard",
        "matrix", "check", "ship", "convert",
    ]

    /// Help text that names the stock tool as a command: "`stepwise plan`", or an example line.
    static func namesStepwiseAsACommand(_ text: String) -> Bool {
        text.contains("`stepwise ")
            || text.split(separator: "\n").contains { $0.drop(while: { $0 == " " }).hasPrefix("stepwise ") }
    }

    @Test(arguments: commands)
    func eachCommandsHelpUsesTheToolsName(command: String) throws {
        let help = try CommandRunner.testTool().run([command, "--help"])

        #expect(help.status == 0, "\(help.standardError)")
        #expect(help.standardOutput.contains("stepwise-test-tool \(command)"), "\(help.standardOutput)")
        #expect(!Self.namesStepwiseAsACommand(help.standardOutput), "\(help.standardOutput)")
    }

    @Test func theToolsHelpUsesItsName() throws {
        let help = try CommandRunner.testTool().run(["--help"])

        #expect(help.standardOutput.contains("`stepwise-test-tool plan`"))
        #expect(!Self.namesStepwiseAsACommand(help.standardOutput), "\(help.standardOutput)")
    }

    /// The line after an upgrade with a backup says how to undo it, with this tool.
    @Test func theBackupLineNamesTheToolsRollback() throws {
        let directory = try TemporaryDirectory()
        _ = try SampleHistories.write(to: directory.url)
        let store = directory.path("University.sqlite")
        try StoreCreator.createStore(at: store, model: UniversityHistory.v2)
        try UniversitySeed.seed(at: store, model: UniversityHistory.v2)

        let result = try CommandRunner.testTool().run([
            "upgrade", store.path, "--models", directory.path("University.xcdatamodeld").path, "--progress", "none",
            "--keep-backup",
        ])

        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("(undo with `stepwise-test-tool rollback \(store.path)`)"))
        #expect(!result.standardOutput.contains("`stepwise "))
    }

    /// `create`, `schema` and `ship` have a `--version <name>` option of their own: their help
    /// lists `--version` once, and `--version` alone still prints the tool's version.
    @Test(arguments: ["create", "schema", "ship"])
    func helpListsTheModelVersionOptionOnce(command: String) throws {
        for runner in [try CommandRunner(), try CommandRunner.testTool()] {
            let help = try runner.run([command, "--help"])
            // The options list, not the usage line or the examples.
            let lines = help.standardOutput.split(separator: "\n").filter {
                $0.drop(while: { $0 == " " }).hasPrefix("--version")
            }
            #expect(lines.count == 1, "\(help.standardOutput)")
            #expect(lines.first?.contains("--version <name>") == true)
            #expect(!help.standardOutput.contains("Show the version."))
        }
    }

    @Test func versionAloneStillPrintsTheVersion() throws {
        let result = try CommandRunner().run(["--version"])

        #expect(result.status == 0)
        #expect(result.standardOutput == "\(StepwiseVersion.current)\n")
    }
}
