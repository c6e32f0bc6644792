import Foundation
import StepwiseModel
import Testing

/// Derived attributes in compiled models: `NSDerivedAttributeDescription` with its archived
/// `NSDerivationExpression`, read back as the expression text a source model has.
@Suite("CompiledModel: derived attributes")
struct CompiledDerivationTests {
    typealias Value = BinaryPropertyList.Value

    /// `Shelf` with `name`, a to-many `books` to `Book(pages)`, and one derived attribute per
    /// entry of `derivations` (name → archived expression, built by the closure).
    static func archive(
        _ derivations: [(String, Int, (inout CompiledModelTests.ArchiveBuilder) -> Value)]
    ) -> Data {
        var archive = CompiledModelTests.ArchiveBuilder()
        let model = archive.reserve()
        let shelf = archive.reserve()
        let book = archive.reserve()
        let books = archive.reserve()
        let shelfOfBook = archive.reserve()
        func attribute(_ name: String, _ type: Int, entity: Int) -> Value {
            archive.object(
                "NSAttributeDescription",
                [
                    "NSPropertyName": archive.add(.string(name)), "NSAttributeType": .integer(Int64(type)),
                    "NSEntity": .uid(entity), "NSIsOptional": .bool(true),
                ])
        }
        var properties: [(String, Value)] = [("name", attribute("name", 700, entity: shelf)), ("books", .uid(books))]
        for (name, type, expression) in derivations {
            let derivation = expression(&archive)
            properties.append(
                (
                    name,
                    archive.object(
                        "NSDerivedAttributeDescription",
                        [
                            "NSPropertyName": archive.add(.string(name)), "NSAttributeType": .integer(Int64(type)),
                            "NSEntity": .uid(shelf), "NSIsOptional": .bool(true), "NSIsReadOnly": .bool(true),
                            "NSDerivationExpression": derivation, "NSFilteringPredicate": .uid(0),
                        ])
                ))
        }
        archive.fill(
            books, "NSRelationshipDescription",
            [
                "NSPropertyName": archive.add(.string("books")), "NSEntity": .uid(shelf),
                "NSDestinationEntity": .uid(book), "NSInverseRelationship": .uid(shelfOfBook),
                "NSMinCount": .integer(0), "NSMaxCount": .integer(0), "NSDeleteRule": .integer(1),
                "NSIsOptional": .bool(true),
            ])
        archive.fill(
            shelfOfBook, "NSRelationshipDescription",
            [
                "NSPropertyName": archive.add(.string("shelf")), "NSEntity": .uid(book),
                "NSDestinationEntity": .uid(shelf), "NSInverseRelationship": .uid(books),
                "NSMinCount": .integer(0), "NSMaxCount": .integer(1), "NSDeleteRule": .integer(1),
                "NSIsOptional": .bool(true),
            ])
        archive.fill(
            shelf, "NSEntityDescription",
            ["NSEntityName": archive.add(.string("Shelf")), "NSProperties": archive.dictionary(properties)])
        archive.fill(
            book, "NSEntityDescription",
            [
                "NSEntityName": archive.add(.string("Book")),
                "NSProperties": archive.dictionary([
                    ("pages", attribute("pages", 200, entity: book)), ("shelf", .uid(shelfOfBook)),
                ]),
            ])
        archive.fill(
            model, "NSManagedObjectModel",
            ["NSEntities": archive.dictionary([("Book", .uid(book)), ("Shelf", .uid(shelf))])])
        return archive.data(root: .uid(model))
    }

    /// An `NSKeyPathExpression`, archived as Photos' model caches have it.
    static func keyPath(_ path: String, in archive: inout CompiledModelTests.ArchiveBuilder) -> Value {
        let operand = archive.object("NSSelfExpression", ["NSExpressionType": .integer(1)])
        let specifier = archive.object(
            "NSKeyPathSpecifierExpression", ["NSExpressionType": .integer(10), "NSKeyPath": archive.add(.string(path))])
        return archive.object(
            "NSKeyPathExpression",
            [
                "NSExpressionType": .integer(3), "NSOperand": operand,
                "NSSelectorName": archive.add(.string("valueForKeyPath:")),
                "NSArguments": archive.array([specifier]),
            ])
    }

    /// An `NSFunctionExpression` of `selector` on key paths.
    static func function(_ selector: String, _ paths: [String], in archive: inout CompiledModelTests.ArchiveBuilder)
        -> Value
    {
        let arguments = paths.map { keyPath($0, in: &archive) }
        return archive.object(
            "NSFunctionExpression",
            [
                "NSExpressionType": .integer(4), "NSSelectorName": archive.add(.string(selector)),
                "NSArguments": archive.array(arguments),
            ])
    }

    @Test func eachArchivedShapeReadsAsItsSourceText() throws {
        let data = Self.archive([
            ("bookCount", 300, { Self.function("count:", ["books"], in: &$0) }),
            ("key", 700, { Self.function("canonical:", ["name"], in: &$0) }),
            ("pageTotal", 300, { Self.function("sum:", ["books.pages"], in: &$0) }),
            ("touched", 900, { Self.function("now", [], in: &$0) }),
            ("title", 700, { Self.keyPath("name", in: &$0) }),
        ])
        let model = try CompiledModel.read(archive: data, name: "Shelves", origin: "Shelves.mom")
        let shelf = try #require(model[entity: "Shelf"])
        let derivations = Dictionary(uniqueKeysWithValues: shelf.attributes.map { ($0.name, $0.derivationExpression) })
        #expect(derivations["bookCount"] == "count:(books)")
        #expect(derivations["key"] == "canonical:(name)")
        #expect(derivations["pageTotal"] == "sum:(books.pages)")
        #expect(derivations["touched"] == "now()")
        #expect(derivations["title"] == "name")
        #expect(derivations["name"] == .some(nil))
        #expect(
            shelf.attributes.first { $0.name == "pageTotal" }?.derivation?.kind
                == .aggregate(.sum, relationship: ["books"], attribute: "pages"))
        #expect(model.problems() == [])
    }

    /// An expression of a kind no derivation has (a constant) is read, named, and refused.
    @Test func anotherExpressionIsRefusedByValidation() throws {
        let data = Self.archive([
            ("fixed", 700, { $0.object("NSConstantValueExpression", ["NSExpressionType": .integer(0)]) })
        ])
        let model = try CompiledModel.read(archive: data, name: "Shelves", origin: "Shelves.mom")
        #expect(
            model.problems() == [
                .unsupportedDerivation(entity: "Shelf", attribute: "fixed", expression: "<NSConstantValueExpression>")
            ])
    }
}
