import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// A Double stored in a String attribute must be the same text, one that reads back as the
/// same number, whichever path stores it: the inferred widening, or an explicit mapping run
/// set-based or row by row. The matrix found three spellings of 1/3, one of them (the column's
/// own 15-digit conversion on the set-based explicit path) losing the last digits; SQLite's
/// 17-digit printf, tried next, loses the last digit of some large and tiny numbers.
@Suite("Double → String text on every path")
struct DoubleToTextTests {
    static let v1 = ObjectModel("Readings") {
        Entity("Reading") {
            Attribute("serial", .integer64)
            Attribute("value", .double)
        }
    }
    static let v2 = ObjectModel("Readings 2") {
        Entity("Reading") {
            Attribute("serial", .integer64)
            Attribute("value", .string)
        }
    }

    static let values: [Double?] = [
        1.0 / 3, 0.1, 0.1 + 0.2, 1.0, 1e-7, 1e20, 123_456_789_012_345_680, .leastNonzeroMagnitude,
        .greatestFiniteMagnitude,
        -2.5, .infinity, -.infinity, nil,
    ]

    enum Path: String, CaseIterable, Sendable {
        case inferredWidening, explicitSetBased, explicitRowByRow
    }

    final class Passive: EntityMigrationPolicy {}

    /// The texts of `values`, in order, as `path` stores them.
    static func texts(_ path: Path) throws -> [String?] {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.sqlite")
        try StepFixtures.store(at: source, model: v1) { objects in
            for (serial, value) in values.enumerated() {
                _ = try objects.insert("Reading", ["serial": serial, "value": value])
            }
        }
        let policy = path == .explicitRowByRow ? #", "policy": "Passive""# : ""
        let explicit = """
            { "source": "Readings", "destination": "Readings 2", "entityMappings": [
                { "source": "Reading", "destination": "Reading"\(policy),
                  "attributes": { "serial": "$source.serial", "value": "$source.value" } }
            ] }
            """
        var policies = PolicyRegistry()
        policies.register("Passive") { Passive() }
        let models = path == .inferredWidening ? [] : try StepFixtures.mappingModels([explicit], from: v1, to: v2)
        let destination = directory.path("destination.sqlite")
        let report = try MigrationStep(from: v1, to: v2, mappingModels: models, policies: policies)
            .run(source: source, destination: destination)
        #expect(report.entityMappings.map(\.setBased) == [path != .explicitRowByRow])
        let queue = try DatabaseQueue(path: destination.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(
                db, sql: #"SELECT "ZVALUE", typeof("ZVALUE") AS "type" FROM "ZREADING" ORDER BY "ZSERIAL""#
            )
            .map { row in
                let type: String = row["type"]
                #expect(type == "text" || type == "null", "stored as \(type)")
                return row["ZVALUE"]
            }
        }
    }

    @Test(arguments: Path.allCases)
    func everyPathWritesTheSameTextThatReadsBackAsTheSameNumber(path: Path) throws {
        let texts = try Self.texts(path)
        #expect(texts.count == Self.values.count)
        #expect(texts == (try Self.texts(.inferredWidening)))
        for (value, text) in zip(Self.values, texts) {
            guard let value else {
                #expect(text == nil)
                continue
            }
            let text = try #require(text, "\(value)")
            #expect(Double(text) == value, "\(value) is written \(text)")
        }
        // Swift's shortest exact spelling: SQLite's CAST keeps 15 digits (0.333333333333333),
        // and its printf('%!.17g') misses the last digit of the largest Double.
        #expect(texts == Self.values.map { $0?.description })
        #expect(texts.prefix(6) == ["0.3333333333333333", "0.1", "0.30000000000000004", "1.0", "1e-07", "1e+20"])
        #expect(texts[8] == "1.7976931348623157e+308")
    }
}
