import Foundation
import GRDB
import Stepwise
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Seeded stores that hold what a team's data always holds (``SeedingConstraints``), on the
/// Shop history's `Shop 2`.
@Suite("SeedingConstraints")
struct SeedingConstraintsTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-constraints")
    }

    /// The orders and customers of a store seeded at `Shop 2` with `seeding`.
    func seed(_ seeding: SeedingConstraints, model: ObjectModel = ShopHistory.v2) throws -> (
        orders: [StoredObject], customers: [StoredObject], store: SeededStore
    ) {
        let url = directory.path("Shop-\(UUID().uuidString).sqlite")
        let store = try SeededStore.create(at: url, model: model, seed: 3, seeding: seeding)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        let layout = try StoreLayout(model: model)
        return try queue.read { db in
            let objects = ObjectContext(db, layout: layout)
            return (try objects.fetch("Order"), try objects.fetch("Customer"), store)
        }
    }

    @Test func unconstrainedTheModelsFreedomShows() throws {
        let (orders, _, _) = try seed(SeedingConstraints(rows: 40))
        #expect(orders.contains { $0["customer"].isNull }, "an optional to-one is sometimes nil")
        #expect(Set(orders.map { $0["number"] }).count < orders.count, "integer edge cases repeat")
        #expect(!orders.allSatisfy { ["open", "shipped"].contains($0.string("status") ?? "") })
    }

    @Test func rowsArePerEntity() throws {
        let (orders, customers, store) = try seed(SeedingConstraints(rows: RowCounts(default: 5, ["Order": 33])))
        #expect((orders.count, customers.count) == (33, 5))
        #expect(store.rowCounts == ["Customer": 5, "Order": 33])
    }

    @Test func everyToOneIsSet() throws {
        let (orders, _, _) = try seed(SeedingConstraints(rows: 40, every: ["Order.customer"]))
        #expect(orders.allSatisfy { !$0["customer"].isNull })
    }

    /// Naming the to-many side of a one-to-many gives every customer at least one order.
    @Test func everyToManyHoldsAnObject() throws {
        let url = directory.path("Shop-many.sqlite")
        let seeding = SeedingConstraints(rows: RowCounts(default: 10, ["Order": 12]), every: ["Customer.orders"])
        _ = try SeededStore.create(at: url, model: ShopHistory.v2, seed: 3, seeding: seeding)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        let layout = try StoreLayout(model: ShopHistory.v2)
        try queue.read { db in
            let objects = ObjectContext(db, layout: layout)
            for customer in try objects.fetch("Customer") {
                #expect(try !objects.related(customer.id, "orders").isEmpty)
            }
        }
    }

    @Test func uniqueValuesDiffer() throws {
        let (orders, _, _) = try seed(SeedingConstraints(rows: 40, unique: ["Order.number"]))
        #expect(Set(orders.map { $0["number"] }).count == 40)
    }

    @Test func valuesComeFromTheList() throws {
        let list = ["open", "shipped", "delivered"]
        let (orders, _, _) = try seed(SeedingConstraints(rows: 40, values: ["Order.status": list]))
        #expect(Set(orders.compactMap { $0.string("status") }) == Set(list), "every value, and only those")
        #expect(orders.allSatisfy { !$0["status"].isNull })
        let (numbers, _, _) = try seed(SeedingConstraints(rows: 6, values: ["Order.number": ["7", "-2"]]))
        #expect(Set(numbers.map { $0.int("number") }) == [7, -2])
    }

    /// Shop 3 makes Order.number unique: a list shorter than the rows can't satisfy it.
    @Test func aListForAnAttributeTheModelMakesUniqueMustCoverTheRows() throws {
        let error = try #require(throws: UpgradeMatrixFailure.self) {
            try seed(SeedingConstraints(rows: 5, values: ["Order.number": ["1", "2"]]), model: ShopHistory.v3)
        }
        #expect(error.description.contains("Order.number"), "\(error)")
        #expect(error.description.contains("5 rows can't share 2 values"), "\(error)")
    }

    @Test func theSameSeedAndConstraintsGiveTheSameRows() throws {
        let seeding = SeedingConstraints(
            rows: 20, every: ["Order.customer"], unique: ["Customer.name"], values: ["Order.status": ["a", "b"]])
        let first = try seed(seeding)
        let second = try seed(seeding)
        #expect(first.orders.map(\.values) == second.orders.map(\.values))
        #expect(first.customers.map(\.values) == second.customers.map(\.values))
    }

    @Test func theJSONFileReadsAsTheOptions() throws {
        let url = directory.path("seeding.json")
        try Data(
            #"""
            {"defaultRows": 8, "rows": {"Order": 30}, "every": ["Order.customer"], "unique": ["Order.number"],
             "values": {"Order.status": ["open", "shipped"], "Order.number": [1, 2]}}
            """#.utf8
        ).write(to: url)
        let seeding = try SeedingConstraints(contentsOf: url)
        #expect(seeding.rows == RowCounts(default: 8, ["Order": 30]))
        #expect(seeding.every == ["Order.customer"])
        #expect(seeding.unique == ["Order.number"])
        #expect(seeding.values == ["Order.status": ["open", "shipped"], "Order.number": ["1", "2"]])
        let encoded = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(seeding)) as? [String: Any])
        #expect(encoded["defaultRows"] as? Int == 8)
        #expect(encoded["every"] as? [String] == ["Order.customer"])
    }

    @Test func aMalformedFileNamesItselfAndThePlace() throws {
        let url = directory.path("bad.json")
        try Data(#"{"every": "Order.customer"}"#.utf8).write(to: url)
        let error = try #require(throws: UpgradeMatrixFailure.self) { try SeedingConstraints(contentsOf: url) }
        #expect(error.path == url.path)
        #expect(error.description.contains("'every'"), "\(error)")
    }

    @Test(arguments: [
        (SeedingConstraints(every: ["Invoice.customer"]), "names the entity 'Invoice', which 'Shop 2' doesn't have"),
        (
            SeedingConstraints(every: ["Order.status"]),
            "Order has no stored relationship of that name (it has: customer)"
        ),
        (SeedingConstraints(unique: ["Order.customer"]), "Order has no stored attribute of that name"),
        (
            SeedingConstraints(values: ["Order.number": ["seven"]]),
            "'seven': it doesn't read as Integer 32 (in 'Shop 2')"
        ),
        (SeedingConstraints(rows: ["Invoice": 3]), "'Invoice', which 'Shop 2' doesn't have"),
    ])
    func aNameTheVersionLacksIsATypedError(_ seeding: SeedingConstraints, _ expected: String) throws {
        let error = try #require(throws: UpgradeMatrixFailure.self) { try seed(seeding) }
        #expect(error.description.contains(expected), "\(error)")
        #expect(error.path != nil, "names the store")
    }
}
