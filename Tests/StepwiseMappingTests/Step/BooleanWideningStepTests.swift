import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// A Boolean that becomes an integer (Wire's `isSilenced` → `mutedStatus`, Boolean →
/// Integer 32) is an inferred widening: 0 stays 0, 1 stays 1, NULL stays NULL, on each path a
/// step can take, and the diff says "widened".
@Suite("Boolean → integer widening")
struct BooleanWideningStepTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static let integerTypes: [AttributeType] = [.integer16, .integer32, .integer64]

    static let chat = ObjectModel("Chat") {
        Entity("Conversation") {
            Attribute("name", .string)
            Attribute("isSilenced", .boolean).defaultValue("NO")
        }
    }

    /// `isSilenced` renamed to `mutedStatus` and turned into `type`, as Wire 2.54.0 did.
    static func chat2(_ type: AttributeType) -> ObjectModel {
        ObjectModel("Chat 2") {
            Entity("Conversation") {
                Attribute("name", .string)
                Attribute("mutedStatus", type).defaultValue("NO").renamed(from: "isSilenced")
            }
        }
    }

    /// How the step writes its destination.
    enum Path: String, CaseIterable, Sendable {
        /// The inferred step keeps the column: `ALTER TABLE … RENAME COLUMN`.
        case inPlace
        /// The same mapping marked explicit: a new file, filled by `INSERT … SELECT`.
        case rebuilt
        /// The same mapping with a policy: a new file, filled row by row.
        case rowByRow
    }

    /// Overrides nothing: its only effect is to make the mapping run row by row.
    final class PassivePolicy: EntityMigrationPolicy {}

    /// A store at `Chat` holding false, true, nil, and a 2 written by something other than
    /// Core Data; each conversation named after its value.
    func seededChat() throws -> URL {
        let url = directory.path("Chat.sqlite")
        try StepFixtures.store(at: url, model: Self.chat) { objects in
            for (name, value) in [("false", false), ("true", true)] {
                _ = try objects.insert("Conversation", ["name": name, "isSilenced": value])
            }
            _ = try objects.insert("Conversation", ["name": "nil", "isSilenced": nil])
            _ = try objects.insert("Conversation", ["name": "two", "isSilenced": false])
        }
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { db in
            try db.execute(sql: #"UPDATE "ZCONVERSATION" SET "ZISSILENCED" = 2 WHERE "ZNAME" = 'two'"#)
        }
        return url
    }

    /// Runs the step from `Chat` to `Chat 2` with `type` along `path`.
    func upgrade(_ source: URL, to type: AttributeType, along path: Path) throws -> (URL, StepReport) {
        let destinationModel = Self.chat2(type)
        let destination = directory.path("Chat 2 \(path.rawValue).sqlite")
        var mapping = try MappingInference.inferMapping(from: Self.chat, to: destinationModel)
        var policies = PolicyRegistry()
        switch path {
        case .inPlace:
            break
        case .rebuilt:
            mapping.isInferred = false
        case .rowByRow:
            policies.register("Passive") { PassivePolicy() }
            for index in mapping.entityMappings.indices { mapping.entityMappings[index].policyName = "Passive" }
        }
        let report = try MigrationStep(
            from: Self.chat, to: destinationModel, mappingModels: [mapping], policies: policies
        ).run(source: source, destination: destination)
        return (destination, report)
    }

    @Test(arguments: Path.allCases, integerTypes)
    func keepsZeroOneAndNull(_ path: Path, _ type: AttributeType) throws {
        let (destination, report) = try upgrade(try seededChat(), to: type, along: path)
        #expect((report.strategy == .inPlace) == (path == .inPlace))
        let queue = try DatabaseQueue(path: destination.path)
        defer { try? queue.close() }
        let values = try queue.read { db in
            try Row.fetchAll(
                db,
                sql:
                    #"SELECT "ZNAME", "ZMUTEDSTATUS", typeof("ZMUTEDSTATUS") AS "t" FROM "ZCONVERSATION" ORDER BY "Z_PK""#
            ).map { "\($0["ZNAME"] as String)=\($0["ZMUTEDSTATUS"] as Int64? ?? -1):\($0["t"] as String)" }
        }
        // 2, which Core Data never writes in a Boolean, is kept: the integer holds it exactly.
        #expect(values == ["false=0:integer", "true=1:integer", "nil=-1:null", "two=2:integer"])
        let (schema, metadata) = try queue.read { db in
            (try SQLiteSchema.read(from: db), try StoreMetadata.read(from: db, path: destination.path))
        }
        let expected = try SQLiteSchema(expectedFor: StoreLayout(model: Self.chat2(type)))
        #expect(schema.differences(from: expected, ignoringTables: StoreLayout.optionalTableNames).isEmpty)
        #expect(metadata.versionHashes == Self.chat2(type).entityVersionHashes)
    }

    @Test(arguments: integerTypes)
    func theInPlaceResultEqualsTheRebuiltResult(_ type: AttributeType) throws {
        let source = try seededChat()
        let (inPlace, _) = try upgrade(source, to: type, along: .inPlace)
        let (rebuilt, _) = try upgrade(source, to: type, along: .rebuilt)
        func content(_ url: URL) throws -> [String] {
            let queue = try DatabaseQueue(path: url.path)
            defer { try? queue.close() }
            return try queue.read { db in
                try Row.fetchAll(db, sql: #"SELECT * FROM "ZCONVERSATION" ORDER BY "Z_PK""#).map { "\($0)" }
            }
        }
        #expect(try content(inPlace) == content(rebuilt))
    }

    @Test(arguments: integerTypes)
    func inferenceRecordsTheWidening(_ type: AttributeType) throws {
        let mapping = try MappingInference.inferMapping(from: Self.chat, to: Self.chat2(type))
        let widening = try #require(TypeWidening(from: .boolean, to: type))
        #expect(
            mapping.summary == [
                "transform ConversationToConversation: name=$source.name, mutedStatus=$source.isSilenced {stepwise.widening=\(widening.userInfoValue)}"
            ])
        #expect(widening.keepsStoredValues)
    }

    @Test(arguments: integerTypes)
    func theDiffCallsItAWidening(_ type: AttributeType) throws {
        let mapping = try MappingInference.inferMapping(from: Self.chat, to: Self.chat2(type))
        let diff = MappingDiff(mapping, from: Self.chat, to: Self.chat2(type))
        let property = try #require(diff.entity(named: "Conversation")?.properties.first { $0.name == "mutedStatus" })
        #expect(
            property
                == PropertyDiff(
                    name: "mutedStatus", oldName: "isSilenced", kind: .attribute, change: .renamed,
                    type: type.rawValue, oldType: "Boolean", widening: TypeWidening(from: .boolean, to: type)))
        #expect(
            diff.description.contains(
                "      ~ mutedStatus: renamed from isSilenced, widened Boolean → \(type.rawValue)"))
        #expect(property.dropped == nil)
    }

    /// Without a rename the diff's change is `widened` itself.
    @Test func anUnrenamedBooleanReadsAsWidened() throws {
        let flagged = ObjectModel("Chat 2") {
            Entity("Conversation") {
                Attribute("name", .string)
                Attribute("isSilenced", .integer32)
            }
        }
        let diff = MappingDiff(
            try MappingInference.inferMapping(from: Self.chat, to: flagged), from: Self.chat, to: flagged)
        let property = try #require(diff.entity(named: "Conversation")?.properties.first { $0.name == "isSilenced" })
        #expect(property.change == .widened)
        #expect(diff.description.contains("      ~ isSilenced: widened Boolean → Integer 32"))
    }
}
