import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// `--models` once per model, for a store whose model merges several (`upgrade`, `plan`).
@Suite("stepwise upgrade and plan with several --models")
struct MergedModelsCLITests {
    let runner: CommandRunner
    let directory: TemporaryDirectory

    init() throws {
        runner = try CommandRunner()
        directory = try TemporaryDirectory()
    }

    static let notes = [
        ObjectModel("Notes") { Entity("Note") { Attribute("text", .string) } },
        ObjectModel("Notes 2") {
            Entity("Note") {
                Attribute("text", .string)
                Attribute("pinned", .boolean)
            }
        },
    ]
    static let sync = [ObjectModel("Sync") { Entity("SyncState") { Attribute("token", .string) } }]

    /// The two bundles on disk, and a store at `Notes + Sync`.
    func fixture() throws -> (notes: URL, sync: URL, store: URL) {
        let notes = directory.path("Notes.xcdatamodeld")
        try XcodeModelWriter.writeBundle(Self.notes, current: "Notes 2", to: notes)
        let sync = directory.path("Sync.xcdatamodeld")
        try XcodeModelWriter.writeBundle(Self.sync, current: "Sync", to: sync)
        let store = directory.path("Shared.sqlite")
        try StoreCreator.createStore(at: store, model: try ObjectModel.merging([Self.notes[0], Self.sync[0]]))
        return (notes, sync, store)
    }

    @Test func upgradeTakesOneModelsOptionPerModel() throws {
        let (notes, sync, store) = try fixture()
        let plan = try runner.run(["plan", store.path, "--models", notes.path, "--models", sync.path])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(plan.standardOutput.contains("is at 'Notes + Sync'"))
        let result = try runner.run([
            "upgrade", store.path, "--models", notes.path, "--models", sync.path, "--json",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try result.json()
        #expect(json["from"] as? String == "Notes + Sync")
        #expect(json["to"] as? String == "Notes 2 + Sync")
    }

    @Test func withoutTheOtherModelTheStoreIsRefusedByName() throws {
        let (notes, _, store) = try fixture()
        let result = try runner.run(["upgrade", store.path, "--models", notes.path, "--json"])
        #expect(result.status != 0)
        #expect(result.standardError.contains("SyncState") || result.standardOutput.contains("SyncState"))
    }

    @Test func commandsOfOneModelRefuseASecond() throws {
        let (notes, sync, _) = try fixture()
        let result = try runner.run(["check", "--models", notes.path, "--models", sync.path])
        #expect(result.status != 0)
        #expect(result.standardError.contains("only `upgrade` and `plan` merge several models"))
    }
}
