// snippet.hide
// TestingEveryUpgradePath.md, "Check the history itself": the history check as a Swift Testing
// test. Built by `swift build`, never run.
import Foundation
// snippet.show
import Stepwise
import Testing

// snippet.hide
let modelURL = URL(fileURLWithPath: "Model.xcdatamodeld")
let myPolicies = PolicyRegistry()
// snippet.show
@Test func theModelHistoryIsSound() throws {
    let report = try HistoryCheck(bundleAt: modelURL, policies: myPolicies).run()
    #expect(report.errors == 0, "\(report.findings.map(\.description))")
}
