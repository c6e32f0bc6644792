import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// A store that holds one configuration of the model (`NSPersistentStoreDescription.configuration`):
/// an app that keeps `Note`s in a CloudKit store and `Draft`s in a local one.
@Suite("Upgrading a store of one configuration")
struct ConfigurationUpgradeTests {
    static func version(_ name: String, pinned: Bool) -> ObjectModel {
        var model = ObjectModel(name) {
            Entity("Draft") { Attribute("text", .string) }
            Entity("Note") {
                Attribute("text", .string)
                if pinned { Attribute("pinned", .boolean) }
                Relationship("tags", to: "Tag", inverse: "notes").toMany()
            }
            Entity("Tag") {
                Attribute("name", .string)
                Relationship("notes", to: "Note", inverse: "tags").toMany()
            }
        }
        model.configurations = ["Cloud": ["Note", "Tag"], "Local": ["Draft"]]
        return model
    }

    static let versions = [version("Notes", pinned: false), version("Notes 2", pinned: true)]

    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory() }

    @Test("configurations are read from and written to a model's XML")
    func configurationsRoundTripThroughXML() throws {
        let url = directory.path("Notes.xcdatamodeld")
        try XcodeModelWriter.writeBundle(Self.versions, current: "Notes 2", to: url)
        let bundle = try ModelBundle(contentsOf: url)
        #expect(bundle.current.configurations == ["Cloud": ["Note", "Tag"], "Local": ["Draft"]])
    }

    @Test("a configuration's store numbers its entities among themselves, as Core Data does")
    func aConfigurationIsLaidOutAlone() throws {
        let cloud = try Self.versions[0].restricted(toConfiguration: "Cloud")
        #expect(cloud.entityNames == ["Note", "Tag"])
        let layout = try StoreLayout(model: cloud)
        #expect(layout.entity(named: "Note")?.number == 1)
        #expect(layout.entity(named: "Tag")?.number == 2)
        #expect(cloud.entityVersionHashes["Note"] == Self.versions[0].entityVersionHashes["Note"])
    }

    @Test("a store of one configuration upgrades with that configuration, its rows kept")
    func aConfigurationStoreUpgrades() throws {
        let bundle = directory.path("Notes.xcdatamodeld")
        try XcodeModelWriter.writeBundle(Self.versions, current: "Notes 2", to: bundle)
        let store = directory.path("Cloud.sqlite")
        let cloud = try Self.versions[0].restricted(toConfiguration: "Cloud")
        _ = try SeededStore.create(at: store, model: cloud, rows: 4)

        var options = UpgradeOptions()
        options.configuration = "Cloud"
        let report = try Upgrader(bundleAt: bundle, options: options).upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.from == "Notes")
        #expect(report.to == "Notes 2")
        let target = try Self.versions[1].restricted(toConfiguration: "Cloud")
        let (notes, hashes) = try DatabaseQueue(path: store.path).read { db in
            (
                try ObjectContext(db, layout: StoreLayout(model: target)).count("Note"),
                try StoreMetadata.read(from: db, path: store.path).versionHashes
            )
        }
        #expect(notes == 4)
        #expect(hashes == target.entityVersionHashes)
        #expect(hashes["Draft"] == nil)
    }

    @Test("a configuration no version has is refused, naming those it has")
    func anUnknownConfigurationIsRefused() throws {
        let history = try ModelHistory(versions: VersionHistory(Self.versions))
        let error = #expect(throws: ModelError.self) { try history.restricted(toConfiguration: "Shared") }
        #expect(error?.description.contains("Configurations: Cloud, Local") == true)
    }

    @Test("a configuration whose member points outside it is refused, naming the relationship")
    func aRelationshipAcrossConfigurationsIsRefused() throws {
        var model = Self.versions[0]
        model.configurations["Broken"] = ["Note"]
        let error = #expect(throws: ModelError.self) { try model.restricted(toConfiguration: "Broken") }
        #expect(error?.description.contains("'Note.tags' points at 'Tag'") == true)
    }
}
