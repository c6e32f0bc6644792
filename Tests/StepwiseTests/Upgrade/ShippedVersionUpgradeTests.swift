import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
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

    static let v1 = ObjectModel("Notes") {
        Entity("Note") { Attribute("title", .string) }
    }
    static let v2 = ObjectModel("Notes 2") {
        Entity("Note") {
            Attribute("title", .string)
            Attribute("body", .string)
        }
    }
    /// Notes 2 after it shipped: an attribute with a default added in place.
    static let v2Edited = ObjectModel("Notes 2") {
        Entity("Note") {
            Attribute("title", .string)
            Attribute("body", .string)
            Attribute("rating", .integer16).required().defaultValue("3")
        }
    }
    static let v3 = ObjectModel("Notes 3") {
        Entity("Note") {
            Attribute("title", .string)
            Attribute("body", .string)
            Attribute("rating", .integer16).required().defaultValue("3")
            Attribute("pinned", .boolean).required().defaultValue("NO")
        }
    }

    /// A bundle with Notes 2 as it shipped, recorded, then edited in place to `v2Edited`;
    /// and a store written by the shipped Notes 2, seeded with 25 notes.
    func shippedThenEdited(recording: Bool = true) throws -> (bundle: URL, store: URL) {
        let bundle = directory.path("Notes.xcdatamodeld")
        try XcodeModelWriter.writeBundle([Self.v1, Self.v2], current: "Notes 2", to: bundle)
        if recording { _ = try ShippedRecords.record(of: bundle) }
        try XcodeModelWriter.writeBundle([Self.v1, Self.v2Edited, Self.v3], current: "Notes 3", to: bundle)
        let store = directory.path("Notes.sqlite")
        _ = try SeededStore.create(at: store, model: Self.v2, seed: 7, rows: 25)
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
            #expect(new["ZRATING"] as Int64? == 3)
            #expect(new["ZPINNED"] as Int64? == 0)
        }
        let identification = try VersionRegistry(history: upgrader.history).identify(storeAt: store)
        #expect(identification.version?.name == "Notes 3")
        #expect(identification.matchedBy == .hash)
    }

    @Test func withoutTheRecordTheStoreIsRefusedNamingTheClosestVersion() throws {
        let (bundle, store) = try shippedThenEdited(recording: false)
        let before = try Data(contentsOf: store)
        let error = #expect(throws: RegistryError.self) {
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

    @Test func aHistoryInCodeTakesTheRecordsToo() throws {
        let record = ShippedVersion(
            model: Self.v2, contents: XcodeModelWriter.contents(of: Self.v2), shippedAt: Date(timeIntervalSince1970: 0))
        let store = directory.path("Code.sqlite")
        _ = try SeededStore.create(at: store, model: Self.v2, seed: 3, rows: 10)
        let upgrader = Upgrader(history: VersionHistory([Self.v1, Self.v2Edited, Self.v3]), shipped: [record])
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.from == "Notes 2 (as shipped)")
        #expect(try notes(store).count == 10)
    }

    @Test func aRecordEqualToItsVersionAddsNothing() throws {
        let record = ShippedVersion(
            model: Self.v1, contents: XcodeModelWriter.contents(of: Self.v1), shippedAt: Date(timeIntervalSince1970: 0))
        let history = VersionHistory([Self.v1, Self.v2Edited, Self.v3])
        #expect(try ShippedVersion.asShippedVersions([record], in: history).isEmpty)
        let edited = ShippedVersion(
            model: Self.v2, contents: XcodeModelWriter.contents(of: Self.v2), shippedAt: Date(timeIntervalSince1970: 0))
        #expect(
            try ShippedVersion.asShippedVersions([record, edited], in: history).map(\.name) == ["Notes 2 (as shipped)"])
    }
}
