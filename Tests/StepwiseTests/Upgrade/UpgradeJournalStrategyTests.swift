import Foundation
import StepwiseTesting
import Testing

@testable import Stepwise

/// A journal the previous release wrote, whose completed steps' reports have `inPlace` but no
/// `strategy`, still loads: the upgrade it records resumes instead of starting over.
@Suite("The journal across the strategy change")
struct UpgradeJournalStrategyTests {
    static func step(_ index: Int, _ strategy: StepStrategy, keptTables: [String] = []) -> UpgradeJournal.CompletedStep
    {
        var report = StepReport(
            from: "Recipes \(index)", to: "Recipes \(index + 1)", kind: .explicit, mappingModels: [],
            entityMappings: [], rows: 4, objects: 4, seconds: 0.5, strategy: strategy)
        report.keptTables = keptTables
        return UpgradeJournal.CompletedStep(
            index: index, report: report,
            output: UpgradeJournal.Checkpoint(
                file: "step-\(index)/store.sqlite", sha256: "00", bytes: 4096,
                identity: UpgradeJournal.FileIdentity(device: 1, inode: 2, size: 4096, modifiedNanoseconds: 3)))
    }

    @Test func aJournalWrittenBeforeStrategyExistedLoadsWithEachStepsStrategy() throws {
        let directory = try TemporaryDirectory()
        let original = try JSONDecoder().decode(
            UpgradeJournal.Fingerprint.self,
            from: Data(#"{"bytes": 8192, "modified": 1.5, "walBytes": 0, "walModified": 0}"#.utf8))
        var journal = UpgradeJournal(state: .running, original: original)
        journal.completed = [
            Self.step(1, .rebuild), Self.step(2, .partialRebuild, keptTables: ["ZCHEF"]), Self.step(3, .inPlace),
        ]
        // The previous release's form: each report without `strategy`.
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(journal)) as? [String: Any])
        let completed = try #require(object["completed"] as? [[String: Any]])
        object["completed"] = try completed.map { step in
            var step = step
            var report = try #require(step["report"] as? [String: Any])
            #expect(report["strategy"] != nil)
            report["strategy"] = nil
            step["report"] = report
            return step
        }
        try JSONSerialization.data(withJSONObject: object)
            .write(to: directory.url.appendingPathComponent(UpgradeJournal.fileName))

        let loaded = try #require(UpgradeJournal.load(from: directory.url))

        #expect(loaded.completed.map(\.report.strategy) == [.rebuild, .partialRebuild, .inPlace])
        #expect(loaded == journal)
    }
}
