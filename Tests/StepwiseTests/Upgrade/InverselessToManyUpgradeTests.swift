import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// A to-many without inverse keeps every link through every kind of step: in place, rebuilt,
/// explicit, and from a store that keeps it in a join table (the form of a public Telegram store
/// of an unrecorded release) into the hidden foreign key Core Data uses (``CoreDataRelease``).
/// Nothing but the relationship itself writes that key, so a step that left it to an inverse would
/// lose the links without a word.
@Suite("upgradeIfNeeded: to-many without inverse")
struct InverselessToManyUpgradeTests {
    /// Items and their modifiers, `Item.modifiers` without inverse.
    enum Cart {
        static let v1 = ObjectModel("Cart", versionIdentifiers: ["1"]) {
            Entity("Item") {
                Attribute("name", .string).required()
                Relationship("modifiers", to: "Modifier").toMany()
            }
            Entity("Modifier") { Attribute("label", .string).required() }
        }

        /// An optional attribute more and the same entity numbers: the step runs in place.
        static let v2 = ObjectModel("Cart 2", versionIdentifiers: ["2"]) {
            Entity("Item") {
                Attribute("name", .string).required()
                Relationship("modifiers", to: "Modifier").toMany()
            }
            Entity("Modifier") {
                Attribute("label", .string).required()
                Attribute("price", .double)
            }
        }

        /// `Basket` sorts first: Item becomes Z_ENT 2 and the key `Z2MODIFIERS`. The step renumbers
        /// in place a store in the newest forms, and rebuilds one of an older release.
        static let v3 = ObjectModel("Cart 3", versionIdentifiers: ["3"]) {
            Entity("Basket") { Attribute("label", .string) }
            Entity("Item") {
                Attribute("name", .string).required()
                Relationship("modifiers", to: "Modifier").toMany()
            }
            Entity("Modifier") {
                Attribute("label", .string).required()
                Attribute("price", .double)
            }
        }

        static let history = VersionHistory([v1, v2, v3])

        /// Each item's modifiers; `m6` and `m7` belong to no item.
        static let links: KeyValuePairs<String, [String]> = [
            "apple": ["m1", "m2", "m3"], "bread": ["m4", "m5"], "cheese": [],
        ]
        static let loose = ["m6", "m7"]
        static let pairs = links.flatMap { item, modifiers in modifiers.map { "\(item)→\($0)" } }.sorted()

        static let release1145 = CoreDataRelease(frameworkVersion: 1145)

        /// Writes the items and modifiers through `layout`; `extra` links one more pair.
        static func seed(at url: URL, layout: StoreLayout, extra: (item: String, modifier: String)? = nil) throws {
            let queue = try DatabaseQueue(path: url.path)
            try queue.write { db in
                let objects = ObjectContext(db, layout: layout)
                var modifiers: [String: ObjectID] = [:]
                var items: [String: ObjectID] = [:]
                for (item, labels) in links {
                    let id = try objects.insert("Item", ["name": item])
                    items[item] = id
                    for label in labels {
                        let modifier = try objects.insert("Modifier", ["label": label])
                        modifiers[label] = modifier
                        try objects.relate(id, "modifiers", to: modifier)
                    }
                }
                for label in loose { modifiers[label] = try objects.insert("Modifier", ["label": label]) }
                if let extra, let item = items[extra.item], let modifier = modifiers[extra.modifier] {
                    try objects.relate(item, "modifiers", to: modifier)
                }
            }
            try queue.close()
        }

        /// A store of v1 in the newest form, seeded.
        static func newestStore(in directory: TemporaryDirectory) throws -> URL {
            let store = directory.path("Cart.sqlite")
            try StoreCreator.createStore(at: store, model: v1)
            try seed(at: store, layout: try StoreLayout(model: v1))
            return store
        }

        /// A store of v1 of release 1145 that keeps `Item.modifiers` in a join table
        /// `Z_1MODIFIERS (Z_1MODIFIERSINVERSE, Z_2MODIFIERS)`, laid out by matching such a table.
        static func store1145(in directory: TemporaryDirectory, extra: (item: String, modifier: String)? = nil)
            throws -> URL
        {
            let store = directory.path("Cart1145.sqlite")
            let joinTable = SQLiteSchema(
                tables: [
                    SQLiteSchema.Table(
                        name: "Z_1MODIFIERS",
                        columns: [
                            .init(name: "Z_1MODIFIERSINVERSE", type: "INTEGER"),
                            .init(name: "Z_2MODIFIERS", type: "INTEGER"),
                        ])
                ], indexes: [])
            let layout = try StoreLayout(model: v1, release: release1145, matching: joinTable)
            #expect(layout.entity(named: "Item")?.relationship(named: "modifiers")?.joinTableName == "Z_1MODIFIERS")
            var metadata = StoreMetadata(model: v1)
            metadata.additionalEntries[StoreMetadata.frameworkVersionKey] = .int(1145)
            try StoreCreator.createStore(at: store, layout: layout, metadata: metadata)
            try seed(at: store, layout: layout, extra: extra)
            return store
        }

        /// Every `item→modifier` pair, read through the layout of `model` for the store (its release,
        /// its join table if it has one).
        static func pairs(at url: URL, model: ObjectModel) throws -> [String] {
            let snapshot = try StoreSnapshot(of: url)
            defer { snapshot.close() }
            return try snapshot.database.read { db in
                let release = try StoreMetadata.read(from: db, path: url.path).release
                let layout = try StoreLayout(model: model, release: release, matching: try SQLiteSchema.read(from: db))
                let objects = ObjectContext(db, layout: layout)
                return try objects.fetch("Item").flatMap { item in
                    try objects.related(item.id, "modifiers").map {
                        "\(item.string("name") ?? "")→\(try objects.object($0).string("label") ?? "")"
                    }
                }.sorted()
            }
        }

        /// One integer from SQL on a private copy.
        static func integer(at url: URL, _ sql: String) throws -> Int? {
            let snapshot = try StoreSnapshot(of: url)
            defer { snapshot.close() }
            return try snapshot.database.read { db in try Int.fetchOne(db, sql: sql) }
        }

        /// The store's tables.
        static func tables(at url: URL) throws -> [String] {
            let snapshot = try StoreSnapshot(of: url)
            defer { snapshot.close() }
            return try snapshot.database.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            }
        }

        static func upgrader(
            to target: String, history: VersionHistory = history,
            mappings: [MappingDirectory.StepKey: [MappingModel]] = [:]
        ) throws -> Upgrader {
            try Upgrader(history: history, mappings: mappings, options: UpgradeOptions(targetVersion: target))
        }
    }

    @Test(
        "links survive an in-place step and a renumbering one: the pairs, and the keys in Z1MODIFIERS then Z2MODIFIERS")
    func inPlaceThenRenumbered() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-inverseless")
        let store = try Cart.newestStore(in: directory)
        #expect(Cart.pairs.count == 5)
        #expect(try Cart.pairs(at: store, model: Cart.v1) == Cart.pairs)
        #expect(try Cart.integer(at: store, #"SELECT COUNT("Z1MODIFIERS") FROM "ZMODIFIER""#) == 5)

        let inPlace = try Cart.upgrader(to: "Cart 2").upgradeIfNeededSynchronously(storeAt: store)
        #expect(inPlace.steps.map(\.strategy) == [.inPlace])
        #expect(try Cart.pairs(at: store, model: Cart.v2) == Cart.pairs)
        #expect(try Cart.integer(at: store, #"SELECT COUNT("Z1MODIFIERS") FROM "ZMODIFIER""#) == 5)

        let renumbered = try Cart.upgrader(to: "Cart 3").upgradeIfNeededSynchronously(storeAt: store)
        #expect(renumbered.steps.map(\.strategy) == [.inPlace])
        #expect(try Cart.pairs(at: store, model: Cart.v3) == Cart.pairs)
        #expect(try Cart.integer(at: store, #"SELECT COUNT("Z2MODIFIERS") FROM "ZMODIFIER""#) == 5)
        #expect(try Cart.integer(at: store, #"SELECT COUNT(*) FROM "ZMODIFIER""#) == 7)
        #expect(try Cart.tables(at: store) == ["ZBASKET", "ZITEM", "ZMODIFIER", "Z_METADATA", "Z_PRIMARYKEY"])
        #expect(try VersionRegistry(history: Cart.history).identify(storeAt: store).version?.name == "Cart 3")
    }

    @Test("an explicit mapping with $source.modifiers keeps every link")
    func explicitMapping() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-inverseless")
        let store = try Cart.newestStore(in: directory)
        var mapping = try MappingInference.inferMapping(from: Cart.v1, to: Cart.v3)
        mapping.name = "Cart to Cart 3"
        mapping.isInferred = false
        let item = try #require(mapping.entityMappings.firstIndex { $0.destinationEntity == "Item" })
        let modifiers = try #require(
            mapping.entityMappings[item].relationshipMappings.firstIndex { $0.name == "modifiers" })
        mapping.entityMappings[item].relationshipMappings[modifiers].valueExpression = .keyPath(
            root: .source, path: ["modifiers"])
        let history = VersionHistory([Cart.v1, Cart.v3])
        let report = try Cart.upgrader(
            to: "Cart 3", history: history, mappings: [MappingDirectory.StepKey("Cart", "Cart 3"): [mapping]]
        ).upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.steps.map(\.kind) == [.explicit])
        #expect(try Cart.pairs(at: store, model: Cart.v3) == Cart.pairs)
        #expect(try Cart.integer(at: store, #"SELECT COUNT("Z2MODIFIERS") FROM "ZMODIFIER""#) == 5)
    }

    @Test("row by row (a policy on Item), links are kept, and a modifier in two items' join rows is refused")
    func rowByRow() throws {
        var policies = PolicyRegistry()
        policies.register("ItemPolicy") { EntityMigrationPolicy() }
        var mapping = try MappingInference.inferMapping(from: Cart.v1, to: Cart.v3)
        mapping.name = "Cart to Cart 3"
        mapping.isInferred = false
        let item = try #require(mapping.entityMappings.firstIndex { $0.destinationEntity == "Item" })
        mapping.entityMappings[item].policyName = "ItemPolicy"
        let upgrader = try Upgrader(
            history: VersionHistory([Cart.v1, Cart.v3]),
            mappings: [MappingDirectory.StepKey("Cart", "Cart 3"): [mapping]],
            policies: policies, options: UpgradeOptions(targetVersion: "Cart 3"))

        let directory = try TemporaryDirectory(prefix: "stepwise-inverseless")
        let store = try Cart.newestStore(in: directory)
        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.steps.map(\.kind) == [.explicit])
        #expect(try Cart.pairs(at: store, model: Cart.v3) == Cart.pairs)
        #expect(try Cart.integer(at: store, #"SELECT COUNT("Z2MODIFIERS") FROM "ZMODIFIER""#) == 5)

        let shared = try Cart.store1145(in: directory, extra: (item: "bread", modifier: "m1"))
        let before = StoreBytes(shared)
        let error = try #require(throws: UpgradeError.self) {
            try upgrader.upgradeIfNeededSynchronously(storeAt: shared)
        }
        #expect(error.description.contains("in the 'modifiers' of more than one Item"))
        #expect(StoreBytes(shared) == before)
    }

    @Test("dropping the inverse moves each link from the inverse's key ZITEM to the hidden key Z1MODIFIERS")
    func droppingTheInverse() throws {
        let withInverse = ObjectModel("Cart", versionIdentifiers: ["1"]) {
            Entity("Item") {
                Attribute("name", .string).required()
                Relationship("modifiers", to: "Modifier", inverse: "item").toMany()
            }
            Entity("Modifier") {
                Attribute("label", .string).required()
                Relationship("item", to: "Item", inverse: "modifiers")
            }
        }
        let directory = try TemporaryDirectory(prefix: "stepwise-inverseless")
        let store = directory.path("Cart.sqlite")
        try StoreCreator.createStore(at: store, model: withInverse)
        try Cart.seed(at: store, layout: try StoreLayout(model: withInverse))
        #expect(try Cart.integer(at: store, #"SELECT COUNT("ZITEM") FROM "ZMODIFIER""#) == 5)
        let history = VersionHistory([withInverse, Cart.v2])
        let report = try Cart.upgrader(to: "Cart 2", history: history).upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.steps.map(\.strategy) == [.rebuild])
        #expect(try Cart.pairs(at: store, model: Cart.v2) == Cart.pairs)
        #expect(try Cart.integer(at: store, #"SELECT COUNT("Z1MODIFIERS") FROM "ZMODIFIER""#) == 5)
    }

    @Test("a store's join table is identified, and its links move to the hidden key")
    func joinTableMovesToTheHiddenKey() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-inverseless")
        let store = try Cart.store1145(in: directory)
        #expect(try Cart.integer(at: store, #"SELECT COUNT(*) FROM "Z_1MODIFIERS""#) == 5)
        #expect(try Cart.pairs(at: store, model: Cart.v1) == Cart.pairs)
        let identification = try VersionRegistry(history: Cart.history).identify(storeAt: store)
        #expect(identification.version?.name == "Cart")

        let report = try Cart.upgrader(to: "Cart 3").upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.from == "Cart" && report.to == "Cart 3")
        #expect(try Cart.pairs(at: store, model: Cart.v3) == Cart.pairs)
        #expect(try Cart.integer(at: store, #"SELECT COUNT("Z2MODIFIERS") FROM "ZMODIFIER""#) == 5)
        #expect(try Cart.tables(at: store) == ["ZBASKET", "ZITEM", "ZMODIFIER", "Z_METADATA", "Z_PRIMARYKEY"])
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        let metadata = try snapshot.database.read { db in try StoreMetadata.read(from: db, path: store.path) }
        #expect(metadata.release == .newest)
        #expect(try VersionRegistry(history: Cart.history).identify(storeAt: store).version?.name == "Cart 3")
    }

    @Test("a modifier in two items' join rows is refused, not cut to one link, and the store is untouched")
    func sharedMemberIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-inverseless")
        let store = try Cart.store1145(in: directory, extra: (item: "bread", modifier: "m1"))
        #expect(try Cart.pairs(at: store, model: Cart.v1) == (Cart.pairs + ["bread→m1"]).sorted())
        let before = StoreBytes(store)
        let error = try #require(throws: UpgradeError.self) {
            try Cart.upgrader(to: "Cart 3").upgradeIfNeededSynchronously(storeAt: store)
        }
        #expect(error.description.contains("in the 'modifiers' of more than one Item"))
        #expect(StoreBytes(store) == before)
    }

    /// An ordered one declared by an entity with subentities: Core Data's virtual to-one keeps the
    /// holder's `Z_ENT` and each member's position beside the key. A step that renumbers the
    /// entities rewrites all three, and keeps the order.
    @Test("an ordered one of a hierarchy keeps its order, and the holder's renumbered Z_ENT")
    func orderedInHierarchy() throws {
        func model(_ name: String, _ identifier: String, basket: Bool) -> ObjectModel {
            ObjectModel(name, versionIdentifiers: [identifier]) {
                if basket { Entity("Basket") { Attribute("label", .string) } }
                Entity("Item") {
                    Attribute("name", .string).required()
                    Relationship("modifiers", to: "Modifier").ordered()
                }
                Entity("Special", parent: "Item") {}
                Entity("Modifier") { Attribute("label", .string).required() }
            }
        }
        // Item 1, Special 2, Modifier 3; then Basket 1, Item 2, Special 3, Modifier 4.
        let v1 = model("Cart", "1", basket: false)
        let v2 = model("Cart 2", "2", basket: true)
        let directory = try TemporaryDirectory(prefix: "stepwise-inverseless")
        let store = directory.path("Cart.sqlite")
        try StoreCreator.createStore(at: store, model: v1)
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: v1))
            let plain = try objects.insert("Item", ["name": "plain"])
            let special = try objects.insert("Special", ["name": "special"])
            let modifiers = try ["m1", "m2", "m3"].map { try objects.insert("Modifier", ["label": $0]) }
            try objects.relate(special, "modifiers", to: modifiers[2])
            try objects.relate(special, "modifiers", to: modifiers[0])
            try objects.relate(plain, "modifiers", to: modifiers[1])
        }
        try queue.close()
        #expect(try Cart.integer(at: store, #"SELECT SUM("Z1_1MODIFIERS") FROM "ZMODIFIER""#) == 1 + 2 + 2)

        let report = try Cart.upgrader(to: "Cart 2", history: VersionHistory([v1, v2]))
            .upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.to == "Cart 2")
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        try snapshot.database.read { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: v2))
            let items = try objects.fetch("Item").sorted { ($0.string("name") ?? "") < ($1.string("name") ?? "") }
            let labels = try items.map { item in
                try objects.related(item.id, "modifiers").map { try objects.object($0).string("label") ?? "" }
            }
            #expect(labels == [["m2"], ["m3", "m1"]])
            let holders = try Row.fetchAll(
                db, sql: #"SELECT "Z2_2MODIFIERS" FROM "ZMODIFIER" ORDER BY "Z_PK""#
            ).map { $0[0] as Int? }
            #expect(holders == [3, 2, 3])
        }
    }
}
