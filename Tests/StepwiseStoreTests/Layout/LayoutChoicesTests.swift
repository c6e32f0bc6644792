import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import Testing

/// A layout laid out for an existing store takes from it only its join tables, so a layout
/// worked out for one store serves every store with the same ``LayoutChoices``.
@Suite("LayoutChoices")
struct LayoutChoicesTests {
    /// A self-referential many-to-many, whose table a new store names after `trustedBy`, with
    /// `Z_1TRUSTED` first (Core Data's slot order, ``StoreLayout``).
    let model = ObjectModel("Clients") {
        Entity("Client") {
            Attribute("name", .string)
            Relationship("trusted", to: "Client", inverse: "trustedBy").toMany()
            Relationship("trustedBy", to: "Client", inverse: "trusted").toMany()
        }
    }

    func schema(_ statements: [String]) throws -> SQLiteSchema {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            for statement in statements { try db.execute(sql: statement) }
            return try SQLiteSchema.read(from: db)
        }
    }

    @Test func aStoresChoicesGiveTheLayoutMatchingTheStore() throws {
        // This store's table is named after `trustedBy` with its own column first, as a store
        // Core Data migrated in place may have it.
        let store = try schema([
            "CREATE TABLE ZCLIENT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)",
            "CREATE TABLE Z_1TRUSTED (Z_1TRUSTEDBY INTEGER, Z_1TRUSTED INTEGER, PRIMARY KEY (Z_1TRUSTEDBY, Z_1TRUSTED))",
            "CREATE TABLE Z_9OTHERS (Z_9OTHERS INTEGER, Z_2OTHERS INTEGER)",
        ])
        let matching = try StoreLayout(model: model, matching: store)
        #expect(matching.table(named: "Z_1TRUSTED")?.columnNames == ["Z_1TRUSTEDBY", "Z_1TRUSTED"])
        #expect(matching.table(named: "Z_1TRUSTEDBY") == nil)

        let scope = LayoutChoices.Scope(model: model)
        let choices = LayoutChoices(store).restricted(to: scope)
        #expect(try StoreLayout(model: model, release: .newest, choices: choices) == matching)
        // `Z_9OTHERS` is named after no relationship of the model: the layout never looks it up.
        #expect(choices != LayoutChoices(store))
        let sameJoinTable = try schema([
            "CREATE TABLE Z_1TRUSTED (Z_1TRUSTEDBY INTEGER, Z_1TRUSTED INTEGER)",
            "CREATE TABLE ZOTHER (Z_PK INTEGER)",
        ])
        #expect(LayoutChoices(sameJoinTable).restricted(to: scope) == choices)
    }

    @Test func aStoreWithoutTheModelsJoinTablesGetsANewStoresLayout() throws {
        let store = try schema([
            "CREATE TABLE ZCLIENT (Z_PK INTEGER PRIMARY KEY)", "CREATE TABLE Z_METADATA (Z_VERSION INTEGER)",
        ])
        let choices = LayoutChoices(store).restricted(to: LayoutChoices.Scope(model: model))
        let layout = try StoreLayout(model: model, release: .newest, choices: choices)
        #expect(layout == (try StoreLayout(model: model)))
        #expect(layout.table(named: "Z_1TRUSTEDBY")?.columnNames == ["Z_1TRUSTED", "Z_1TRUSTEDBY"])
        #expect(layout.table(named: "Z_1TRUSTED") == nil)
    }
}
