import Foundation
import StepwiseMapping
import StepwiseStore

/// Shop 2 → 3 (``ShopHistory``): an order's status word becomes a code, and each customer's
/// `orderCount` is recounted from the source store, as a Core Data policy on one entity
/// mapping may write objects of another.
///
/// It relies on what the shop's data always held: a status among ``codes`` (any other is a
/// ``StatusError``). It declares the attribute of Customer it writes
/// (``/StepwiseMapping/EntityMigrationPolicy/writesOtherEntities``), so the matrix leaves that
/// value to this policy. Open so that a test can take the declaration away.
open class ShopOrderPolicy: EntityMigrationPolicy {
    /// The status words and their codes.
    package static let codes: [String: Int64] = ["open": 0, "shipped": 1, "delivered": 2]

    /// A status word Shop 3 has no code for.
    package struct StatusError: LocalizedError, Sendable {
        package var status: String?
        package var errorDescription: String? {
            "the order status \(status.map { "'\($0)'" } ?? "nil") is none of \(ShopOrderPolicy.codes.keys.sorted().joined(separator: ", "))"
        }
    }

    /// Customer's `orderCount`, rewritten for the customers that have orders.
    open override var writesOtherEntities: [String: Set<String>] { ["Customer": ["orderCount"]] }

    /// Creates the order, then writes its customer's order count (from the source store: the
    /// destination's links are made in pass 2).
    open override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
        for customer in try manager.source.related(source.id, "customer") {
            let count = try manager.source.related(customer, "orders").count
            let destinations = try manager.destinationInstances(
                forEntityMappingNamed: "CustomerToCustomer", sourceInstances: [customer])
            for destination in destinations {
                try manager.destination.update(destination, ["orderCount": count])
            }
        }
    }

    /// `statusCode:`: the status word's code.
    open override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
        -> MappingValue
    {
        guard selector == "statusCode:" else {
            return try super.function(named: selector, arguments: arguments, manager: manager)
        }
        let status = arguments.first?.stringValue
        guard let status, let code = Self.codes[status] else { throw StatusError(status: status) }
        return .integer(code)
    }
}
