import Foundation
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `diff`, `plan` and `upgrade` name the data a step drops, on copies of real stores: W1 with
/// wibosco's bundle alone (its inferred 1 → 2 drops `Post.color`), and Apptentive v4 with a
/// v4 → v5 mapping file that leaves out `ATMessageSender`.
@Suite("Dropped data in the CLI", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct DroppedDataCLITests {
    /// wibosco's bundle alone (no mapping model beside it) and a copy of W1.
    func wiboscoWithoutMappingModels() throws -> (TemporaryDirectory, bundle: URL, store: URL) {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let bundle = directory.path("CoreDataMigration_Example.xcdatamodeld")
        try FileManager.default.copyItem(at: corpus.url(.wibosco), to: bundle)
        let store = try corpus.copyStore(try CorpusStore.named("W1"), to: directory.url)
        return (directory, bundle, store)
    }

    /// Apptentive's bundle alone, a copy of v4, and `maps/` holding Apptentive's own v4 → v5
    /// mapping model converted to JSON (`stepwise convert`) without `ATMessageSender`.
    func apptentiveLeavingOutSenders() throws -> (TemporaryDirectory, bundle: URL, store: URL, mappings: URL) {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let bundle = directory.path("ATDataModel.xcdatamodeld")
        try FileManager.default.copyItem(at: corpus.url(.apptentive), to: bundle)
        let mappingModel = try #require(
            try corpus.mappingModels(.apptentive).first {
                $0.lastPathComponent == "ATDataModel v4 to v5.xcmappingmodel"
            })
        let converted = try CommandRunner.testTool().run(["convert", mappingModel.path, "--models", bundle.path])
        #expect(converted.status == 0, "\(converted.standardError)")
        var file = try converted.json()
        let mappings = try #require(file["entityMappings"] as? [[String: Any]])
        file["entityMappings"] = mappings.filter { $0["source"] as? String != "ATMessageSender" }.map { mapping in
            // Relationship mappings that named the left-out mapping go too.
            var mapping = mapping
            if let relationships = mapping["relationships"] as? [String: String] {
                mapping["relationships"] = relationships.filter { !$0.value.contains("ATMessageSenderTo") }
            }
            return mapping
        }
        let folder = directory.path("maps")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: file).write(to: folder.appendingPathComponent("v4 to v5.json"))
        let store = try corpus.copyStore(try CorpusStore.named("v4"), to: directory.url)
        return (directory, bundle, store, folder)
    }

    @Test func diffMarksARemovedAttributeAsDropped() throws {
        let (directory, bundle, _) = try wiboscoWithoutMappingModels()
        defer { withExtendedLifetime(directory) {} }
        let text = try CommandRunner.testTool().run([
            "diff", "--models", bundle.path, "--from", "CoreDataMigration_Example",
        ])
        #expect(text.standardOutput.contains("- color: String, values dropped"), "\(text.standardOutput)")
        let json = try CommandRunner.testTool().run([
            "diff", "--models", bundle.path, "--from", "CoreDataMigration_Example", "--json",
        ])
        let entities = try #require(try json.json()["entities"] as? [[String: Any]])
        let properties = try #require(entities.first?["properties"] as? [[String: Any]])
        let color = try #require(properties.first { $0["name"] as? String == "color" })
        #expect(color["change"] as? String == "removed")
        #expect(color["dropped"] as? String == "removedFromModel")
    }

    @Test func diffListsAnEntityLeftOutOfAnExplicitMapping() throws {
        let (directory, bundle, _, mappings) = try apptentiveLeavingOutSenders()
        defer { withExtendedLifetime(directory) {} }
        let text = try CommandRunner.testTool().run([
            "diff", "--models", bundle.path, "--mappings", mappings.path, "--from", "ATDataModel 4",
        ])
        #expect(text.standardOutput.contains("Explicit mapping: v4 to v5.json"), "\(text.standardOutput)")
        #expect(
            text.standardOutput.contains("- ATMessageSender: left out of the mapping (in both versions), rows dropped"),
            "\(text.standardOutput)")
    }

    @Test func planCountsWhatAnInferredStepDrops() throws {
        let (directory, bundle, store) = try wiboscoWithoutMappingModels()
        defer { withExtendedLifetime(directory) {} }
        let arguments = ["plan", store.path, "--models", bundle.path, "--to", "CoreDataMigration_Example 2"]
        let text = try CommandRunner.testTool().run(arguments)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(
            text.standardOutput.contains("drops 1001 non-null values of Post.color (removed from the model)"),
            "\(text.standardOutput)")
        let json = try CommandRunner.testTool().run(arguments + ["--format", "json"])
        let drops = try #require(try json.json()["drops"] as? [[String: Any]])
        #expect(drops.count == 1)
        #expect(drops.first?["step"] as? Int == 1)
        #expect(drops.first?["entity"] as? String == "Post")
        #expect(drops.first?["property"] as? String == "color")
        #expect(drops.first?["kind"] as? String == "attribute")
        #expect(drops.first?["count"] as? Int == 1001)
        #expect(drops.first?["declared"] as? Bool == false)
    }

    @Test func planCountsTheRowsOfAnEntityLeftOutOfAnExplicitMapping() throws {
        let (directory, bundle, store, mappings) = try apptentiveLeavingOutSenders()
        defer { withExtendedLifetime(directory) {} }
        let arguments = [
            "plan", store.path, "--models", bundle.path, "--mappings", mappings.path, "--to", "ATDataModel 5",
        ]
        let text = try CommandRunner.testTool().run(arguments)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(
            text.standardOutput.contains("drops 2 rows of ATMessageSender (left out of the mapping)"),
            "\(text.standardOutput)")
        let json = try CommandRunner.testTool().run(arguments + ["--format", "json"])
        let drops = try #require(try json.json()["drops"] as? [[String: Any]])
        let senders = try #require(drops.first { $0["entity"] as? String == "ATMessageSender" })
        #expect(senders["reason"] as? String == "leftOutOfMapping")
        #expect(senders["kind"] as? String == "entity")
        #expect(senders["count"] as? Int == 2)
    }

    @Test(arguments: ["wibosco", "apptentive"])
    func strictUpgradeIsRefusedAndTheStoreIsUntouched(_ project: String) throws {
        var arguments: [String]
        let store: URL
        let expected: String
        let keep: TemporaryDirectory
        if project == "wibosco" {
            let (directory, bundle, copy) = try wiboscoWithoutMappingModels()
            (keep, store) = (directory, copy)
            arguments = ["upgrade", copy.path, "--models", bundle.path, "--to", "CoreDataMigration_Example 2"]
            expected = "1001 non-null values of Post.color"
        } else {
            let (directory, bundle, copy, mappings) = try apptentiveLeavingOutSenders()
            (keep, store) = (directory, copy)
            arguments = [
                "upgrade", copy.path, "--models", bundle.path, "--mappings", mappings.path, "--to", "ATDataModel 5",
            ]
            expected = "2 rows of ATMessageSender (left out of the mapping)"
        }
        let before = try Data(contentsOf: store)
        let refused = try CommandRunner.testTool().run(arguments + ["--strict", "--json", "--progress", "none"])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains(expected), "\(refused.standardError)")
        let error = try #require(try refused.json()["error"] as? [String: Any])
        #expect(error["kind"] as? String == "dropsData")
        #expect((error["drops"] as? [[String: Any]])?.isEmpty == false)
        #expect(try Data(contentsOf: store) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: keep.url.path).filter {
            $0.hasPrefix(".") && $0.hasSuffix(".stepwise")
        }
        #expect(leftovers.isEmpty)

        // Without --strict it upgrades, and the report says what each step dropped.
        let upgraded = try CommandRunner.testTool().run(arguments + ["--json", "--progress", "none"])
        #expect(upgraded.status == 0, "\(upgraded.standardError)")
        let steps = try #require(try upgraded.json()["steps"] as? [[String: Any]])
        let drops = steps.flatMap { $0["drops"] as? [[String: Any]] ?? [] }
        #expect(drops.contains { ($0["count"] as? Int ?? 0) > 0 && $0["declared"] as? Bool == false })
    }
}
