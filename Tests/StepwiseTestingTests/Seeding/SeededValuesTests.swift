import Foundation
import GRDB
import StepwiseModel
import StepwiseTesting
import Testing

/// What the rows of a seeded store hold, value by value (``SeededValues``).
@Suite("SeededValues")
struct SeededValuesTests {
    /// The matrix bench's rows per entity.
    static let rows = 1_000

    /// Every value `attribute` of `entity` gets over ``rows`` rows.
    func values(of name: String, entity: String) throws -> [DatabaseValue] {
        let attribute = try #require(KitchenSinkModel.model[entity: entity]?.attribute(named: name))
        let values = SeededValues(seed: 7)
        return try (0..<Self.rows).map { row in
            try values.value(of: attribute, entity: entity, row: row, primaryKey: Int64(row + 1))
        }
    }

    /// A value's size in the store: text's UTF-8 bytes, a blob's bytes.
    static func byteCount(_ value: DatabaseValue) -> Int {
        switch value.storage {
        case .string(let text): text.utf8.count
        case .blob(let bytes): bytes.count
        case .null, .int64, .double: 0
        }
    }

    @Test(
        "at 1,000 rows every edge case is seeded, and each one larger than a page exactly once per attribute",
        arguments: [("name", 1), ("photo", 2), ("settings", 2)])
    func largeEdgeCasesAreSeededOnce(name: String, largeEdgeCases: Int) throws {
        let seeded = try values(of: name, entity: "Person")
        let attribute = try #require(KitchenSinkModel.model[entity: "Person"]?.attribute(named: name))
        let edges = SeededEdgeCases.values(for: attribute.type)
        #expect(edges.filter { Self.byteCount($0) > 4_096 }.count == largeEdgeCases)
        for edge in edges {
            #expect(seeded.contains(edge), "\(name) holds each of its edge cases")
        }
        #expect(seeded.filter { Self.byteCount($0) > 4_096 }.count == largeEdgeCases)
        // The small edge cases still come round on every round of even rows.
        for edge in edges where Self.byteCount(edge) <= 4_096 {
            #expect(seeded.filter { $0 == edge }.count > 1)
        }
    }

    @Test("1,000 rows of a text attribute weigh under 64 kB beyond one copy of each edge case")
    func ordinaryRowsStaySmall() throws {
        let seeded = try values(of: "name", entity: "Person")
        let total = seeded.map(Self.byteCount).reduce(0, +)
        let edges = SeededEdgeCases.strings.map(\.utf8.count).reduce(0, +)
        #expect(total - edges < 64_000)
    }
}
