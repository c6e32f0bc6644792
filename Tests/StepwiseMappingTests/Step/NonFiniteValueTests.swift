import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// A policy that computes NaN or infinity is told so by name (issue 45): SQLite stores NaN as
/// NULL, which was reported only as "the required attribute has no value".
@Suite("NaN and infinity from a policy")
struct NonFiniteValueTests {
    static let v1 = ObjectModel("Shop") {
        Entity("Item") {
            Attribute("price", .double).required()
            Attribute("count", .integer64).required()
        }
    }
    static let v2 = ObjectModel("Shop 2") {
        Entity("Item") {
            Attribute("price", .double).required()
            Attribute("count", .integer64).required()
            Attribute("unitPrice", .double).required()
            Attribute("units", .integer64).required()
        }
    }

    /// `unitPrice` ← price ÷ count, `units` ← count ÷ 0.0: row by row, in Swift.
    final class DividingPolicy: EntityMigrationPolicy {
        override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
            -> MappingValue
        {
            let numbers = arguments.map { value -> Double in
                if case .double(let number) = value { return number }
                if case .integer(let number) = value { return Double(number) }
                return 0
            }
            switch selector {
            case "divide:by:": return .double(numbers[0] / numbers[1])
            default: return try super.function(named: selector, arguments: arguments, manager: manager)
            }
        }
    }

    let directory: TemporaryDirectory
    init() throws { directory = try TemporaryDirectory(prefix: "stepwise-nonfinite") }

    func run(unitPrice: String, units: String, price: Double, count: Int64) throws -> any Error {
        let source = directory.path("Shop.sqlite")
        try StepFixtures.store(at: source, model: Self.v1) { objects in
            _ = try objects.insert("Item", ["price": price, "count": count])
        }
        let text = """
            {"source": "Shop", "destination": "Shop 2", "entityMappings": [
              {"source": "Item", "destination": "Item", "policy": "Dividing", "attributes": {
                "price": "$source.price", "count": "$source.count", "unitPrice": \(NonFiniteValueTests.quoted(unitPrice)),
                "units": \(NonFiniteValueTests.quoted(units))}}]}
            """
        let mapping = try MappingFile.decode(Data(text.utf8), source: Self.v1, destination: Self.v2)
        var policies = PolicyRegistry()
        policies.register("Dividing") { DividingPolicy() }
        let step = MigrationStep(from: Self.v1, to: Self.v2, mappingModels: [mapping], policies: policies)
        do {
            _ = try step.run(source: source, destination: directory.path("Shop 2.sqlite"))
        } catch {
            return error
        }
        throw NonFiniteError.noError
    }

    enum NonFiniteError: Error { case noError }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    @Test func nanIsNamedWithTheAttributeAndTheRow() throws {
        let error = try run(
            unitPrice: #"FUNCTION($entityPolicy, "divide:by:", $source.price, $source.count)"#,
            units: "$source.count", price: 0, count: 0)
        let text = "\(error)"
        #expect(text.contains("NaN"), "\(text)")
        #expect(text.contains("unitPrice"), "\(text)")
    }

    @Test func infinityIsNamedForAnIntegerAttribute() throws {
        let error = try run(
            unitPrice: "$source.price",
            units: #"FUNCTION($entityPolicy, "divide:by:", $source.count, 0)"#, price: 2, count: 3)
        let text = "\(error)"
        #expect(text.contains("infinity"), "\(text)")
        #expect(text.contains("units"), "\(text)")
    }
}
