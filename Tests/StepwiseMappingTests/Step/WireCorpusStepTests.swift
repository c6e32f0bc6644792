import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Wire's zmessaging 2.53.0 → 2.54.0, which Wire shipped as a lightweight migration: the
/// Conversation's `isSilenced` (Boolean) becomes `mutedStatus` (Integer 32), both carrying the
/// renaming identifier `mutedStatus` (`elementID`). Run on the real store 2.53.0 wrote, whose
/// layout is read for the release that wrote it (Core Data 865) and matched to its
/// self-referential join tables.
@Suite("Wire corpus steps", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct WireCorpusStepTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static let bundle = "wire-data-model/model/zmessaging.xcdatamodeld"

    /// The version `name` as the bundle has it, its Undefined transient attributes included.
    func version(_ name: String) throws -> ObjectModel {
        try XcodeModelReader.readVersion(at: Corpus.required().url("\(Self.bundle)/\(name).xcdatamodel"))
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
            let actual = try SQLiteSchema.read(from: db)
            let release = try StoreMetadata.read(from: db, path: store.path).release
            let expected = try SQLiteSchema(expectedFor: StoreLayout(model: source, release: release, matching: actual))
            return (
                try Self.conversations(db, column: "ZISSILENCED"),
                // Without the indexes Core Data's own migrations left behind (``CoreDataRelease``).
                actual.removingIndexes(Set(actual.redundantIndexes(comparedWith: expected).map(\.name)))
                    .differences(from: expected, ignoringTables: StoreLayout.optionalTableNames)
            )
        }
        #expect(before.filter { $0.hasSuffix("=1") }.count == 1)
        #expect(before.filter { $0.hasSuffix("=0") }.count == 20)
        #expect(sourceDifferences.isEmpty, "\(sourceDifferences)")
        let upgraded = directory.path("store2-54-0.wiredatabase")
        let report = try MigrationStep(from: source, to: destination).run(source: store, destination: upgraded)
        #expect(report.strategy == .inPlace)
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

    /// `"<Z_PK>=<value>"` of each conversation, -1 for NULL, in key order.
    static func conversations(_ db: Database, column: String) throws -> [String] {
        try Row.fetchAll(db, sql: "SELECT \"Z_PK\", \"\(column)\" FROM \"ZCONVERSATION\" ORDER BY \"Z_PK\"")
            .map { "\($0[0] as Int64)=\($0[1] as Int64? ?? -1)" }
    }
}
