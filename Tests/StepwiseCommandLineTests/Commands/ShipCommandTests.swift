import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@Suite("stepwise ship")
struct ShipCommandTests {
    let runner: CommandRunner
    let directory: TemporaryDirectory

    init() throws {
        runner = try CommandRunner()
        directory = try TemporaryDirectory()
    }

    typealias Notes = EditedNotesHistory

    @Test func recordsTheCurrentVersionOnceAndRefusesAnEdit() throws {
        let bundle = try Notes.writeBundle([Notes.v1, Notes.v2Shipped], in: directory.url)
        let first = try runner.run(["ship", "--models", bundle.path])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("Recorded 'Notes 2' as shipped"))
        let file = ShippedRecords.fileURL(forVersion: "Notes 2", bundleAt: bundle)
        let bytes = try Data(contentsOf: file)

        let again = try runner.run(["ship", "--models", bundle.path, "--version", "Notes 2", "--json"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try again.json()["outcome"] as? String == "alreadyRecorded")
        #expect(try Data(contentsOf: file) == bytes)

        try Notes.writeBundle([Notes.v1, Notes.v2Edited], in: directory.url)
        let refused = try runner.run(["ship", "--models", bundle.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("Note.words changed type from Integer 16 to Integer 32."))
        #expect(refused.standardError.contains("Note.rating was added (Integer 16, required, default 3)."))
        #expect(refused.standardError.contains("--force"))
        #expect(try Data(contentsOf: file) == bytes)

        let forced = try runner.run(["ship", "--models", bundle.path, "--force", "--json"])
        #expect(forced.status == 0, "\(forced.standardError)")
        let json = try forced.json()
        #expect(json["outcome"] as? String == "overwritten")
        #expect((json["differences"] as? [[String: Any]])?.count == 2)
        #expect(try ShippedRecords.read(file).model() == Notes.v2Edited)
    }

    @Test func inspectAndPlanNameTheVersionAsShipped() throws {
        let bundle = try Notes.writeBundle([Notes.v1, Notes.v2Shipped], in: directory.url)
        #expect(try runner.run(["ship", "--models", bundle.path]).status == 0)
        try Notes.writeBundle([Notes.v1, Notes.v2Edited], in: directory.url)
        let store = directory.path("Notes.sqlite")
        try StoreCreator.createStore(at: store, model: Notes.v2Shipped)

        let inspect = try runner.run(["inspect", store.path, "--models", bundle.path, "--json"])
        #expect(inspect.status == 0, "\(inspect.standardError)")
        let inspection = try inspect.json()
        #expect(inspection["matchedVersion"] as? String == "Notes 2 (as shipped)")
        #expect(inspection["matchedBy"] as? String == "shippedRecord")

        let plan = try runner.run(["plan", store.path, "--models", bundle.path])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.standardOutput.contains("is at 'Notes 2 (as shipped)' (matched by shippedRecord)."))
        #expect(plan.standardOutput.contains("1. Notes 2 (as shipped) → Notes 2  inferred"))
    }
}
