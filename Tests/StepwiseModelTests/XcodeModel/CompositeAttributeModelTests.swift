import Crypto
import Foundation
import StepwiseModel
import StepwiseTesting
import Testing

/// Composite attributes in the model layer: read from source and compiled models, written back,
/// validated, hashed, flattened, and refused where models enter until their hash is confirmed.
@Suite("Composite attributes (model)")
struct CompositeAttributeModelTests {
    typealias Value = BinaryPropertyList.Value

    /// The issue's SwiftData struct `Author { person, place, year, id }` on a `Book` that has an
    /// `id` of its own.
    static let library = ObjectModel("Library 2") {
        Entity("Book") {
            Attribute("id", .uuid)
            Attribute("title", .string)
            Attribute.composite(
                "author",
                elements: [
                    Attribute("person", .string), Attribute("place", .string), Attribute("year", .integer64),
                    Attribute("id", .uuid),
                ], compositeName: "Author")
        }
    }

    static let sourceXML = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Book" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="author" optional="YES" attributeType="Composite" composite="Author"/>
            </entity>
            <composite name="Author">
                <attribute name="person" optional="YES" attributeType="String"/>
                <attribute name="born" attributeType="Composite" composite="Birth"/>
            </composite>
            <compositeAttribute name="Birth">
                <attribute name="year" optional="YES" attributeType="Integer 64" defaultValueString="0"/>
                <attribute name="city" optional="YES" attributeType="String" elementID="town"/>
            </compositeAttribute>
        </model>
        """

    // MARK: - Reading

    @Test func aSourceCompositeReadsItsElementsFromTheModelLevelDefinitionItNames() throws {
        let model = try XcodeModelReader.parse(Data(Self.sourceXML.utf8), versionName: "Library")
        let author = try #require(model[entity: "Book"]?.attribute(named: "author"))
        #expect(author.type == .composite)
        #expect(author.compositeName == "Author")
        #expect(author.elements.map(\.name) == ["person", "born"])
        let born = author.elements[1]
        #expect(born.type == .composite)
        #expect(born.compositeName == "Birth")
        #expect(born.isOptional == false)
        #expect(born.elements.map(\.name) == ["year", "city"])
        #expect(born.elements[0].type == .integer64)
        #expect(born.elements[0].defaultValue == "0")
        #expect(born.elements[1].renamingIdentifier == "town")
        #expect(model.problems() == [])
    }

    @Test(
        arguments: [
            (#"composite="Nowhere""#, "'Nowhere'"),
            ("", "missing"),
        ])
    func aCompositeWithoutADefinitionIsRefusedByName(_ reference: String, _ shown: String) throws {
        let xml = Self.sourceXML.replacingOccurrences(of: #"composite="Author""#, with: reference)
        let error = #expect(throws: ModelError.self) {
            try XcodeModelReader.parse(Data(xml.utf8), versionName: "Library", path: "Library.xcdatamodel/contents")
        }
        #expect(
            error?.description
                == "Library.xcdatamodel/contents: attribute 'Book.author' has \(shown) for 'composite'. Fix the model file in Xcode."
        )
    }

    @Test func aDefinitionThatContainsItselfIsRefused() throws {
        let xml = Self.sourceXML.replacingOccurrences(of: #"composite="Birth""#, with: #"composite="Author""#)
        let error = #expect(throws: ModelError.self) {
            try XcodeModelReader.parse(Data(xml.utf8), versionName: "Library")
        }
        #expect(
            error?.kind
                == .invalidValue(element: "attribute 'Book.author.born'", attribute: "composite", value: "Author"))
    }

    @Test func aWrittenCompositeReadsBackEqual() throws {
        let contents = XcodeModelWriter.contents(of: Self.library)
        #expect(
            contents.contains(
                #"<attribute name="author" optional="YES" attributeType="Composite" composite="Author" syncable="YES"/>"#
            ))
        #expect(contents.contains(#"    <composite name="Author">"#))
        #expect(try XcodeModelReader.parse(Data(contents.utf8), versionName: "Library 2") == Self.library)
    }

    /// `NSCompositeAttributeDescription` archives its elements under `NSCompositeElements`, an
    /// array of attribute descriptions; Composite is attribute type 2100.
    @Test func aCompiledCompositeReadsItsArchivedElements() throws {
        var archive = CompiledModelTests.ArchiveBuilder()
        let entity = archive.reserve()
        func attribute(_ name: String, _ type: Int64, _ extra: [String: Value] = [:]) -> Value {
            archive.object(
                type == 2100 ? "NSCompositeAttributeDescription" : "NSAttributeDescription",
                ["NSPropertyName": archive.add(.string(name)), "NSAttributeType": .integer(type)].merging(extra) {
                    $1
                })
        }
        let zip = attribute("zip", 200)
        let place = attribute("place", 2100, ["NSCompositeElements": archive.array([zip])])
        let street = attribute("street", 700, ["NSIsOptional": .bool(true)])
        let address = attribute(
            "address", 2100, ["NSCompositeElements": archive.array([street, place]), "NSIsOptional": .bool(true)])
        archive.fill(
            entity, "NSEntityDescription",
            [
                "NSEntityName": archive.add(.string("Home")),
                "NSProperties": archive.dictionary([("address", address)]),
            ])
        let root = archive.object(
            "NSManagedObjectModel", ["NSEntities": archive.dictionary([("Home", .uid(entity))])])
        let model = try CompiledModel.read(archive: archive.data(root: root), name: "Homes", origin: "Homes.mom")
        let read = try #require(model[entity: "Home"]?.attribute(named: "address"))
        #expect(
            read
                == Attribute.composite(
                    "address",
                    elements: [
                        Attribute("street", .string),
                        Attribute.composite(
                            "place", elements: [Attribute("zip", .integer32, isOptional: false)], isOptional: false),
                    ]))
    }

    // MARK: - Validation

    @Test func elementsCoreDataRefusesAreProblems() {
        let model = ObjectModel("Bad") {
            Entity("Home") {
                Attribute.composite(
                    "address",
                    elements: [
                        Attribute("street", .string), Attribute("street", .string), Attribute("link", .objectID),
                        Attribute.composite("photo", elements: [Attribute("bytes", .binary).externalStorage()]),
                    ])
            }
        }
        #expect(
            model.problems().map(\.description) == [
                "composite element 'Home.address.street' is refused by Core Data: its name is empty or used twice in the composite; change the element",
                "composite element 'Home.address.link' is refused by Core Data: a composite can't hold an element of type ObjectID; change the element",
                "composite element 'Home.address.photo.bytes' is refused by Core Data: a composite's Binary element can't allow external storage; change the element",
            ])
    }

    // MARK: - Hashing

    /// `_versionHash:inStyle:` of decompiled Core Data: the SHA-256 of the sorted, non-transient
    /// leaves' attribute hashes; the composite's own name and flags take no part.
    @Test func aCompositeHashesItsSortedLeavesOnly() throws {
        let author = try #require(Self.library[entity: "Book"]?.attribute(named: "author"))
        var digest = SHA256()
        for leaf in [
            "id": Attribute("id", .uuid), "person": Attribute("person", .string), "place": Attribute("place", .string),
            "year": Attribute("year", .integer64),
        ].sorted(by: { $0.key < $1.key }) {
            digest.update(data: VersionHasher.attributeHash(leaf.value))
        }
        let expected = Data(digest.finalize())
        #expect(VersionHasher.attributeHash(author) == expected)

        var renamed = author
        renamed.name = "writer"
        renamed.isOptional = false
        renamed.elements.reverse()
        renamed.elements.append(Attribute("cache", .string, isTransient: true))
        #expect(VersionHasher.attributeHash(renamed) == expected)

        var nested = author
        nested.elements = [
            Attribute.composite("who", elements: [Attribute("person", .string), Attribute("id", .uuid)]),
            Attribute("year", .integer64), Attribute("place", .string),
        ]
        #expect(VersionHasher.attributeHash(nested) == expected)

        var changed = author
        changed.elements[2].type = .integer32
        #expect(VersionHasher.attributeHash(changed) != expected)
    }

    // MARK: - Flattening

    @Test func flatteningNamesEachLeafByItsKeyPath() throws {
        let model = try XcodeModelReader.parse(Data(Self.sourceXML.utf8), versionName: "Library")
        let book = try #require(model.flatteningComposites()[entity: "Book"])
        #expect(book.attributes.map(\.name) == ["title", "author.person", "author.born.year", "author.born.city"])
        #expect(book.attributes.map(\.storageName) == ["title", "person", "year", "city"])
        // `born` is required, but its composite is optional: every leaf may be NULL.
        #expect(book.attributes.map(\.isOptional) == [true, true, true, true])
        #expect(book.attributes.map(\.renamingIdentifier) == [nil, nil, nil, "author.born.town"])
        #expect(model.flatteningComposites().hasCompositeAttributes == false)
    }

    // MARK: - Reading bundles

    /// A bundle with a composite reads (issue 43): the hash rule is confirmed by Apple's own
    /// hashes (`SwiftDataCompositeHashTests`), so nothing is refused any longer.
    @Test func aBundleWithACompositeReadsWithItsElements() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-composite")
        let bundle = directory.path("Library.xcdatamodeld")
        let first = ObjectModel("Library") { Entity("Book") { Attribute("title", .string) } }
        try XcodeModelWriter.writeBundle([first, Self.library], current: "Library 2", to: bundle)
        let read = try ModelBundle(contentsOf: bundle)
        let book = try #require(read.current[entity: "Book"])
        #expect(book.attribute(named: "author")?.elements.map(\.name) == ["person", "place", "year", "id"])
        #expect(read.current.entityVersionHashes == Self.library.entityVersionHashes)
    }
}
