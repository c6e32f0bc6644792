import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// A team's own tool: `Examples/notes-upgrade`, a `StepwiseTool` of 9 lines registering one
/// policy, upgrades a Notes store through a mapping file that names the policy.
@Suite("A custom StepwiseTool")
struct CustomToolTests {
    static let notes1 = ObjectModel("Notes") {
        Entity("Note") {
            Attribute("body", .string)
            Attribute("title", .string)
        }
    }
    static let notes2 = ObjectModel("Notes 2") {
        Entity("Note") {
            Attribute("body", .string)
            Attribute("title", .string).required()
        }
    }
    /// Notes → Notes 2: every note gets a title from `TitlePolicy`.
    static let mapping = """
        {
          "source": "Notes",
          "destination": "Notes 2",
          "entityMappings": [
            {
              "name": "NoteToNote",
              "source": "Note",
              "destination": "Note",
              "policy": "TitlePolicy",
              "attributes": {
                "body": "$source.body",
                "title": "FUNCTION($entityPolicy, \\"titleOf:body:\\", $source.title, $source.body)"
              }
            }
          ]
        }
        """

    @Test func notesUpgradeRunsItsOwnPolicy() throws {
        let directory = try TemporaryDirectory()
        let bundle = directory.path("Notes.xcdatamodeld")
        try XcodeModelWriter.writeBundle([Self.notes1, Self.notes2], current: "Notes 2", to: bundle)
        let mappings = directory.path("Notes.mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        try Data(Self.mapping.utf8).write(to: mappings.appendingPathComponent("Notes to Notes 2.json"))
        let store = directory.path("Notes.sqlite")
        try StoreCreator.createStore(at: store, model: Self.notes1)
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: Self.notes1))
            _ = try objects.insert("Note", ["title": "  Groceries ", "body": "milk\neggs"])
            _ = try objects.insert("Note", ["title": nil, "body": "Call Ana\nabout Friday"])
            _ = try objects.insert("Note", ["title": "", "body": nil])
        }
        try queue.close()

        let result = try CommandRunner(executable: "notes-upgrade").run([
            "upgrade", store.path, "--models", bundle.path, "--progress", "none",
        ])

        #expect(result.status == 0, "\(result.standardError)")
        let upgraded = try DatabaseQueue(path: store.path)
        defer { try? upgraded.close() }
        let titles = try upgraded.read { db in
            try String.fetchAll(db, sql: "SELECT ZTITLE FROM ZNOTE ORDER BY Z_PK")
        }
        #expect(titles == ["Groceries", "Call Ana", "Untitled"])
    }

    /// The tool part of the example stays a few lines: what the README and the article promise.
    @Test func theToolIsAtMostTenLines() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/notes-upgrade/NotesUpgrade.swift").standardized
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count <= 10)
        #expect(!text.contains("import GRDB"))
        #expect(text.contains("StepwiseTool"))
        let readme = try String(
            contentsOf: file.deletingLastPathComponent().appendingPathComponent("../../README.md").standardized,
            encoding: .utf8)
        #expect(readme.contains("```swift\n" + text + "```"), "the README shows NotesUpgrade.swift as it is")
    }
}
