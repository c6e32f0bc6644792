import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// A store written by a version that shipped and was edited in place afterwards: with the
/// version's shipped record it upgrades, every row kept; without it, it is refused.
@Suite("Upgrading stores of a shipped version edited since")
struct ShippedVersionUpgradeTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    typealias Notes = EditedNotesHistory

    /// A bundle whose Notes 2 was recorded as shipped (unless `recording` is false), then
    /// edited in place, with Notes 3 added; and a store written by the shipped Notes 2, 25 notes.
    func shippedThenEdited(recording: Bool = true) throws -> (bundle: URL, store: URL) {
        let bundle = try Notes.writeBundle([Notes.v1, Notes.v2Shipped], in: directory.url)
        if recording { _ = try ShippedRecords.record(of: bundle) }
        try Notes.writeBundle([Notes.v1, Notes.v2Edited, Notes.v3], in: directory.url)
        let store = directory.path("Notes.sqlite")
        _ = try SeededStore.create(at: store, model: Notes.v2Shipped, seed: 7, rows: 25)
        return (bundle, store)
    }

    func notes(_ store: URL) throws -> [Row] {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        return try queue.read { db in try Row.fetchAll(db, sql: "SELECT * FROM ZNOTE ORDER BY Z_PK") }
    }

    @Test func aStoreOfTheShippedVersionUpgradesThroughTheEditedOne() throws {
        let (bundle, store) = try shippedThenEdited()
        let before = try notes(store)
        #expect(before.count == 25)

        let upgrader = try Upgrader(bundleAt: bundle)
        let prepared = try upgrader.plan(forStoreAt: store)
        #expect(prepared.identification.matchedBy == .shippedRecord)
        #expect(prepared.version == "Notes 2 (as shipped)")
        #expect(prepared.identification.notes.first?.contains("'Notes 2' was edited since") == true)
        #expect(prepared.plan.steps.first?.from == "Notes 2 (as shipped)")
        #expect(prepared.plan.steps.flatMap(\.versions).contains("Notes 2"))

        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.outcome == .upgraded)
        #expect(report.from == "Notes 2 (as shipped)")
        #expect(report.to == "Notes 3")

        let after = try notes(store)
        #expect(after.count == before.count)
        for (old, new) in zip(before, after) {
            #expect(new["Z_PK"] as Int64? == old["Z_PK"] as Int64?)
            #expect(new["ZTITLE"] as String? == old["ZTITLE"] as String?)
            #expect(new["ZBODY"] as String? == old["ZBODY"] as String?)
            #expect(new["ZWORDS"] as Int64? == old["ZWORDS"] as Int64?)
            #expect(new["ZRATING"] as Int64? == 3)
            #expect(new["ZPINNED"] as Int64? == 0)
        }
        let identification = try VersionRegistry(history: upgrader.history.versions).identify(storeAt: store)
        #expect(identification.version?.name == "Notes 3")
        #expect(identification.matchedBy == .hash)
    }

    @Test func withoutTheRecordTheStoreIsRefusedNamingTheClosestVersion() throws {
        let (bundle, store) = try shippedThenEdited(recording: false)
        let before = try Data(contentsOf: store)
        let error = #expect(throws: UpgradeError.self) {
            try Upgrader(bundleAt: bundle).upgradeIfNeededSynchronously(storeAt: store)
        }
        guard case .noMatchingVersion(let closest, _)? = error?.kind else {
            Issue.record("expected noMatchingVersion, got \(String(describing: error))")
            return
        }
        #expect(closest == "Notes 2")
        #expect(error?.description.contains("The closest is 'Notes 2'") == true)
        #expect(try Data(contentsOf: store) == before)
    }

    @Test func aHistoryInCodeTakesTheRecordsAndAMappingNamingTheStep() throws {
        let store = directory.path("Code.sqlite")
        _ = try SeededStore.create(at: store, model: Notes.v2Shipped, seed: 3, rows: 10)
        let inferred = try Upgrader(history: Notes.history, shipped: [Notes.record])
        #expect(try inferred.plan(forStoreAt: store).plan.steps.map(\.kind) == [.inferred])

        // An explicit mapping for the step from the shipped model wins over inference.
        var mapping = try MappingInference.inferMapping(
            from: try #require(inferred.planner.shipped.first), to: Notes.v2Edited)
        mapping.name = "Notes 2 as shipped to Notes 2"
        mapping.isInferred = false
        let upgrader = try Upgrader(
            history: Notes.history,
            mappings: [MappingDirectory.StepKey("Notes 2 (as shipped)", "Notes 2"): [mapping]],
            shipped: [Notes.record])
        #expect(try upgrader.plan(forStoreAt: store).plan.steps.map(\.kind) == [.explicit, .inferred])
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.from == "Notes 2 (as shipped)")
        #expect(report.steps.first?.kind == .explicit)
        #expect(report.steps.first?.mappingModels == ["Notes 2 as shipped to Notes 2"])
        #expect(try notes(store).count == 10)
    }

    @Test func aRecordEqualToItsVersionAddsNothing() throws {
        let unchanged = ShippedVersion(
            model: Notes.v1, contents: XcodeModelWriter.contents(of: Notes.v1),
            shippedAt: Date(timeIntervalSince1970: 0))
        #expect(try ShippedVersion.asShippedVersions([unchanged], in: Notes.history).isEmpty)
        #expect(
            try ShippedVersion.asShippedVersions([unchanged, Notes.record], in: Notes.history).map(\.name) == [
                "Notes 2 (as shipped)"
            ])
    }
}
