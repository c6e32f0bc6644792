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
        let v1 = Self.model("Contacts", old)
        let v2 = Self.model("Contacts 2", new)
        let directory = try TemporaryDirectory(prefix: "stepwise-derived-source")
        let url = directory.path("Contacts.sqlite")
        try StoreCreator.createStore(at: url, model: v1)
        let seed = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        try seed.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: v1))
            let company = try objects.insert("Company", ["name": "Acme"])
            _ = try objects.insert("Contact", ["email": "Ann@Example.com", "name": "Ann", "company": company])
            _ = try objects.insert("Contact", ["email": "BOB@example.COM", "name": "Bob", "company": company])
        }
        try seed.close()

        let upgrader = Upgrader(
            history: VersionHistory([v1, v2]), mappings: [:], options: UpgradeOptions(targetVersion: v2.name))
        _ = try upgrader.upgradeIfNeededSynchronously(storeAt: url)

        var queue: DatabaseQueue? = try upgrader.openDatabaseQueue(storeAt: url)
        defer { try? queue?.close() }
        let values = try queue!.read { db in
            try String.fetchAll(db, sql: #"SELECT "ZKEY" FROM "ZCONTACT" ORDER BY "Z_PK""#)
        }
        #expect(values == expected)
        let triggers = try queue!.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'Z_DA_%' ORDER BY name")
        }
        #expect(triggers == (try StoreLayout(model: v2)).derivedAttributes.flatMap(\.triggerNames).sorted())

        // The app's next writes fire the destination's triggers.
        try queue!.write { db in
            try db.execute(sql: #"UPDATE "ZCONTACT" SET "ZEMAIL" = 'Cy@X.org', "ZNAME" = 'Cy' WHERE "Z_PK" = 1"#)
            try db.execute(sql: #"UPDATE "ZCOMPANY" SET "ZNAME" = 'Initech'"#)
        }
        let first = try queue!.read { db in
            try String.fetchOne(db, sql: #"SELECT "ZKEY" FROM "ZCONTACT" WHERE "Z_PK" = 1"#)
        }
        let current = ["lowercase:(email)": "cy@x.org", "uppercase:(name)": "CY", "company.name": "Initech"]
        #expect(first == current[new.expression])
        queue = nil
    }
}

extension DerivedSourceChangeUpgradeTests {
    static func companies(_ name: String, staff: Derivation?) -> ObjectModel {
        ObjectModel(name, versionIdentifiers: [name]) {
            Entity("Company") {
                Attribute("name", .string)
                if let staff { Attribute("staff", .integer64).withDerivation(staff) }
                Relationship("contacts", to: "Contact", inverse: "company").toMany()
            }
            Entity("Contact") {
                Attribute("name", .string)
                Relationship("company", to: "Company", inverse: "contacts")
            }
        }
    }

    @Test("a count added by an upgrade counts the rows already there, and follows later ones")
    func countAddedByAnUpgrade() throws {
        let v1 = Self.companies("Companies", staff: nil)
        let v2 = Self.companies(
            "Companies 2", staff: Derivation(expression: "contacts.@count", kind: .count(relationship: ["contacts"])))
        let directory = try TemporaryDirectory(prefix: "stepwise-derived-count")
        let url = directory.path("Companies.sqlite")
        try StoreCreator.createStore(at: url, model: v1)
        let seed = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        try seed.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: v1))
            let acme = try objects.insert("Company", ["name": "Acme"])
            _ = try objects.insert("Company", ["name": "Empty"])
            for name in ["Ann", "Bob", "Cy"] { _ = try objects.insert("Contact", ["name": name, "company": acme]) }
        }
        try seed.close()
        let upgrader = Upgrader(
            history: VersionHistory([v1, v2]), mappings: [:], options: UpgradeOptions(targetVersion: v2.name))
        _ = try upgrader.upgradeIfNeededSynchronously(storeAt: url)
        var queue: DatabaseQueue? = try upgrader.openDatabaseQueue(storeAt: url)
        defer { try? queue?.close() }
        let staff = {
            try queue!.read { db in try Int.fetchAll(db, sql: #"SELECT "ZSTAFF" FROM "ZCOMPANY" ORDER BY "Z_PK""#) }
        }
        #expect(try staff() == [3, 0])
        try queue!.write { db in try db.execute(sql: #"UPDATE "ZCONTACT" SET "ZCOMPANY" = 2 WHERE "ZNAME" = 'Cy'"#) }
        #expect(try staff() == [2, 1])
        queue = nil
    }
}

extension Attribute {
    fileprivate func withDerivation(_ derivation: Derivation) -> Attribute {
        var attribute = self
        attribute.derivation = derivation
        return attribute
    }
}
