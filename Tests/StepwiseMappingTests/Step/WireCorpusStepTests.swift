import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// Wire's zmessaging 2.53.0 → 2.54.0, which Wire shipped as a lightweight migration: the
/// Conversation's `isSilenced` (Boolean) becomes `mutedStatus` (Integer 32), both carrying the
/// renaming identifier `mutedStatus` (`elementID`). Run on the real store 2.53.0 wrote.
///
/// Wire's transient attributes have Xcode's "Undefined" type, which the `contents` file writes
/// as no `attributeType` at all, and which StepwiseModel doesn't read yet (issue 21): the
/// versions are read from temporary copies without them. A transient attribute has no column
/// and no part in the entity hashes, so the copies have the real versions' layout and hashes.
@Suite("Wire corpus steps", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct WireCorpusStepTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static let bundle = "wire-data-model/model/zmessaging.xcdatamodeld"

    /// The version `name`, read from a copy of its `contents` without its transient attributes
    /// of undefined type (pending StepwiseModel reading them).
    func version(_ name: String) throws -> ObjectModel {
        let original = try Corpus.required().url("\(Self.bundle)/\(name).xcdatamodel/contents")
        let contents = try String(contentsOf: original, encoding: .utf8)
        let undefinedTransient = /^\s*<attribute (?![^>]*attributeType=)[^>]*transient="YES"[^>]*\/>\n/
            .anchorsMatchLineEndings()
        let stripped = contents.replacing(undefinedTransient, with: "")
        #expect(stripped != contents, "no transient attribute of undefined type left to strip: read \(name) as it is")
        let copy = directory.path("\(name).xcdatamodel")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        try Data(stripped.utf8).write(to: copy.appendingPathComponent("contents"))
        return try XcodeModelReader.readVersion(at: copy)
    }

    @Test func twoFiftyThreeToTwoFiftyFourIsInferredAsABooleanWidening() throws {
        let source = try version("zmessaging2.53.0")
        let destination = try version("zmessaging2.54.0")
        let mapping = try MappingInference.inferMapping(from: source, to: destination)
        let conversation = try #require(mapping.entityMapping(named: "ConversationToConversation"))
        let mutedStatus = try #require(conversation.propertyMapping(named: "mutedStatus"))
        #expect(mutedStatus.valueExpression == .source("isSilenced"))
        #expect(mutedStatus.widening == TypeWidening(from: .boolean, to: .integer32))
        // Every other entity is copied as it was.
        #expect(mapping.entityMappings.filter { $0.kind != .copy }.map(\.name) == ["ConversationToConversation"])
        let diff = MappingDiff(mapping, from: source, to: destination)
        #expect(diff.description.contains("      ~ mutedStatus: renamed from isSilenced, widened Boolean → Integer 32"))
    }

    /// The store 2.53.0 wrote holds 20 unsilenced conversations and 1 silenced one; after the
    /// step each keeps its value as its `mutedStatus`, and the column is kept, not rewritten.
    @Test func theRealStoreKeepsEverySilencedFlagAsItsMutedStatus() throws {
        let source = try version("zmessaging2.53.0")
        let destination = try version("zmessaging2.54.0")
        let store = try Corpus.required().copyStore(
            "wire-data-model/stores/store2-53-0.wiredatabase", to: directory.url)
        let (before, sourceDifferences) = try DatabaseQueue(path: store.path).read { db in
            (
                try Self.conversations(db, column: "ZISSILENCED"),
                try SQLiteSchema.read(from: db).differences(
                    from: SQLiteSchema(expectedFor: StoreLayout(model: source)),
                    ignoringTables: StoreLayout.optionalTableNames)
            )
        }
        #expect(before.filter { $0.hasSuffix("=1") }.count == 1)
        #expect(before.filter { $0.hasSuffix("=0") }.count == 20)
        // When this known issue stops occurring, Swift Testing says so: remove the wrapper then.
        withKnownIssue(
            """
            Core Data's Wire store is laid out otherwise than StepwiseStore/Layout says (issue 21): \
            Z_11USERS (Z_11SYSTEMMESSAGES, Z_17USERS1), as Z_14USERS already has a Z_17USERS; \
            Z_18IGNOREDCLIENTS for the self-referencing UserClient.ignoredClients, not \
            Z_18IGNOREDBYCLIENTS; fetch indexes named Z_Conversation_… and join-table indexes.
            """
        ) {
            #expect(sourceDifferences.isEmpty, "\(sourceDifferences)")
            let upgraded = directory.path("store2-54-0.wiredatabase")
            let report = try MigrationStep(from: source, to: destination).run(source: store, destination: upgraded)
            #expect(report.inPlace)
            let queue = try DatabaseQueue(path: upgraded.path)
            defer { try? queue.close() }
            let (after, metadata) = try queue.read { db in
                (
                    try Self.conversations(db, column: "ZMUTEDSTATUS"),
                    try StoreMetadata.read(from: db, path: upgraded.path)
                )
            }
            #expect(after == before)
            #expect(metadata.versionHashes == destination.entityVersionHashes)
        }
    }

    /// `"<Z_PK>=<value>"` of each conversation, -1 for NULL, in key order.
    static func conversations(_ db: Database, column: String) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT \"Z_PK\", \"\(column)\" FROM \"ZCONVERSATION\" ORDER BY \"Z_PK\"")
            .map { "\($0[0] as Int64)=\($0[1] as Int64? ?? -1)" }
    }
}
