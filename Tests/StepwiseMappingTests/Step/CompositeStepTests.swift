import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// A store with a composite attribute, upgraded by an inferred and by an explicit step: an
/// element kept keeps its values, a renamed and widened one follows its column, a new one is
/// NULL, a dropped one is gone, and the metadata carries the destination's composite hashes.
@Suite("Steps over composite attributes")
struct CompositeStepTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-composite-step")
    }

    static let v1 = ObjectModel("Library") {
        Entity("Book") {
            Attribute("id", .integer64)
            Attribute.composite(
                "author",
                elements: [
                    Attribute("person", .string), Attribute("year", .integer32), Attribute("id", .integer64),
                    Attribute("gone", .string),
                ])
        }
    }
    static let v2 = ObjectModel("Library 2") {
        Entity("Book") {
            Attribute("id", .integer64)
            Attribute.composite(
                "author",
                elements: [
                    Attribute("person", .string), Attribute("published", .integer64, renamingIdentifier: "year"),
                    Attribute("id", .integer64), Attribute("place", .string),
                ])
        }
    }

    /// How the step runs.
    enum Path: String, CaseIterable, Sendable {
        /// The inferred mapping: the table is altered in place.
        case inferred
        /// The same mapping made explicit, an element read as `$source.author.year`: SQL.
        case explicit
        /// The explicit mapping with a policy: row by row, in Swift.
        case rowByRow
    }

    /// Overrides nothing: its only effect is to make the mapping run row by row.
    final class PassivePolicy: EntityMigrationPolicy {}

    @Test(arguments: Path.allCases)
    func anInferredOrExplicitStepCarriesEachElement(_ path: Path) throws {
        do {
            let source = directory.path("Library.sqlite")
            try StepFixtures.store(at: source, model: Self.v1) { objects in
                _ = try objects.insert(
                    "Book",
                    ["id": 7, "author.person": "Ada", "author.year": 1843, "author.id": 70, "author.gone": "x"])
                _ = try objects.insert("Book", ["id": 8])
            }
            var mapping = try MappingInference.inferMapping(from: Self.v1, to: Self.v2)
            var policies = PolicyRegistry()
            if path != .inferred {
                mapping.isInferred = false
                // As a mapping file spells it: the composite, then the element.
                let published = try #require(
                    mapping.entityMappings[0].attributeMappings.firstIndex { $0.name == "author.published" })
                mapping.entityMappings[0].attributeMappings[published].valueExpression = .keyPath(
                    root: .source, path: ["author", "year"])
            }
            if path == .rowByRow {
                policies.register("Passive") { PassivePolicy() }
                mapping.entityMappings[0].policyName = "Passive"
            }
            let destination = directory.path("Library 2 \(path.rawValue).sqlite")
            let report = try MigrationStep(from: Self.v1, to: Self.v2, mappingModels: [mapping], policies: policies)
                .run(source: source, destination: destination)
            #expect((report.strategy == .inPlace) == (path == .inferred))

            let queue = try DatabaseQueue(path: destination.path)
            defer { try? queue.close() }
            let (rows, schema, metadata) = try queue.read { db in
                (
                    try Row.fetchAll(
                        db,
                        sql: #"SELECT "ZID", "ZPERSON", "ZPUBLISHED", "ZID1", "ZPLACE" FROM "ZBOOK" ORDER BY "Z_PK""#
                    ).map { "\($0)" },
                    try SQLiteSchema.read(from: db), try StoreMetadata.read(from: db, path: destination.path)
                )
            }
            #expect(
                rows == [
                    #"[ZID:7 ZPERSON:"Ada" ZPUBLISHED:1843 ZID1:70 ZPLACE:NULL]"#,
                    "[ZID:8 ZPERSON:NULL ZPUBLISHED:NULL ZID1:NULL ZPLACE:NULL]",
                ])
            let expected = try SQLiteSchema(expectedFor: StoreLayout(model: Self.v2))
            #expect(schema.differences(from: expected, ignoringTables: StoreLayout.optionalTableNames).isEmpty)
            #expect(schema.table(named: "ZBOOK")?.columns.contains { $0.name == "ZGONE" } == false)
            #expect(metadata.versionHashes == Self.v2.entityVersionHashes)
        }
    }
}
