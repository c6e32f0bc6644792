import Foundation
import StepwiseDemo
import StepwiseMapping
import StepwiseModel

/// Three versions of a small shop whose explicit step has a cross-entity policy, for tests of
/// the CI gates: `stepwise check`'s accepted findings, the matrix's seeding constraints and a
/// policy's declared writes. It is not one of the `Versions/` samples.
///
/// | Shop | Shop 2 | Shop 3 |
/// | --- | --- | --- |
/// | Customer(name, orders) | Customer(name, orderCount, orders) | the same |
/// | Order(number, status, customer?) | the same | Order(number unique, statusCode, customer required) |
///
/// `Shop → Shop 2` is inferred (a new attribute with a default). `Shop 2 → Shop 3` is explicit
/// (``SampleMappings/shop2to3``): Customer is copied as is, and Order's mapping names
/// ``ShopOrderPolicy``, which turns the status word into a code and, like a real Core Data
/// policy, rewrites rows of another entity: each customer's `orderCount`.
///
/// What Shop 3 asks of the data, the app always ensured but Shop and Shop 2 don't say: every
/// order has a customer, order numbers are unique, and a status is `open`, `shipped` or
/// `delivered`. A seeded store holds none of that unless told (``/StepwiseMatrix/SeedingConstraints``).
package enum ShopHistory {
    /// v1: customers and their orders.
    package static let v1 = ObjectModel("Shop", versionIdentifiers: ["1"]) {
        Entity("Customer") {
            Attribute("name", .string).required()
            Relationship("orders", to: "Order", inverse: "customer").toMany()
        }
        Entity("Order") {
            Attribute("number", .integer32).required()
            Attribute("status", .string)
            Relationship("customer", to: "Customer", inverse: "orders")
        }
    }

    /// v2: Customer gains a stored `orderCount`.
    package static let v2 = ObjectModel("Shop 2", versionIdentifiers: ["2"]) {
        Entity("Customer") {
            Attribute("name", .string).required()
            Attribute("orderCount", .integer32).required().defaultValue("0")
            Relationship("orders", to: "Order", inverse: "customer").toMany()
        }
        Entity("Order") {
            Attribute("number", .integer32).required()
            Attribute("status", .string)
            Relationship("customer", to: "Customer", inverse: "orders")
        }
    }

    /// v3: Order's status becomes a code, its number unique, its customer required.
    package static let v3 = ObjectModel("Shop 3", versionIdentifiers: ["3"]) {
        Entity("Customer") {
            Attribute("name", .string).required()
            Attribute("orderCount", .integer32).required().defaultValue("0")
            Relationship("orders", to: "Order", inverse: "customer").toMany()
        }
        Entity("Order") {
            Attribute("number", .integer32).required()
            Attribute("statusCode", .integer16).required()
            Relationship("customer", to: "Customer", inverse: "orders").required()
            Unique("number")
        }
    }

    package static let history = VersionHistory([v1, v2, v3])

    /// `Shop 2` as edited after it shipped (Customer gained `email`): with `Shop 2` recorded as
    /// shipped first, `stepwise check` finds ``/Stepwise/HistoryFinding/Kind/shippedVersionEdited``.
    package static let v2EditedAfterShipping = ObjectModel("Shop 2", versionIdentifiers: ["2"]) {
        Entity("Customer") {
            Attribute("name", .string).required()
            Attribute("orderCount", .integer32).required().defaultValue("0")
            Attribute("email", .string)
            Relationship("orders", to: "Order", inverse: "customer").toMany()
        }
        Entity("Order") {
            Attribute("number", .integer32).required()
            Attribute("status", .string)
            Relationship("customer", to: "Customer", inverse: "orders")
        }
    }

    /// Writes the sample to `directory`, records `Shop 2` as shipped, then writes it again with
    /// ``v2EditedAfterShipping``; returns the bundle.
    package static func writeWithShippedVersionEdited(to directory: URL) throws -> URL {
        let bundle = try sample.write(to: directory)
        _ = try ShippedRecords.record(v2.name, of: bundle)
        var edited = sample
        edited.history = VersionHistory([v1, v2EditedAfterShipping, v3])
        return try edited.write(to: directory)
    }

    /// The explicit step's mapping model, as it would be read from its file.
    package static var mappings: [MappingDirectory.StepKey: [MappingModel]] {
        get throws {
            let model = try MappingFile.decode(Data(SampleMappings.shop2to3.utf8), source: v2, destination: v3)
            return [MappingDirectory.StepKey(v2.name, v3.name): [model]]
        }
    }

    /// The sample as a bundle with its mapping file, for `write(to:)`.
    package static let sample = SampleHistory(
        name: "Shop", history: history, mappingFiles: ["Shop 2 to Shop 3.json": SampleMappings.shop2to3])
}
