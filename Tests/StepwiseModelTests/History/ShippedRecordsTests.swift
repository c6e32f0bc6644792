import Foundation
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

@Suite("Shipped records")
struct ShippedRecordsTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    typealias Notes = EditedNotesHistory

    @Test func recordingTheSameModelAgainChangesNoByte() throws {
        let bundle = try Notes.writeBundle([Notes.v1, Notes.v2Shipped], in: directory.url)
        let first = try ShippedRecords.record(of: bundle, now: Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(first.outcome == .recorded)
        #expect(first.file.lastPathComponent == "Notes 2.json")
        #expect(first.file.deletingLastPathComponent().lastPathComponent == "Notes.shipped")
        let bytes = try Data(contentsOf: first.file)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"shippedAt\" : \"2023-11-14T22:13:20Z\""))
        let hash = try #require(Notes.v2Shipped.entityVersionHashes["Note"]).base64EncodedString()
        #expect(text.contains("\"Note\" : \"\(hash)\""))

        let again = try ShippedRecords.record("Notes 2", of: bundle, now: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(again.outcome == .alreadyRecorded)
        #expect(try Data(contentsOf: first.file) == bytes)
        #expect(again.record.shippedAt == Date(timeIntervalSince1970: 1_700_000_000))

        let records = try ShippedRecords.load(forBundleAt: bundle)
        #expect(records.map(\.name) == ["Notes 2"])
        #expect(try records[0].model() == Notes.v2Shipped)
        let contents = bundle.appendingPathComponent("Notes 2.xcdatamodel/contents")
        #expect(records[0].contents == (try String(contentsOf: contents, encoding: .utf8)))
    }

    @Test func recordingAnEditedModelIsRefusedWithWhatChanged() throws {
        let bundle = try Notes.writeBundle([Notes.v1, Notes.v2Shipped], in: directory.url)
        let recorded = try ShippedRecords.record("Notes 2", of: bundle)
        let bytes = try Data(contentsOf: recorded.file)
        try Notes.writeBundle([Notes.v1, Notes.v2Edited], in: directory.url)

        let error = #expect(throws: ModelError.self) { try ShippedRecords.record("Notes 2", of: bundle) }
        guard case .changedSinceShipped(let version, let differences)? = error?.kind else {
            Issue.record("expected changedSinceShipped, got \(String(describing: error))")
            return
        }
        #expect(version == "Notes 2")
        #expect(
            differences.map(\.description) == [
                "Note.words changed type from Integer 16 to Integer 32.",
                "Note.rating was added (Integer 16, required, default 3).",
            ])
        #expect(differences.map(\.kind) == [.attributeTypeChanged, .propertyAdded])
        #expect(differences.map(\.property) == ["words", "rating"])
        #expect(differences.allSatisfy { $0.entity == "Note" })
        #expect(error?.description.contains("Note.rating was added") == true)
        #expect(try Data(contentsOf: recorded.file) == bytes)

        let forced = try ShippedRecords.record("Notes 2", of: bundle, force: true)
        #expect(forced.outcome == .overwritten)
        #expect(forced.differences == differences)
        #expect(forced.record.shippedAt == recorded.record.shippedAt)
        #expect(try ShippedRecords.load(forBundleAt: bundle).first?.model() == Notes.v2Edited)
    }

    @Test func aMissingFolderHoldsNoRecordsAndABrokenFileIsNamed() throws {
        let bundle = try Notes.writeBundle([Notes.v1], in: directory.url)
        #expect(try ShippedRecords.load(forBundleAt: bundle).isEmpty)
        let folder = ShippedRecords.folderURL(forBundleAt: bundle)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("Notes.json")
        try Data("{".utf8).write(to: file)
        let error = #expect(throws: ModelError.self) { try ShippedRecords.load(forBundleAt: bundle) }
        #expect(error?.path == file.path)
        #expect(error?.caseName == "malformed")

        // A record whose contents are no model is refused when it is read, naming its file.
        var broken = Notes.record
        broken.name = "Notes"
        broken.contents = "<model><entity/></model>"
        try ShippedRecords.encoded(broken).write(to: file)
        let unreadable = #expect(throws: ModelError.self) { try ShippedRecords.load(forBundleAt: bundle) }
        #expect(unreadable?.path == file.path)
        #expect(unreadable?.description.contains("its contents are not a readable model") == true)
    }

    @Test func modelDifferencesNameEntityAndProperty() {
        let before = ObjectModel("M") {
            Entity("A") {
                Attribute("x", .string)
                Relationship("b", to: "B")
            }
            Entity("B") { Attribute("y", .string) }
            Entity("Gone") { Attribute("z", .string) }
        }
        let after = ObjectModel("M") {
            Entity("A") {
                Attribute("x", .string).required()
                Relationship("b", to: "C").toMany()
            }
            Entity("B") {}
            Entity("C") { Attribute("y", .string) }
        }
        #expect(
            ModelDifference.between(before, after).map(\.description) == [
                "A.x became required (was optional).",
                "A.b now points to C (was B).",
                "A.b became to-many (was to-one).",
                "B.y was removed.",
                "Entity Gone was removed.",
                "Entity C was added.",
            ])
        #expect(ModelDifference.between(before, before).isEmpty)
    }
}
