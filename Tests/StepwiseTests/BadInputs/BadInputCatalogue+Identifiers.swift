import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import Testing

@testable import Stepwise

/// Entity, attribute and relationship names an attacker (or an unlucky model) could choose.
///
/// Stepwise deliberately accepts any name a model holds and quotes every identifier it puts
/// in SQL, so these upgrades must succeed with every value intact, and nothing in a name may
/// ever run as SQL. The names Core Data's own tables and columns need are the exception: a
/// model that would take one is refused, naming the entity.
extension BadInputCatalogue {
    static let identifiers: [BadInputCase] = [
        hostile(
            "SQL injection in an entity name",
            HostileNames(
                entity: #"X"; DROP TABLE "Z_METADATA"; --"#, renamedEntity: #"Y"; DROP TABLE "Z_PRIMARYKEY"; --"#)),
        hostile(
            "SQL injection in attribute and relationship names",
            HostileNames(
                text: #"name"); DELETE FROM "ZITEM"; --"#, renamedText: "title'); DROP TABLE Z_METADATA; --",
                relationship: #"owner" INTEGER); DROP TABLE "ZOWNER"; --"#, renamedRelationship: "keeper';--",
                rewritesRows: true)),
        hostile(
            "single and double quotes",
            HostileNames(
                entity: #"It's "Quoted""#, renamedEntity: #"Its ""Requoted"""#, text: #"say "hi""#,
                renamedText: "it's", number: "o'clock", renamedNumber: #"1"2"#)),
        hostile(
            "semicolons, brackets and backticks",
            HostileNames(
                entity: "Semi;Colon]", renamedEntity: "[Bracketed]", text: "`tick`", renamedText: "a;b]",
                relationship: "[owner]", renamedRelationship: "`keeper`", rewritesRows: true)),
        hostile(
            "Unicode names, one that uppercases to two letters",
            // 'Ünïcødé' sorts after 'Owner' where 'Café☕️' sorted before it: the entity numbers
            // (Z_ENT) change, and the step moves the rows to them in place.
            HostileNames(
                entity: "Café☕️", renamedEntity: "Ünïcødé", text: "straße", renamedText: "名前", number: "𝔫",
                renamedNumber: "число")),
        hostile(
            "SQL keywords",
            HostileNames(
                entity: "Select", renamedEntity: "Order", text: "where", renamedText: "group", number: "from",
                renamedNumber: "table", relationship: "join", renamedRelationship: "references", rewritesRows: true)),
        hostile(
            "names like Core Data's own columns",
            HostileNames(
                entity: "Z_PK", renamedEntity: "_ENT", text: "_PK", renamedText: "_OPT", number: "z_ent",
                renamedNumber: "_FOK_owner", relationship: "_opt", renamedRelationship: "Z_PK")),
        BadInputCase(
            .identifier, "an entity that would take Core Data's Z_METADATA table",
            arrange: { try HostileNames(renamedEntity: "_METADATA").write(in: $0) },
            act: { try $0.upgradeHostileStore() },
            expect: .unsupportedModel(
                version: "Hostile 2",
                reason:
                    "entity '_METADATA' would be stored in Z_METADATA, a table Core Data keeps for itself; rename the entity"
            ),
            leaves: .lockFile
        ),
        BadInputCase(
            .identifier, "two entities whose names differ only by case",
            arrange: { workspace in
                var names = HostileNames(renamedEntity: "Item")
                names.extraEntity = "ITEM"
                try names.write(in: workspace)
            },
            act: { try $0.upgradeHostileStore() },
            expect: .unsupportedModel(
                version: "Hostile 2",
                reason: "two tables would be named ZITEM (entity or relationship names differ only by case?)"),
            leaves: .lockFile
        ),
    ]

    /// Upgrades a store of `names` and checks every value came through. The step runs in
    /// place unless the number becomes a string (then it rebuilds), or `strategy` says otherwise.
    static func hostile(
        _ name: String, _ names: HostileNames, strategy: StepStrategy? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> BadInputCase {
        BadInputCase(
            .identifier, name,
            arrange: { try names.write(in: $0) },
            act: { try $0.upgradeHostileStore() },
            expect: .upgraded(
                from: "Hostile", to: "Hostile 2", strategy: strategy ?? (names.rewritesRows ? .rebuild : .inPlace)
            ) {
                try names.checkUpgradedStore(in: $0)
            },
            leaves: .upgradedStore, sourceLocation: sourceLocation)
    }
}

/// A two-version model whose names are hostile: an item entity with a string, a number and
/// a to-one to `Owner`, each renamed in version 2 through its renaming identifier, so the
/// step between them is inferred. With `rewritesRows` the number becomes a string, which
/// rewrites every row (set-based SQL) instead of altering the table in place.
struct HostileNames: Sendable {
    var entity = "Item"
    var renamedEntity = "Item"
    var text = "text"
    var renamedText = "text"
    var number = "number"
    var renamedNumber = "number"
    var relationship = "owner"
    var renamedRelationship = "owner"
    var rewritesRows = false
    /// Another entity of version 2, for names that collide.
    var extraEntity: String?

    /// The seeded items: text, number and owner (1 or 2). The values are hostile too.
    static let items: [(text: String, number: Int64, owner: Int64)] = [
        (#"Robert'); DROP TABLE "ZOWNER"; --"#, 1, 1),
        (#""quoted" and 'quoted'"#, -2, 1),
        ("semi;colon] `tick` ☕️", 32_767, 2),
    ]

    var version1: ObjectModel {
        ObjectModel("Hostile") {
            Entity(entity) {
                Attribute(text, .string)
                Attribute(number, .integer16)
                Relationship(relationship, to: "Owner", inverse: "items")
            }
            Entity("Owner") {
                Attribute("name", .string)
                Relationship("items", to: entity, inverse: relationship).toMany()
            }
        }
    }

    var version2: ObjectModel {
        ObjectModel("Hostile 2") {
            Entity(renamedEntity) {
                Attribute(renamedText, .string).renamed(from: text)
                Attribute(renamedNumber, rewritesRows ? .string : .integer16).renamed(from: number)
                Relationship(renamedRelationship, to: "Owner", inverse: "items").renamed(from: relationship)
            }
            .renamed(from: entity)
            Entity("Owner") {
                Attribute("name", .string)
                Relationship("items", to: renamedEntity, inverse: renamedRelationship).toMany()
            }
            if let extraEntity {
                Entity(extraEntity) { Attribute("name", .string) }
            }
        }
    }

    /// Writes `Hostile.xcdatamodeld` (through the XML writer, so names are escaped and read
    /// back) and a store of version 1 with two owners and three items.
    func write(in workspace: BadInputWorkspace) throws {
        try XcodeModelWriter.writeBundle(
            [version1, version2], current: "Hostile 2", to: workspace.path("Hostile.xcdatamodeld"))
        try StoreCreator.createStore(at: workspace.store, model: version1)
        let queue = try DatabaseQueue(path: workspace.store.path)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: version1))
            let owners = try ["Ada", "Grace"].map { try objects.insert("Owner", ["name": $0]) }
            for item in Self.items {
                _ = try objects.insert(
                    entity, [text: item.text, number: item.number, relationship: owners[Int(item.owner) - 1]])
            }
        }
        try queue.close()
    }

    /// Reads the upgraded store: the bookkeeping tables are there, every item kept its
    /// values and owner, and the store identifies as version 2 by its hashes.
    func checkUpgradedStore(in workspace: BadInputWorkspace) throws {
        let snapshot = try StoreSnapshot(of: workspace.store)
        defer { snapshot.close() }
        let layout = try StoreLayout(model: version2)
        try snapshot.database.read { db in
            #expect(try db.tableExists("Z_METADATA"))
            #expect(try db.tableExists("Z_PRIMARYKEY"))
            #expect(try db.tableExists("ZOWNER"))
            let objects = ObjectContext(db, layout: layout)
            let items = try objects.fetch(renamedEntity)
            #expect(items.map { $0.string(renamedText) } == Self.items.map(\.text))
            if rewritesRows {
                #expect(items.map { $0.string(renamedNumber) } == Self.items.map { String($0.number) })
            } else {
                #expect(items.map { $0.int(renamedNumber) } == Self.items.map(\.number))
            }
            let owners = try items.map { try objects.related($0.id, renamedRelationship).map(\.primaryKey) }
            #expect(owners == Self.items.map { [$0.owner] })
            #expect(try objects.fetch("Owner").map { $0.string("name") } == ["Ada", "Grace"])
        }
        let history = try ModelBundle(contentsOf: workspace.path("Hostile.xcdatamodeld")).history
        let identification = try VersionRegistry(history: history).identify(storeAt: workspace.store)
        #expect(identification.version?.name == "Hostile 2")
        #expect(identification.matchedBy == .hash)
    }
}

extension BadInputWorkspace {
    /// `Upgrader(bundleAt:)` of `Hostile.xcdatamodeld`, then `upgradeIfNeeded` on the store.
    func upgradeHostileStore() throws -> UpgradeReport {
        try upgrader(bundle: path("Hostile.xcdatamodeld")).upgradeIfNeededSynchronously(storeAt: store)
    }
}
