import Foundation
import StepwiseTestSupport
import Testing

/// Every command's error goes through `StepwiseTool.exit(for:json:)`: the stock `stepwise` and
/// a team's own tool (`stepwise-test-tool`) fail the same way, text or `--json`, with the
/// status `CommandExitStatus` gives.
@Suite("The tool's one route from an error to its exit")
struct ExitRouteTests {
    /// Failures of several kinds, with and without JSON: a missing store (the command's own
    /// `CommandFailure`, and a library `StoreError`) and a missing model (`ModelError`).
    static let failures: [(arguments: [String], status: Int32, json: Bool)] = [
        (["upgrade", "/nonexistent/App.sqlite", "--models", "/nonexistent/Model.xcdatamodeld"], 66, false),
        (["upgrade", "/nonexistent/App.sqlite", "--models", "/nonexistent/Model.xcdatamodeld", "--json"], 66, true),
        (["inspect", "/nonexistent/App.sqlite", "--json"], 66, true),
        (
            ["plan", "/nonexistent/App.sqlite", "--models", "/nonexistent/Model.xcdatamodeld", "--format", "json"], 65,
            true
        ),
        (["schema", "--models", "/nonexistent/Model.xcdatamodeld"], 65, false),
    ]

    @Test("a stock and a team's tool fail alike", arguments: failures.indices)
    func stockAndTeamToolsFailAlike(_ index: Int) throws {
        let (arguments, status, json) = Self.failures[index]
        let stock = try CommandRunner().run(arguments)
        let team = try CommandRunner.testTool().run(arguments)

        #expect(stock.status == status, "\(stock.standardError)")
        #expect(team.status == stock.status)
        #expect(stock.standardError.hasPrefix("Error: "))
        #expect(
            team.standardError.replacingOccurrences(of: "stepwise-test-tool", with: "stepwise") == stock.standardError)
        #expect(
            team.standardOutput.replacingOccurrences(of: "stepwise-test-tool", with: "stepwise") == stock.standardOutput
        )
        if json {
            #expect(try stock.json()["error"] is [String: Any])
        } else {
            #expect(stock.standardOutput.isEmpty)
        }
    }
}
