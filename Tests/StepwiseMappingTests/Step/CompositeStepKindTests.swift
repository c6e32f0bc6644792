import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// Every change a composite attribute can go through between two versions (issue 43), each run
/// by the inferred mapping, by the same mapping made explicit (set-based SQL) and row by row
/// under a policy: the values that have a place in the destination reach it, and what doesn't
/// is dropped and named, as for any attribute.
@Suite("Composite attributes through every kind of step")
struct CompositeStepKindTests {
    /// A change between the two versions of `Book`.
    enum Change: String, CaseIterable, Sendable {
        case compositeAdded, compositeRemoved, compositeRenamed, elementAdded, elementRemoved
        case compositeReplacesAttributes

        static let author = Attribute.composite(
            "author", elements: [Attribute("person", .string), Attribute("year", .integer32)])

        var source: ObjectModel {
            let others: [Attribute] =
                switch self {
                case .compositeAdded: []
                case .compositeReplacesAttributes: [Attribute("person", .string), Attribute("year", .integer32)]
                default: [Self.author]
                }
            return ObjectModel(
                "Library", entities: [Entity("Book", attributes: [Attribute("title", .string)] + others)])
        }

        var destination: ObjectModel {
            let others: [Attribute] =
                switch self {
                case .compositeRemoved: []
                case .compositeRenamed:
                    [
                        Attribute.composite(
                            "writer", elements: [Attribute("person", .string), Attribute("year", .integer32)],
                            renamingIdentifier: "author")
                    ]
                case .elementAdded:
                    [
                        Attribute.composite(
                            "author",
                            elements: [
                                Attribute("person", .string), Attribute("year", .integer32),
                                Attribute("place", .string),
                            ])
                    ]
                case .elementRemoved: [Attribute.composite("author", elements: [Attribute("person", .string)])]
                default: [Self.author]
                }
            return ObjectModel(
                "Library 2", entities: [Entity("Book", attributes: [Attribute("title", .string)] + others)])
        }

        /// The seeded row's values, by the source's flattened names.
        var row: [String: (any DatabaseValueConvertible)?] {
            switch self {
            case .compositeAdded: ["title": "Emma"]
            case .compositeReplacesAttributes: ["title": "Emma", "person": "Austen", "year": 1815]
            default: ["title": "Emma", "author.person": "Austen", "author.year": 1815]
            }
        }

        /// The destination's columns with the values the row must have there (a dropped
        /// value's column is gone).
        func expectedRow(_ path: Path) -> [String: DatabaseValue] {
            let kept: [String: DatabaseValue] = [
                "ZTITLE": "Emma".databaseValue, "ZPERSON": "Austen".databaseValue, "ZYEAR": 1815.databaseValue,
            ]
            switch self {
            case .compositeAdded: return ["ZTITLE": "Emma".databaseValue, "ZPERSON": .null, "ZYEAR": .null]
            case .compositeRemoved: return ["ZTITLE": "Emma".databaseValue]
            case .compositeRenamed: return kept
            case .elementAdded: return kept.merging(["ZPLACE": .null]) { $1 }
            case .elementRemoved: return kept.filter { $0.key != "ZYEAR" }
            case .compositeReplacesAttributes:
                // Inferred as Core Data infers it: no source property is named `author`, so the
                // composite starts empty and the separate attributes are dropped, named. An
                // explicit mapping moves them in by key path.
                return path == .inferred ? ["ZTITLE": "Emma".databaseValue, "ZPERSON": .null, "ZYEAR": .null] : kept
            }
        }

        /// The drops the step names: place and count. An explicit mapping's property mappings are
        /// the team's own decisions: its properties are not listed (`DroppedData.planned`).
        func expectedDrops(_ path: Path) -> [String] {
            guard path == .inferred else { return [] }
            switch self {
            case .compositeRemoved: return ["Book.author.person 1", "Book.author.year 1"]
            case .elementRemoved: return ["Book.author.year 1"]
            case .compositeReplacesAttributes: return ["Book.person 1", "Book.year 1"]
            case .compositeAdded, .compositeRenamed, .elementAdded: return []
            }
        }
    }

    /// How the step runs.
    enum Path: String, CaseIterable, Sendable {
        /// The inferred mapping.
        case inferred
        /// The inferred mapping made explicit, with key paths into the composite where the
        /// change needs them: set-based SQL.
        case explicit
        /// The explicit mapping under a policy that changes nothing: row by row.
        case rowByRow
    }

    /// Overrides nothing: its only effect is to make the mapping run row by row.
    final class PassivePolicy: EntityMigrationPolicy {}

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-composite-kinds")
    }

    @Test(arguments: Change.allCases, Path.allCases)
    func theValuesReachTheDestinationAndDropsAreNamed(_ change: Change, _ path: Path) throws {
        let source = directory.path("Library.sqlite")
        try StepFixtures.store(at: source, model: change.source) { objects in
            _ = try objects.insert("Book", change.row)
        }
        var mapping = try MappingInference.inferMapping(from: change.source, to: change.destination)
        var policies = PolicyRegistry()
        if path != .inferred {
            mapping.isInferred = false
            if change == .compositeReplacesAttributes {
                // Each element by key path from the attribute it replaces.
                mapping.entityMappings[0].attributeMappings += ["person", "year"].map {
                    PropertyMapping("author.\($0)", .keyPath(root: .source, path: [$0]))
                }
            }
        }
        if path == .rowByRow {
            policies.register("Passive") { PassivePolicy() }
            mapping.entityMappings[0].policyName = "Passive"
        }
        let destination = directory.path("Library 2.sqlite")
        let report = try MigrationStep(
            from: change.source, to: change.destination, mappingModels: [mapping], policies: policies
        ).run(source: source, destination: destination)

        let layout = try StoreLayout(model: change.destination)
        let queue = try DatabaseQueue(path: destination.path)
        defer { try? queue.close() }
        let (row, schema, metadata) = try queue.read { db in
            (
                try Row.fetchOne(db, sql: #"SELECT * FROM "ZBOOK""#),
                try SQLiteSchema.read(from: db), try StoreMetadata.read(from: db, path: destination.path)
            )
        }
        let values = Dictionary(
            uniqueKeysWithValues: (row.map(Array.init) ?? []).filter { !$0.0.hasPrefix("Z_") })
        #expect(values == change.expectedRow(path))
        #expect(
            report.drops.map { "\($0.place) \($0.count.map(String.init) ?? "?")" }.sorted()
                == change.expectedDrops(path))
        let expected = try SQLiteSchema(expectedFor: layout)
        #expect(schema.differences(from: expected, ignoringTables: StoreLayout.optionalTableNames).isEmpty)
        #expect(metadata.versionHashes == change.destination.entityVersionHashes)
    }
}
