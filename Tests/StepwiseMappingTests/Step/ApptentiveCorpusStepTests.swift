import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

/// apptentive-ios's ATDataModel history, one step at a time from the real stores v1…v5 and
/// the WAL-only store 2W, with the repository's five mapping models (corpus README §6.3, §6.6).
/// The half-migrated 2C is not migrated here: it must be flagged, not run.
@Suite("Apptentive corpus steps", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct ApptentiveCorpusStepTests {
    /// What one store holds, counted with SQL.
    struct Counts: Equatable, CustomStringConvertible {
        /// `ZATRECORD` rows by entity name.
        var records: [String: Int]
        var senders: Int
        var attachments: Int
        /// Rows of the message ↔ display type join table, nil when there is no such table.
        var displayTypeLinks: Int?

        var description: String {
            "records \(records.sorted { $0.key < $1.key }), senders \(senders), attachments \(attachments), display-type links \(displayTypeLinks.map(String.init) ?? "none")"
        }
    }

    /// Row counts of each real store (corpus README §4.2).
    static let storeCounts: [String: Counts] = [
        "v1": Counts(records: ["ATTextMessage": 2, "ATEvent": 1], senders: 1, attachments: 0, displayTypeLinks: 2),
        "v2": Counts(records: ["ATTextMessage": 3], senders: 2, attachments: 0, displayTypeLinks: 3),
        "v3": Counts(records: ["ATTextMessage": 3], senders: 2, attachments: 0, displayTypeLinks: 3),
        "v4": Counts(
            records: ["ATTextMessage": 3, "ATAutomatedMessage": 2, "ATEvent": 7], senders: 2, attachments: 0,
            displayTypeLinks: 4),
        "v5": Counts(records: ["ATMessage": 4, "ATEvent": 2], senders: 2, attachments: 6, displayTypeLinks: nil),
    ]

    /// The counts each step must give from the store of its source version.
    static let stepCounts: [(from: Int, counts: Counts)] = [
        (1, Counts(records: ["ATTextMessage": 2, "ATEvent": 1], senders: 1, attachments: 0, displayTypeLinks: 2)),
        (2, Counts(records: ["ATTextMessage": 3], senders: 2, attachments: 0, displayTypeLinks: 3)),
        (3, Counts(records: ["ATTextMessage": 3], senders: 2, attachments: 0, displayTypeLinks: 3)),
        // The message hierarchy is flattened; the join table (4 rows) is gone.
        (4, Counts(records: ["ATMessage": 5, "ATEvent": 7], senders: 2, attachments: 0, displayTypeLinks: nil)),
        (5, Counts(records: ["ATMessage": 4, "ATEvent": 2], senders: 2, attachments: 6, displayTypeLinks: nil)),
    ]

    @Test func everyStepHasTheCorpusMappingModel() throws {
        let runner = try CorpusStepRunner(.apptentive)
        for number in 1...5 {
            #expect(runner.mappingModels(from: number).map(\.name) == ["ATDataModel v\(number) to v\(number + 1)"])
        }
        let fourToFive = try #require(runner.mappingModels(from: 4).first)
        #expect(
            fourToFive.entityMappings.map(\.name) == [
                "ATSurveyResponseToATSurveyResponse", "ATFileAttachmentToATFileAttachment", "ATEventToATEvent",
                "ATMessageSenderToATMessageSender", "ATTextMessageToATMessage", "ATFileMessageToATMessage",
                "ATAutomatedMessageToATMessage",
            ])
    }

    @Test(arguments: stepCounts.map(\.from))
    func eachStepKeepsEveryRowItMaps(_ number: Int) throws {
        let runner = try CorpusStepRunner(.apptentive)
        let source = try runner.copy("v\(number)")
        #expect(try Self.counts(source, version: number, runner) == Self.storeCounts["v\(number)"])
        let (destination, report) = try runner.step(from: number, source: source)
        #expect(report.kind == .explicit)
        let expected = try #require(Self.stepCounts.first { $0.from == number }?.counts)
        #expect(try Self.counts(destination, version: number + 1, runner) == expected)
        // Each sender keeps its messages, matched by apptentiveID.
        #expect(
            try Self.messagesBySender(destination, version: number + 1, runner)
                == Self.messagesBySender(source, version: number, runner))
        let (sourceMetadata, sourceUUID) = try CorpusStepRunner.metadata(source)
        let (metadata, zUUID) = try CorpusStepRunner.metadata(destination)
        #expect(zUUID == sourceUUID)
        #expect(metadata.storeUUID == sourceMetadata.storeUUID)
        #expect(metadata.versionHashes == (try runner.version(number + 1)).entityVersionHashes)
        // The real store of the destination version has the same hashes (README §4.1).
        let real = try runner.copy("v\(number + 1)")
        #expect(metadata.versionHashes == (try CorpusStepRunner.metadata(real)).metadata.versionHashes)
    }

    /// 4 → 5: the three named mappings make one ATMessage each from exactly their own source
    /// entity, with `automated` 0 or 1 (README §6.6: counting subentities would give 7).
    @Test func fourToFiveFlattensTextAndAutomatedMessagesIntoATMessage() throws {
        let runner = try CorpusStepRunner(.apptentive)
        let (destination, report) = try runner.step(from: 4, source: try runner.copy("v4"))
        let instances = Dictionary(uniqueKeysWithValues: report.entityMappings.map { ($0.name, $0.instances) })
        #expect(instances["ATTextMessageToATMessage"] == 3)
        #expect(instances["ATAutomatedMessageToATMessage"] == 2)
        #expect(instances["ATFileMessageToATMessage"] == 0)
        #expect(instances["ATEventToATEvent"] == 7)
        let messages = try runner.read(destination, version: 5) { objects in
            try objects.fetch("ATMessage").map { message in
                (
                    automated: message.int("automated"), title: message.string("title"),
                    body: message.string("body") ?? ""
                )
            }
        }
        #expect(messages.count == 5)
        #expect(messages.filter { $0.automated == 0 }.count == 3)
        #expect(messages.filter { $0.automated == 0 }.allSatisfy { $0.title == nil })
        #expect(messages.filter { $0.automated == 1 }.map(\.title) == ["We're Sorry!", "We're Sorry!"])
        #expect(messages.contains { $0.automated == 0 && $0.body == "Thanks, you guys are the best!" })
        #expect(!(try CorpusStepRunner.tableNames(destination)).contains { $0.hasSuffix("DISPLAYTYPES") })
        #expect(!(try CorpusStepRunner.tableNames(destination)).contains("ZATMESSAGEDISPLAYTYPE"))
        #expect(
            try CorpusStepRunner.primaryKeyRows(destination) == [
                "ATFileAttachment 0 0", "ATMessageSender 0 2", "ATRecord 0 12", "ATEvent 3 0", "ATMessage 3 0",
                "ATSurveyResponse 3 0",
            ])
    }

    /// 5 → 6 keeps the order of the ordered to-many `attachments` (README §6.6).
    @Test func fiveToSixKeepsTheAttachmentOrder() throws {
        let runner = try CorpusStepRunner(.apptentive)
        let source = try runner.copy("v5")
        let (destination, _) = try runner.step(from: 5, source: source)
        let before = try Self.attachmentNames(source, version: 5, runner)
        let after = try Self.attachmentNames(destination, version: 6, runner)
        #expect(before["564e31adfd19e977f700001b"] == ["1.png", "4.png", "3.png", "2.png"], "message Z_PK 63 of v5")
        #expect(after == before)
        #expect(after.values.map(\.count).reduce(0, +) == 6)
        let queued = try CorpusStepRunner.read(destination) { db in
            try Int.fetchOne(
                db, sql: "SELECT (SELECT COUNT(*) FROM ZQUEUEDREQUEST) + (SELECT COUNT(*) FROM ZQUEUEDATTACHMENT)")
        }
        #expect(queued == 0)
    }

    /// v1 → v6 (README §6.6): 2 ATMessage (automated 0), 1 ATEvent, 1 sender, no display types.
    @Test func theChainFromV1GivesTwoMessagesOneEventAndOneSender() throws {
        let runner = try CorpusStepRunner(.apptentive)
        let source = try runner.copy("v1")
        let destination = try runner.chain(from: 1, to: 6, source: source)
        #expect(
            try Self.counts(destination, version: 6, runner)
                == Counts(records: ["ATMessage": 2, "ATEvent": 1], senders: 1, attachments: 0, displayTypeLinks: nil))
        let automated = try runner.read(destination, version: 6) { objects in
            try objects.fetch("ATMessage").map { $0.int("automated") }
        }
        #expect(automated == [0, 0])
        #expect(
            try Self.messagesBySender(destination, version: 6, runner)
                == Self.messagesBySender(source, version: 1, runner))
        #expect(!(try CorpusStepRunner.tableNames(destination)).contains { $0.contains("DISPLAYTYPE") })
        #expect(
            try CorpusStepRunner.read(destination) { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZATRECORD") } == 3)
    }

    /// 2W keeps every data row in its `-wal` (README §4.2, §6.3): the chain must read them.
    @Test func theChainFromTheWALOnlyStoreGivesThreeMessagesThreeEventsAndTwoSenders() throws {
        let runner = try CorpusStepRunner(.apptentive)
        let source = try runner.copy("2W")
        let mainFileAlone = runner.directory.path("2W-main-only.sqlite")
        try FileManager.default.copyItem(at: source, to: mainFileAlone)
        #expect(
            try CorpusStepRunner.read(mainFileAlone) { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM ZATRECORD") }
                == 0)

        let destination = try runner.chain(from: 2, to: 6, source: source)
        #expect(
            try Self.counts(destination, version: 6, runner)
                == Counts(records: ["ATMessage": 3, "ATEvent": 3], senders: 2, attachments: 0, displayTypeLinks: nil))
        #expect(
            try Self.messagesBySender(destination, version: 6, runner)
                == Self.messagesBySender(source, version: 2, runner))
        let labels = try runner.read(destination, version: 6) { objects in
            try objects.fetch("ATEvent").compactMap { $0.string("label") }.sorted()
        }
        #expect(labels == ["message_center.close", "message_center.close", "message_center.launch"])
    }

    // MARK: Helpers

    static func counts(_ url: URL, version number: Int, _ runner: CorpusStepRunner) throws -> Counts {
        let layout = try StoreLayout(model: try runner.version(number))
        return try CorpusStepRunner.read(url) { db in
            var records: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, COUNT(*) AS n FROM ZATRECORD GROUP BY Z_ENT") {
                records[layout.entity(number: row["Z_ENT"])?.name ?? "Z_ENT \(row["Z_ENT"] as Int)"] = row["n"]
            }
            let joinTable = try String.fetchOne(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%DISPLAYTYPES' ESCAPE '\\'"
            )
            return Counts(
                records: records,
                senders: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZATMESSAGESENDER") ?? 0,
                attachments: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZATFILEATTACHMENT") ?? 0,
                displayTypeLinks: try joinTable.map { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \($0)") ?? 0 })
        }
    }

    /// Each sender's apptentiveID and the apptentiveIDs (or bodies) of its messages.
    static func messagesBySender(_ url: URL, version number: Int, _ runner: CorpusStepRunner) throws
        -> [String: Set<String>]
    {
        try runner.read(url, version: number) { objects in
            var result: [String: Set<String>] = [:]
            for sender in try objects.fetch("ATMessageSender") {
                result[sender.string("apptentiveID") ?? "?"] = Set(
                    try objects.related(sender.id, "sentMessages").map {
                        let message = try objects.object($0)
                        return message.string("apptentiveID") ?? message.string("body") ?? "?"
                    })
            }
            return result
        }
    }

    /// Each message's attachment names, in the ordered relationship's order, by message apptentiveID.
    static func attachmentNames(_ url: URL, version number: Int, _ runner: CorpusStepRunner) throws
        -> [String: [String]]
    {
        try runner.read(url, version: number) { objects in
            var result: [String: [String]] = [:]
            for message in try objects.fetch("ATMessage") {
                result[message.string("apptentiveID") ?? "?"] = try objects.related(message.id, "attachments").map {
                    try objects.object($0).string("name") ?? "?"
                }
            }
            return result
        }
    }
}
