// snippet.hide
// GuardingTheHistory.md: a history check that accepts one finding, in a Swift Testing test.
// Built by `swift build`, never run.
import Foundation
import Stepwise
import Testing

let modelURL = URL(fileURLWithPath: "Model.xcdatamodeld")
let myPolicies = PolicyRegistry()

@Test func theModelHistoryPasses() throws {
    // snippet.show
    let report = try HistoryCheck(bundleAt: modelURL, policies: myPolicies)
        .accepting(AcceptedFindings([.init(.duplicateVersion, version: "Model 8", reason: "…")]))
        .run()
    #expect(report.passes, "\(report.findings.map(\.description))")
    // snippet.hide
}
