import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// An upgrade that changes what a derived attribute reads: the values are the new derivation's
/// after the step, and the triggers it leaves keep them current on the app's next write.
@Suite("upgradeIfNeeded: a derived attribute's source changes")
struct DerivedSourceChangeUpgradeTests {
    static func model(_ name: String, _ derivation: Derivation?) -> ObjectModel {
        ObjectModel(name, versionIdentifiers: [name]) {
            Entity("Contact") {
                Attribute("email", .string)
                Attribute("name", .string)
                if let derivation {
                    Attribute("key", .string).withDerivation(derivation)
                }
                Relationship("company", to: "Company", inverse: "contacts")
            }
            Entity("Company") {
                Attribute("name", .string)
                Relationship("contacts", to: "Contact", inverse: "company").toMany()
            }
        }
    }

    static let lowerEmail = Derivation(expression: "lowercase:(email)", kind: .string(.lowercase, keyPath: ["email"]))
    static let upperName = Derivation(expression: "uppercase:(name)", kind: .string(.uppercase, keyPath: ["name"]))
    static let companyName = Derivation(expression: "company.name", kind: .keyPath(["company", "name"]))

    @Test(
        "values follow the new derivation and the triggers keep them current",
        arguments: [
            (nil, lowerEmail, ["ann@example.com", "bob@example.com"]),
            (lowerEmail, upperName, ["ANN", "BOB"]),
            (upperName, companyName, ["Acme", "Acme"]),
        ] as [(Derivation?, Derivation, [String])])
    func valuesFollowTheNewDerivation(from old: Derivation?, to new: Derivation, expected: [String]) throws {
        try Self.upgrade(
            from: Self.model("Contacts", old), to: Self.model("Contacts 2", new),
            seed: { objects in
                let company = try objects.insert("Company", ["name": "Acme"])
                _ = try objects.insert("Contact", ["email": "Ann@Example.com", "name": "Ann", "company": company])
                _ = try objects.insert("Contact", ["email": "BOB@example.COM", "name": "Bob", "company": company])
            },
            check: { queue in
                let values = try queue.read { db in
                    try String.fetchAll(db, sql: #"SELECT "ZKEY" FROM "ZCONTACT" ORDER BY "Z_PK""#)
                }
                #expect(values == expected)
                // The app's next writes fire the destination's triggers.
                try queue.write { db in
                    try db.execute(
                        sql: #"UPDATE "ZCONTACT" SET "ZEMAIL" = 'Cy@X.org', "ZNAME" = 'Cy' WHERE "Z_PK" = 1"#)
                    try db.execute(sql: #"UPDATE "ZCOMPANY" SET "ZNAME" = 'Initech'"#)
                }
                let first = try queue.read { db in
                    try String.fetchOne(db, sql: #"SELECT "ZKEY" FROM "ZCONTACT" WHERE "Z_PK" = 1"#)
                }
                let current = ["lowercase:(email)": "cy@x.org", "uppercase:(name)": "CY", "company.name": "Initech"]
                #expect(first == current[new.expression])
            })
    }

    /// Creates a store of `v1`, seeds it, upgrades it to `v2`, checks that the triggers left are
    /// `v2`'s, and hands `check` the app's connection to the upgraded store.
    static func upgrade(
        from v1: ObjectModel, to v2: ObjectModel, seed: (ObjectContext) throws -> Void,
        check: (DatabaseQueue) throws -> Void
    ) throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-derived-upgrade")
        let url = directory.path("Store.sqlite")
        try StoreCreator.createStore(at: url, model: v1)
        let seeding = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        try seeding.write { db in try seed(ObjectContext(db, layout: try StoreLayout(model: v1))) }
        try seeding.close()

        let upgrader = try Upgrader(
            history: VersionHistory([v1, v2]), mappings: [:], options: UpgradeOptions(targetVersion: v2.name))
        _ = try upgrader.upgradeIfNeededSynchronously(storeAt: url)
        let queue = try upgrader.openDatabaseQueue(storeAt: url)
        defer { try? queue.close() }
        let triggers = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'Z_DA_%' ORDER BY name")
        }
        #expect(triggers == (try StoreLayout(model: v2)).derivedAttributes.flatMap(\.triggerNames).sorted())
        try check(queue)
    }
}

extension DerivedSourceChangeUpgradeTests {
    static func companies(_ name: String, summary: Derivation?) -> ObjectModel {
        ObjectModel(name, versionIdentifiers: [name]) {
            Entity("Company") {
                Attribute("name", .string)
                if let summary { Attribute("summary", .integer64).withDerivation(summary) }
                Relationship("contacts", to: "Contact", inverse: "company").toMany()
                Relationship("clients", to: "Contact", inverse: "clientOf").toMany()
            }
            Entity("Contact") {
                Attribute("name", .string)
                Attribute("age", .integer64)
                Relationship("company", to: "Company", inverse: "contacts")
                Relationship("clientOf", to: "Company", inverse: "clients").toMany()
            }
        }
    }

    static let aggregates: [(Derivation, before: [Int?], after: [Int?])] = [
        (Derivation(expression: "contacts.@count", kind: .count(relationship: ["contacts"])), [3, 0], [2, 1]),
        (
            Derivation(
                expression: "sum:(contacts.age)", kind: .aggregate(.sum, relationship: ["contacts"], attribute: "age")),
            [90, 0], [70, 20]
        ),
        (
            Derivation(
                expression: "min:(contacts.age)", kind: .aggregate(.min, relationship: ["contacts"], attribute: "age")),
            [20, nil], [30, 20]
        ),
        (
            Derivation(
                expression: "max:(contacts.age)", kind: .aggregate(.max, relationship: ["contacts"], attribute: "age")),
            [40, nil], [40, 20]
        ),
        (Derivation(expression: "clients.@count", kind: .count(relationship: ["clients"])), [2, 0], [1, 0]),
    ]

    @Test(
        "an aggregate added by an upgrade covers the rows already there, and follows later ones",
        arguments: aggregates)
    func aggregateAddedByAnUpgrade(_ summary: Derivation, before: [Int?], after: [Int?]) throws {
        let v2 = Self.companies("Companies 2", summary: summary)
        try Self.upgrade(
            from: Self.companies("Companies", summary: nil), to: v2,
            seed: { objects in
                let acme = try objects.insert("Company", ["name": "Acme"])
                _ = try objects.insert("Company", ["name": "Empty"])
                var contacts: [String: ObjectID] = [:]
                for (name, age) in [("Ann", 30), ("Bob", 40), ("Cy", 20)] {
                    contacts[name] = try objects.insert("Contact", ["name": name, "age": age, "company": acme])
                }
                try objects.relate(acme, "clients", to: contacts["Ann"]!)
                try objects.relate(acme, "clients", to: contacts["Bob"]!)
            },
            check: { queue in
                let summaries = {
                    try queue.read { db in
                        try Int?.fetchAll(db, sql: #"SELECT "ZSUMMARY" FROM "ZCOMPANY" ORDER BY "Z_PK""#)
                    }
                }
                #expect(try summaries() == before)
                // Cy moves to the other company, and Bob stops being Acme's client.
                try queue.write { db in
                    let objects = ObjectContext(db, layout: try StoreLayout(model: v2))
                    let contacts = try objects.fetch("Contact").map(\.id)
                    let companies = try objects.fetch("Company").map(\.id)
                    try objects.setToOne(contacts[2], "company", to: companies[1])
                    try objects.unrelate(companies[0], "clients", from: contacts[1])
                }
                #expect(try summaries() == after)
            })
    }
}

extension Attribute {
    fileprivate func withDerivation(_ derivation: Derivation) -> Attribute {
        var attribute = self
        attribute.derivation = derivation
        return attribute
    }
}
