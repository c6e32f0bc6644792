import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import Testing

/// A composite migrates as its leaves: an element kept, renamed, added or retyped is inferred
/// like an attribute, and explicit mappings reach an element by its key path.
@Suite("Inference of composite attributes")
struct CompositeInferenceTests {
    static let v1 = ObjectModel("Library") {
        Entity("Book") {
            Attribute("title", .string)
            Attribute.composite(
                "author",
                elements: [Attribute("person", .string), Attribute("year", .integer32), Attribute("gone", .string)])
        }
    }
    static let v2 = ObjectModel("Library 2") {
        Entity("Book") {
            Attribute("title", .string)
            Attribute.composite(
                "author",
                elements: [
                    Attribute("person", .string), Attribute("published", .integer64, renamingIdentifier: "year"),
                    Attribute("place", .string),
                ])
        }
    }

    @Test func eachElementIsMappedLikeAnAttribute() throws {
        let mapping = try MappingInference.inferMapping(from: Self.v1, to: Self.v2)
        let book = try #require(mapping.entityMapping(named: "BookToBook"))
        #expect(book.kind == .transform)
        let values = Dictionary(uniqueKeysWithValues: book.attributeMappings.map { ($0.name, $0.valueExpression) })
        #expect(
            values == [
                "title": .keyPath(root: .source, path: ["title"]),
                "author.person": .keyPath(root: .source, path: ["author.person"]),
                "author.published": .keyPath(root: .source, path: ["author.year"]),
            ])
        // Integer 32 → Integer 64 is a widening, recorded like any attribute's.
        #expect(book.propertyMapping(named: "author.published")?.userInfo[TypeWidening.userInfoKey] != nil)
    }

    @Test func anElementChangedBeyondAWideningIsAProblemNamingItsKeyPath() throws {
        var v2 = Self.v2
        v2.entities[0].attributes[1].elements[0].type = .date
        let error = #expect(throws: MappingError.self) { try MappingInference.inferMapping(from: Self.v1, to: v2) }
        #expect(error?.description.contains("author.person") == true)
    }

    /// `$source.author.person`, as an explicit mapping writes it, is the leaf's column.
    @Test func aKeyPathThroughACompositeResolvesToTheLeafsColumn() throws {
        let layout = try StoreLayout(model: Self.v1)
        var planner = try SourceJoinPlanner(layout: layout, sourceEntity: "Book")
        #expect(try planner.resolve(["author", "person"])?.column == "ZPERSON")
        #expect(try planner.resolve(["author.year"])?.column == "ZYEAR")
        #expect(planner.joins.isEmpty)
    }
}
