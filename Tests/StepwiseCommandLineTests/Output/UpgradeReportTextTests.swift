import Foundation
import Stepwise
import Testing

@testable import StepwiseCommandLine

/// What `upgrade` prints: a step resumed from a checkpoint says so, instead of the killed run's
/// time as if it had run now.
@Suite("The upgrade report as text")
struct UpgradeReportTextTests {
    static func step(_ from: String, _ to: String, seconds: Double, strategy: StepStrategy = .rebuild) -> StepReport {
        StepReport(
            from: from, to: to, kind: strategy == .inPlace ? .inferred : .explicit, mappingModels: [],
            entityMappings: [], rows: 10, objects: 12, seconds: seconds, strategy: strategy)
    }

    @Test func aResumedStepShowsItCameFromACheckpointNotATime() throws {
        let report = UpgradeReport(
            from: "A", to: "C", outcome: .upgraded,
            steps: [
                Self.step("A", "B", seconds: 7.25).resumedFromCheckpoint(),
                Self.step("B", "C", seconds: 0.5, strategy: .inPlace),
            ],
            backupURL: URL(fileURLWithPath: "/x/App.sqlite.stepwise-backup"), seconds: 0.75)

        let lines = report.textLines(store: "App.sqlite", tool: "notes-upgrade")

        #expect(lines[1].hasSuffix("resumed from a checkpoint of an interrupted run  rebuilt"), "\(lines[1])")
        #expect(!lines[1].contains("7.25"))
        #expect(!lines[1].contains("0.00 s"))
        #expect(lines[2].hasSuffix("0.50 s  in place"))
        #expect(lines.last == "Backup: /x/App.sqlite.stepwise-backup (undo with `notes-upgrade rollback App.sqlite`)")
        #expect("\(report.steps[0])" == "A → B (explicit, 12 objects, resumed from a checkpoint, rebuilt)")
    }

    @Test func resumingMovesTheEarlierTimeApart() throws {
        let resumed = Self.step("A", "B", seconds: 7.25).resumedFromCheckpoint()

        #expect(resumed.resumed)
        #expect(resumed.seconds == 0)
        #expect(resumed.earlierRunSeconds == 7.25)
        #expect(resumed.resumedFromCheckpoint() == resumed)
        let decoded = try JSONDecoder().decode(StepReport.self, from: JSONEncoder().encode(resumed))
        #expect(decoded == resumed)
    }
}
