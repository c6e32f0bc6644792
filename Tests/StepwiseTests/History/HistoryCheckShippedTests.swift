import Foundation
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// The shipped records' findings: a shipped version edited since its record (an attribute
/// added, a type changed), and the current version not recorded yet.
@Suite("History check: shipped records")
struct HistoryCheckShippedTests {
    static func findings(_ kind: HistoryFinding.Kind, in report: HistoryCheckReport) -> [HistoryFinding] {
        report.findings.filter { $0.kind == kind }
    }

    @Test("a shipped version edited by adding an attribute and by changing a type: one error each")
    func editedShippedVersion() {
        let check = HistoryCheck(history: EditedNotesHistory.history, shipped: [EditedNotesHistory.record])
        let edits = Self.findings(.shippedVersionEdited, in: check.run()).sorted {
            ($0.property ?? "") < ($1.property ?? "")
        }
        #expect(edits.map(\.severity) == [.error, .error])
        #expect(edits.map(\.version) == ["Notes 2", "Notes 2"])
        #expect(edits.map(\.entity) == ["Note", "Note"])
        #expect(edits.map(\.property) == ["rating", "words"])
        #expect(
            edits[0].message
                == "'Notes 2' changed since it shipped: Note.rating was added (Integer 16, required, default 3).")
        #expect(
            edits[1].message
                == "'Notes 2' changed since it shipped: Note.words changed type from Integer 16 to Integer 32.")
        #expect(
            edits[0].fix
                == "Put this change in a new model version and restore 'Notes 2' as it shipped (its record in the bundle's .shipped folder holds it); stores it wrote still upgrade, through the record."
        )
        #expect(check.run().errors >= 2)
    }

    @Test("an unchanged shipped version has no finding; the current version not yet recorded is information")
    func unchangedAndNotYetShipped() {
        let history = VersionHistory([EditedNotesHistory.v1, EditedNotesHistory.v2Shipped])
        let recorded = HistoryCheck(history: history, shipped: [EditedNotesHistory.record]).run()
        #expect(recorded.findings.isEmpty, "\(recorded.findings)")
        let notYet = HistoryCheck(history: history).run()
        #expect(notYet.errors == 0 && notYet.warnings == 0)
        #expect(notYet.findings.map(\.kind) == [.currentVersionNotShipped])
        #expect(notYet.findings.first?.severity == .info)
        #expect(notYet.findings.first?.version == "Notes 2")
        #expect(notYet.findings.first?.message == "the current version 'Notes 2' is not recorded as shipped yet.")
        #expect(
            notYet.findings.first?.fix
                == "When it ships, record it (the `ship` command of your Stepwise tool, or ShippedRecords.record) and commit the bundle's .shipped folder."
        )
    }

    @Test(
        "a bundle's records are read from <Name>.shipped: an edit after `ship` is found, and the fix names the folder")
    func bundleRecordsAreRead() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-check-shipped")
        let bundle = try EditedNotesHistory.writeBundle(
            [EditedNotesHistory.v1, EditedNotesHistory.v2Shipped], in: directory.url)
        _ = try ShippedRecords.record("Notes 2", of: bundle)
        let clean = try HistoryCheck(bundleAt: bundle).run()
        #expect(clean.errors == 0)
        #expect(Self.findings(.currentVersionNotShipped, in: clean).isEmpty)
        try EditedNotesHistory.writeBundle([EditedNotesHistory.v1, EditedNotesHistory.v2Edited], in: directory.url)
        let edited = try HistoryCheck(bundleAt: bundle).run()
        let edits = Self.findings(.shippedVersionEdited, in: edited)
        #expect(edits.count == 2)
        #expect(edits.allSatisfy { $0.fix.contains("its record in Notes.shipped holds it") })
    }
}
