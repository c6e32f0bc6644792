import Foundation
import GRDB
import Stepwise
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// A history whose composite gains an element: the matrix seeds every leaf, compares each
/// carried leaf's values after the step, names the new one unchecked, and takes seeding
/// constraints on one element by its key path.
@Suite("UpgradeMatrix: composite attributes")
struct UpgradeMatrixCompositeTests {
    static let v1 = ObjectModel("Library") {
        Entity("Book") {
            Attribute("id", .integer64)
            Attribute.composite("author", elements: [Attribute("person", .string), Attribute("year", .integer32)])
        }
    }
    static let v2 = ObjectModel("Library 2") {
        Entity("Book") {
            Attribute("id", .integer64)
            Attribute.composite(
                "author",
                elements: [Attribute("person", .string), Attribute("year", .integer32), Attribute("place", .string)])
        }
    }

    /// How the step is mapped.
    enum Mapping: String, CaseIterable, Sendable {
        /// Inferred.
        case inferred
        /// A mapping file with `author` ← `$source.author`, as Xcode writes it.
        case wholeComposite
        /// A mapping file with each element by key path.
        case elementKeyPaths
    }

    static func matrix(_ mapping: Mapping) throws -> UpgradeMatrix {
        let attributes: String? =
            switch mapping {
            case .inferred: nil
            case .wholeComposite: #"{"author": "$source.author"}"#
            case .elementKeyPaths:
                #"{"author.person": "$source.author.person", "author.year": "$source.author.year"}"#
            }
        var mappings: [MappingDirectory.StepKey: [MappingModel]] = [:]
        if let attributes {
            let text = """
                {"source": "Library", "destination": "Library 2", "entityMappings": [
                  {"source": "Book", "destination": "Book", "attributes": \(attributes)}]}
                """
            mappings[MappingDirectory.StepKey("Library", "Library 2")] = [
                try MappingFile.decode(Data(text.utf8), source: v1, destination: v2)
            ]
        }
        return try UpgradeMatrix(history: VersionHistory([v1, v2]), mappings: mappings)
    }

    @Test(arguments: Mapping.allCases)
    func eachCarriedElementIsSeededAndCompared(_ mapping: Mapping) throws {
        let matrix = try Self.matrix(mapping)
        let pair = try #require(matrix.cases.first)
        let result = try matrix.check(pair, rows: 20)
        #expect(result.copiedEntities == ["Book"])
        // id, author.person and author.year, in each of the 20 rows.
        #expect(result.valuesCompared == 60)
        #expect(result.unchecked == ["Book.author.place"])
    }

    @Test func aSeedingConstraintNamesAnElementByKeyPath() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-matrix-composite")
        let url = directory.path("Library.sqlite")
        let seeding = SeedingConstraints(
            rows: RowCounts(default: 12), unique: ["Book.author.year"],
            values: ["Book.author.person": ["Ada", "Grace"]])
        try SeededStore.create(at: url, model: Self.v1, seeding: seeding)
        let book = try #require(try StoreLayout(model: Self.v1).entity(named: "Book"))
        let person = try #require(book.attribute(named: "author.person")?.column)
        let year = try #require(book.attribute(named: "author.year")?.column)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        let (people, years) = try queue.read { db in
            (
                try String.fetchSet(
                    db, sql: "SELECT DISTINCT \(person.quotedSQLIdentifier) FROM \(book.tableName.quotedSQLIdentifier)"),
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT COUNT(DISTINCT \(year.quotedSQLIdentifier)) FROM \(book.tableName.quotedSQLIdentifier)")
            )
        }
        #expect(people == ["Ada", "Grace"])
        #expect(years == 12)
        try matrixValidates(seeding)
    }

    func matrixValidates(_ seeding: SeedingConstraints) throws {
        try Self.matrix(.inferred).validate(seeding)
    }

    /// A list of whole composites has no text form: the constraint names the elements instead.
    @Test func aSeedingConstraintOnAWholeCompositeNamesItsElements() throws {
        let seeding = SeedingConstraints(values: ["Book.author": ["Ada"]])
        let error = #expect(throws: UpgradeMatrixFailure.self) { try seeding.validate(for: Self.v1) }
        #expect(error?.description.contains("Book.author.person") == true)
    }
}
