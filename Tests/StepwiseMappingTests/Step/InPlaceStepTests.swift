import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Inferred steps that only rename, add or drop columns and tables alter a copy of the
/// source in place instead of rewriting rows; the result must be exactly what the
/// rebuilding path would produce, schema included.
@Suite("In-place steps")
struct InPlaceStepTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static let before = ObjectModel("Shop") {
        Entity("Customer") {
            Attribute("name", .string).required().indexed()
            Attribute("nickname", .string)
            Attribute("legacyCode", .string)
            Relationship("orders", to: "Purchase", inverse: "customer").toMany()
        }
        Entity("Purchase") {
            Attribute("total", .double)
            Relationship("customer", to: "Customer", inverse: "orders")
        }
    }

    /// Renames a column and a table, drops a column, adds a required column with a default
    /// and an optional one.
    static let after = ObjectModel("Shop 2") {
        Entity("Customer") {
            Attribute("displayName", .string).renamed(from: "name").required().indexed()
            Attribute("nickname", .string)
            Attribute("tier", .integer16).required().defaultValue("1")
            Attribute("email", .string)
            Relationship("orders", to: "Order", inverse: "customer").toMany()
        }
        Entity("Order") {
            Attribute("total", .double)
            Relationship("customer", to: "Customer", inverse: "orders")
        }.renamed(from: "Purchase")
    }

    func seededShop() throws -> URL {
        let url = directory.path("Shop.sqlite")
        try StoreCreator.createStore(at: url, model: Self.before)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        let layout = try StoreLayout(model: Self.before)
        try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            for index in 1...50 {
                let customer = try objects.insert(
                    "Customer",
                    [
                        "name": "customer \(index)", "nickname": index.isMultiple(of: 2) ? "c\(index)" : nil,
                        "legacyCode": "L\(index)",
                    ])
                for total in [10.5, 20.25] where index.isMultiple(of: 5) {
                    try objects.relate(customer, "orders", to: try objects.insert("Purchase", ["total": total]))
                }
            }
        }
        return url
    }

    func schema(_ url: URL) throws -> SQLiteSchema {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { try SQLiteSchema.read(from: $0) }
    }

    @Test func renamesAddsAndDropsColumnsAndTablesInPlace() throws {
        let source = try seededShop()
        let destination = directory.path("Shop 2.sqlite")
        let report = try MigrationStep(from: Self.before, to: Self.after).run(source: source, destination: destination)
        #expect(report.strategy == .inPlace)
        #expect(report.kind == .inferred)

        let expected = try SQLiteSchema(expectedFor: StoreLayout(model: Self.after))
        #expect(
            try schema(destination).differences(from: expected, ignoringTables: StoreLayout.optionalTableNames).isEmpty)

        let queue = try DatabaseQueue(path: destination.path)
        defer { try? queue.close() }
        let layout = try StoreLayout(model: Self.after)
        let result = try queue.read { db in
            let objects = ObjectContext(db, layout: layout)
            let seventh = try #require(try objects.fetch("Customer", where: .equal("displayName", "customer 7")).first)
            let tenth = try #require(try objects.fetch("Customer", where: .equal("displayName", "customer 10")).first)
            return (
                customers: try objects.count("Customer"),
                orders: try objects.count("Order"),
                tiers: Set(try objects.fetch("Customer").compactMap { $0.int("tier") }),
                emails: try objects.count("Customer", where: .isNotNil("email")),
                seventhKey: seventh.id.primaryKey,
                seventhNickname: seventh.string("nickname"),
                tenthNickname: tenth.string("nickname"),
                tenthOrders: Set(
                    try objects.related(tenth.id, "orders").map { try objects.object($0).double("total") }),
                metadata: try StoreMetadata.read(from: db, path: destination.path)
            )
        }
        #expect(result.customers == 50)
        #expect(result.orders == 20)
        #expect(result.tiers == [1])
        #expect(result.emails == 0)
        #expect(result.seventhNickname == nil)
        #expect(result.tenthNickname == "c10")
        #expect(result.tenthOrders == [10.5, 20.25])
        #expect(result.metadata.versionHashes == Self.after.entityVersionHashes)
        #expect(result.metadata.modelVersionName == "Shop 2")
        // Primary keys are kept, not renumbered: customer 7 was the 7th object of its table.
        let seventhSourceKey = try DatabaseQueue(path: source.path).read { db in
            try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ZCUSTOMER WHERE ZNAME = 'customer 7'")
        }
        #expect(result.seventhKey == seventhSourceKey)
    }

    @Test func theInPlaceResultEqualsTheRebuiltResult() throws {
        let source = try seededShop()
        let inPlace = directory.path("in-place.sqlite")
        let rebuilt = directory.path("rebuilt.sqlite")
        #expect(
            try MigrationStep(from: Self.before, to: Self.after).run(source: source, destination: inPlace).strategy
                == .inPlace)
        // A policy registered for nothing still forces the explicit, rebuilding path.
        let explicit = try MappingInference.inferMapping(from: Self.before, to: Self.after)
        var rebuiltMapping = explicit
        rebuiltMapping.isInferred = false
        let report = try MigrationStep(from: Self.before, to: Self.after, mappingModels: [rebuiltMapping])
            .run(source: source, destination: rebuilt)
        #expect(report.strategy == .rebuild)
        #expect(try schema(inPlace) == schema(rebuilt))
        func content(_ url: URL) throws -> [String] {
            let queue = try DatabaseQueue(path: url.path)
            defer { try? queue.close() }
            return try queue.read { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT c.ZDISPLAYNAME, c.ZNICKNAME, c.ZTIER, c.ZEMAIL, o.ZTOTAL
                        FROM ZCUSTOMER c LEFT JOIN ZORDER o ON o.ZCUSTOMER = c.Z_PK
                        ORDER BY c.ZDISPLAYNAME, o.ZTOTAL
                        """
                ).map { "\($0)" }
            }
        }
        #expect(try content(inPlace) == content(rebuilt))
    }

    /// A renamed table or column renames its Core Data indexes (`ZPURCHASE_ZCUSTOMER_INDEX`
    /// becomes `ZORDER_ZCUSTOMER_INDEX`). The step renames them in the schema (that it doesn't
    /// sort the table again is for `Scripts/bench` to show); here: the names are the
    /// destination's, the schema is exactly its layout's, and the entries still match the table
    /// and answer queries through the renamed index.
    @Test func anIndexWhoseTableOrColumnIsRenamedKeepsItsEntries() throws {
        let renamedOnly = ObjectModel("Shop 2") {
            Entity("Customer") {
                Attribute("displayName", .string).renamed(from: "name").required().indexed()
                Attribute("nickname", .string)
                Attribute("legacyCode", .string)
                Relationship("orders", to: "Order", inverse: "customer").toMany()
            }
            Entity("Order") {
                Attribute("total", .double)
                Relationship("customer", to: "Customer", inverse: "orders")
            }.renamed(from: "Purchase")
        }
        let source = try seededShop()
        let destination = directory.path("Shop 2.sqlite")
        #expect(
            try MigrationStep(from: Self.before, to: renamedOnly).run(source: source, destination: destination).strategy
                == .inPlace)
        let names = try DatabaseQueue(path: destination.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        }
        #expect(names.contains("ZORDER_ZCUSTOMER_INDEX") && names.contains("Z_Customer_displayName"))
        #expect(!names.contains("ZPURCHASE_ZCUSTOMER_INDEX") && !names.contains("Z_Customer_name"))
        let queue = try DatabaseQueue(path: destination.path)
        defer { try? queue.close() }
        try queue.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            let orders = try Int.fetchOne(
                db,
                sql: """
                    SELECT count(*) FROM ZORDER INDEXED BY ZORDER_ZCUSTOMER_INDEX
                    WHERE ZCUSTOMER = (SELECT Z_PK FROM ZCUSTOMER INDEXED BY Z_Customer_displayName
                                       WHERE ZDISPLAYNAME = 'customer 10')
                    """)
            #expect(orders == 2)
        }
        let expected = try SQLiteSchema(expectedFor: StoreLayout(model: renamedOnly))
        #expect(
            try schema(destination).differences(from: expected, ignoringTables: StoreLayout.optionalTableNames).isEmpty)
    }

    /// Marks every customer it migrates.
    final class MarkingPolicy: EntityMigrationPolicy {
        override func createDestinationInstances(
            forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
        ) throws {
            let made = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)
            try manager.destination.update(made, ["nickname": "seen by the policy"])
        }
    }

    /// A mapping that still says it is inferred but names a policy (edited after inference)
    /// is not altered in place: the policy sees every row.
    @Test func anInferredMappingWithAPolicyRunsThePolicy() throws {
        let source = try seededShop()
        var mapping = try MappingInference.inferMapping(from: Self.before, to: Self.after)
        for index in mapping.entityMappings.indices where mapping.entityMappings[index].sourceEntity == "Customer" {
            mapping.entityMappings[index].policyName = "Marking"
        }
        #expect(mapping.isInferred)
        var policies = PolicyRegistry()
        policies.register("Marking") { MarkingPolicy() }
        let destination = directory.path("Shop 2.sqlite")
        let report = try MigrationStep(from: Self.before, to: Self.after, mappingModels: [mapping], policies: policies)
            .run(source: source, destination: destination)
        #expect(report.strategy == .rebuild)
        let marked = try DatabaseQueue(path: destination.path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZCUSTOMER WHERE ZNICKNAME = 'seen by the policy'")
        }
        #expect(marked == 50)
    }

    @Test func aWideningNeedsRowsRewrittenSoTheStepRebuilds() throws {
        let v1 = ObjectModel("W") { Entity("Item") { Attribute("count", .integer16) } }
        let v2 = ObjectModel("W 2") { Entity("Item") { Attribute("count", .string) } }
        let source = directory.path("W.sqlite")
        try StoreCreator.createStore(at: source, model: v1)
        let queue = try DatabaseQueue(path: source.path)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: v1))
            for value in [1, 22, 333] { _ = try objects.insert("Item", ["count": value]) }
        }
        try queue.close()
        let destination = directory.path("W 2.sqlite")
        let report = try MigrationStep(from: v1, to: v2).run(source: source, destination: destination)
        #expect(report.strategy == .rebuild)
        let values = try DatabaseQueue(path: destination.path).read { db in
            try Row.fetchAll(db, sql: "SELECT ZCOUNT, typeof(ZCOUNT) AS t FROM ZITEM ORDER BY Z_PK").map {
                "\($0["ZCOUNT"] as String):\($0["t"] as String)"
            }
        }
        #expect(values == ["1:text", "22:text", "333:text"])
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func moodyOneToTwoRenamesRemoteIdentifierInPlace() throws {
        let corpus = try Corpus.required()
        let bundle = try ModelBundle(contentsOf: corpus.url("objcio-moody/model/Moody.xcdatamodeld"))
        let source = try corpus.copyStore("objcio-moody/stores/Moody.moody", to: directory.url)
        let before = try DatabaseQueue(path: source.path).read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, ZREMOTEIDENTIFIER FROM ZMOOD ORDER BY Z_PK").map {
                "\($0["Z_PK"] as Int)=\($0["ZREMOTEIDENTIFIER"] as String? ?? "nil")"
            }
        }
        let destination = directory.path("Moody 2.moody")
        let report = try MigrationStep(from: bundle.version(named: "Moody"), to: bundle.version(named: "Moody 2"))
            .run(source: source, destination: destination)
        #expect(report.strategy == .inPlace)
        let queue = try DatabaseQueue(path: destination.path)
        defer { try? queue.close() }
        let (after, ratings, indexes, modelCache) = try queue.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT Z_PK, ZREMOTEID FROM ZMOOD ORDER BY Z_PK").map {
                    "\($0["Z_PK"] as Int)=\($0["ZREMOTEID"] as String? ?? "nil")"
                },
                try Int.fetchAll(db, sql: "SELECT ZRATING FROM ZMOOD"),
                try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZMOOD' ORDER BY name"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE name = 'Z_MODELCACHE'")
            )
        }
        #expect(after == before)
        #expect(after.count == 4)
        #expect(ratings == [0, 0, 0, 0])
        #expect(indexes.contains("ZMOOD_ZREMOTEID_INDEX"))
        #expect(!indexes.contains("ZMOOD_ZREMOTEIDENTIFIER_INDEX"))
        #expect(modelCache == 0)
    }
}

extension InPlaceStepTests {
    /// Two indexed attributes renamed in a chain, `a → b` and `b → c`: the index of `a` must take
    /// the name `b`'s index is leaving. Both directions, since SQLite lists indexes in one
    /// order. The step still runs in place, the indexes keep their entries, and the schema is
    /// exactly the destination's.
    @Test(arguments: [["first", "second", "third"], ["third", "second", "first"]])
    func indexesRenamedInAChainStayInPlace(_ names: [String]) throws {
        let before = ObjectModel("Pair") {
            Entity("Item") {
                Attribute(names[0], .string).indexed()
                Attribute(names[1], .string).indexed()
            }
        }
        let after = ObjectModel("Pair 2") {
            Entity("Item") {
                Attribute(names[1], .string).renamed(from: names[0]).indexed()
                Attribute(names[2], .string).renamed(from: names[1]).indexed()
            }
        }
        let source = directory.path("Pair.sqlite")
        try StoreCreator.createStore(at: source, model: before)
        let layout = try StoreLayout(model: before)
        try DatabaseQueue(path: source.path).write { db in
            let objects = ObjectContext(db, layout: layout)
            for index in 1...20 {
                _ = try objects.insert("Item", [names[0]: "a\(index)", names[1]: "b\(index)"])
            }
        }
        let destination = directory.path("Pair 2.sqlite")
        #expect(
            try MigrationStep(from: before, to: after).run(source: source, destination: destination).strategy
                == .inPlace)
        let queue = try DatabaseQueue(path: destination.path)
        defer { try? queue.close() }
        try queue.read { (db: Database) throws in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            for (name, value) in [(names[1], "a7"), (names[2], "b7")] {
                let column = "Z\(name.uppercased())"
                #expect(
                    try String.fetchOne(
                        db,
                        sql: "SELECT \(column) FROM ZITEM INDEXED BY Z_Item_\(name) WHERE \(column) = ?",
                        arguments: [value]) == value)
            }
        }
        let expected = try SQLiteSchema(expectedFor: StoreLayout(model: after))
        #expect(
            try schema(destination).differences(from: expected, ignoringTables: StoreLayout.optionalTableNames).isEmpty)
    }
}
