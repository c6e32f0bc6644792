import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// A relationship declared on an abstract parent whose inverse points at one of its subentities,
/// as in Apple's own Photos model (`GenericAsset.extendedAttributes` ↔
/// `ExtendedAttributes.asset` → `Asset`, read from the `Z_MODELCACHE` of Photos' stores): Core
/// Data runs such a model, so Stepwise reads it, lays it out and upgrades it with every link.
@Suite("upgradeIfNeeded: an inverse that points at a subentity")
struct SubentityInverseUpgradeTests {
    static let v1 = ObjectModel("Photos") {
        Entity("GenericAsset") {
            Attribute("uuid", .string)
            Relationship("extendedAttributes", to: "ExtendedAttributes", inverse: "asset")
        }.abstract()
        Entity("Asset", parent: "GenericAsset") { Attribute("title", .string) }
        Entity("ExtendedAttributes") {
            Attribute("lensModel", .string)
            Relationship("asset", to: "Asset", inverse: "extendedAttributes")
        }
    }

    /// `Album` sorts first: every entity number changes, so the step rebuilds the store.
    static let v2 = ObjectModel("Photos 2") {
        Entity("Album") { Attribute("name", .string) }
        Entity("GenericAsset") {
            Attribute("uuid", .string)
            Relationship("extendedAttributes", to: "ExtendedAttributes", inverse: "asset")
        }.abstract()
        Entity("Asset", parent: "GenericAsset") { Attribute("title", .string) }
        Entity("ExtendedAttributes") {
            Attribute("lensModel", .string)
            Attribute("focalLength", .double)
            Relationship("asset", to: "Asset", inverse: "extendedAttributes")
        }
    }

    @Test func theModelIsValidAndLaidOutWithAKeyOnEachSide() throws {
        #expect(Self.v1.problems() == [])
        let layout = try StoreLayout(model: Self.v1)
        #expect(layout.entity(named: "Asset")?.column(for: "extendedAttributes") == "ZEXTENDEDATTRIBUTES")
        #expect(layout.entity(named: "ExtendedAttributes")?.column(for: "asset") == "ZASSET")
    }

    @Test func everyLinkIsKeptThroughARebuild() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("Photos.sqlite")
        try StoreCreator.createStore(at: store, model: Self.v1)
        try DatabaseQueue(path: store.path).write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: Self.v1))
            for number in 1...3 {
                let asset = try objects.insert("Asset", ["uuid": "u\(number)", "title": "t\(number)"])
                let attributes = try objects.insert("ExtendedAttributes", ["lensModel": "lens \(number)"])
                try objects.setToOne(asset, "extendedAttributes", to: attributes)
                try objects.setToOne(attributes, "asset", to: asset)
            }
            _ = try objects.insert("Asset", ["uuid": "u4", "title": "alone"])
        }

        // A willMigrate hook sees the source's rows: the step rebuilds.
        let stage = MigrationStage(from: Self.v1.name, to: Self.v2.name, willMigrate: { _, _ in })
        let report = try Upgrader(history: VersionHistory([Self.v1, Self.v2]), stages: [stage])
            .upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.steps.map(\.strategy) == [.rebuild])
        let pairs = try DatabaseQueue(path: store.path).read { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: Self.v2))
            return try objects.fetch("Asset").map { asset in
                let attributes = try objects.related(asset.id, "extendedAttributes")
                let back = try attributes.flatMap { try objects.related($0, "asset") }
                let lens = try attributes.map { try objects.object($0).string("lensModel") ?? "" }
                return "\(asset.string("uuid") ?? "")→\(lens.joined())←\(back == [asset.id])"
            }.sorted()
        }
        #expect(pairs == ["u1→lens 1←true", "u2→lens 2←true", "u3→lens 3←true", "u4→←false"])
    }
}
