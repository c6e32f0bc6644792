import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// A composite read and written as a whole, its elements by name, as Core Data's key-value
/// coding hands it over (`valueForKey:` gives an `NSDictionary`), and element by element by key
/// path: in mapping files, Xcode mapping models, expressions and policies, in SQL and row by row.
@Suite("Whole values of composite attributes")
struct CompositeWholeValueTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-composite-whole")
    }

    static let born = Attribute.composite(
        "born", elements: [Attribute("year", .integer32), Attribute("place", .string)])
    static let v1 = ObjectModel("Library") {
        Entity("Book") {
            Attribute("id", .integer64)
            Attribute.composite(
                "author", elements: [Attribute("person", .string), Attribute("year", .integer32), born])
        }
    }
    /// `author` gains `place`, and `year` becomes `published`.
    static let v2 = ObjectModel("Library 2") {
        Entity("Book") {
            Attribute("id", .integer64)
            Attribute.composite(
                "author",
                elements: [
                    Attribute("person", .string), Attribute("published", .integer64, renamingIdentifier: "year"),
                    Attribute("place", .string), born,
                ])
        }
    }

    /// Ada's row, then a row whose composite is nil.
    func sourceStore() throws -> URL {
        let source = directory.path("Library-\(UUID().uuidString).sqlite")
        try StepFixtures.store(at: source, model: Self.v1) { objects in
            _ = try objects.insert(
                "Book",
                [
                    "id": 7, "author.person": "Ada", "author.year": 1843, "author.born.year": 1815,
                    "author.born.place": "London",
                ])
            _ = try objects.insert("Book", ["id": 8])
        }
        return source
    }

    /// The destination's Book rows, leaves in declared order, read with SQL.
    func rows(_ url: URL) throws -> [String] {
        let book = try #require(try StoreLayout(model: Self.v2).entity(named: "Book"))
        let names = [
            "id", "author.person", "author.published", "author.place", "author.born.year", "author.born.place",
        ]
        let columns = try names.map { try #require(book.attribute(named: $0)?.column).quotedSQLIdentifier }
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT \(columns.joined(separator: ", ")) FROM \(book.tableName.quotedSQLIdentifier) ORDER BY \"Z_PK\""
            ).map { row in names.indices.map { "\(names[$0])=\(row[$0] as DatabaseValue)" }.joined(separator: " ") }
        }
    }

    static let expected = [
        #"id=7 author.person="Ada" author.published=1843 author.place=NULL author.born.year=1815 author.born.place="London""#,
        "id=8 author.person=NULL author.published=NULL author.place=NULL author.born.year=NULL author.born.place=NULL",
    ]

    func run(_ mapping: MappingModel, policies: PolicyRegistry = PolicyRegistry()) throws -> (StepReport, [String]) {
        let destination = directory.path("Library 2-\(UUID().uuidString).sqlite")
        let report = try MigrationStep(from: Self.v1, to: Self.v2, mappingModels: [mapping], policies: policies)
            .run(source: try sourceStore(), destination: destination)
        return (report, try rows(destination))
    }

    static func mappingFile(_ attributes: [String: String], policy: String? = nil) -> String {
        let policyText = policy.map { #""policy": "\#($0)", "# } ?? ""
        let pairs = attributes.sorted { $0.key < $1.key }.map { #""\#($0.key)": \#(quoted($0.value))"# }
        return """
            {"source": "Library", "destination": "Library 2", "entityMappings": [
              {"source": "Book", "destination": "Book", \(policyText)"attributes": {\(pairs.joined(separator: ", "))}}]}
            """
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func load(_ text: String) throws -> MappingModel {
        try MappingFile.decode(Data(text.utf8), source: v1, destination: v2)
    }

    // MARK: - The value

    @Test func aCompositeValueDescribesItsElementsInNameOrder() {
        let value = MappingValue.composite(["person": "Ada", "born": .composite(["year": 1815]), "place": .null])
        #expect(value.literalDescription == #"[born: [year: 1815], person: "Ada", place: nil]"#)
    }

    // MARK: - Mapping files and Xcode mapping models

    /// What Xcode writes for a composite, `author` ← `$source.author`, runs as one key path per
    /// destination element: by name, else by the name it was renamed from, else nil.
    @Test func aWholeCompositeKeyPathBecomesOneMappingPerElement() throws {
        let mapping = try Self.load(Self.mappingFile(["author": "$source.author"]))
        let book = try #require(mapping.entityMappings.first)
        let values = Dictionary(uniqueKeysWithValues: book.attributeMappings.map { ($0.name, $0.valueExpression) })
        #expect(
            values == [
                "id": .source("id"),
                "author.person": .source("author.person"),
                "author.published": .source("author.year"),
                "author.place": .constant(.null),
                "author.born.year": .source("author.born.year"),
                "author.born.place": .source("author.born.place"),
            ])
    }

    /// How an explicit mapping of the composite runs.
    enum Path: String, CaseIterable, Sendable {
        /// `author` ← `$source.author` in a mapping file: SQL.
        case wholeKeyPath
        /// The same with a policy: row by row, each element by its key path.
        case wholeKeyPathRowByRow
        /// Elements mapped one by one by key path (`author.person` ← `$source.author.person`).
        case elementKeyPaths
        /// `author` ← `FUNCTION($entityPolicy, "author:", $source.author)`, which returns the
        /// whole value: row by row, split into the leaves by element name.
        case policyFunction
    }

    /// Returns the source author with `year` renamed `published`: a whole value in, a whole
    /// value out.
    final class AuthorPolicy: EntityMigrationPolicy {
        override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
            -> MappingValue
        {
            guard selector == "author:" else {
                return try super.function(named: selector, arguments: arguments, manager: manager)
            }
            guard case .composite(var elements) = arguments.first else { return arguments.first ?? .null }
            elements["published"] = elements.removeValue(forKey: "year")
            return .composite(elements)
        }
    }

    @Test(arguments: Path.allCases)
    func anExplicitMappingCarriesTheCompositeWhole(_ path: Path) throws {
        var policies = PolicyRegistry()
        policies.register("Author") { AuthorPolicy() }
        let text: String =
            switch path {
            case .wholeKeyPath: Self.mappingFile(["author": "$source.author"])
            case .wholeKeyPathRowByRow: Self.mappingFile(["author": "$source.author"], policy: "Author")
            case .elementKeyPaths:
                Self.mappingFile([
                    "author.person": "$source.author.person", "author.published": "$source.author.year",
                    "author.born": "$source.author.born",
                ])
            case .policyFunction:
                Self.mappingFile(["author": #"FUNCTION($entityPolicy, "author:", $source.author)"#], policy: "Author")
            }
        let (report, rows) = try run(try Self.load(text), policies: policies)
        #expect(rows == Self.expected)
        #expect(report.entityMappings.first?.setBased == (path == .wholeKeyPath || path == .elementKeyPaths))
    }

    @Test func anXcodeMappingModelMapsACompositeByItsName() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <database>
                <object type="XDDEVMAPPINGMODEL" id="z1">
                    <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING" idrefs="z2"></relationship>
                </object>
                <object type="XDDEVENTITYMAPPING" id="z2">
                    <attribute name="sourcename" type="string">Book</attribute>
                    <attribute name="destinationname" type="string">Book</attribute>
                    <attribute name="mappingnumber" type="int16">1</attribute>
                    <attribute name="autogenerateexpression" type="bool">1</attribute>
                    <relationship name="attributemappings" type="0/0" destination="XDDEVATTRIBUTEMAPPING" idrefs="z3 z4"></relationship>
                </object>
                <object type="XDDEVATTRIBUTEMAPPING" id="z3">
                    <attribute name="name" type="string">id</attribute>
                </object>
                <object type="XDDEVATTRIBUTEMAPPING" id="z4">
                    <attribute name="name" type="string">author</attribute>
                    <attribute name="sourcekeypath" type="string">author</attribute>
                </object>
            </database>
            """
        let document = try XcodeMappingDocument(Data(xml.utf8), path: "Library.xcmappingmodel")
        let mapping = try XcodeMappingModel.bind(document, history: VersionHistory([Self.v1, Self.v2]))
        #expect(
            mapping.entityMappings.first?.attributeMappings.map(\.name).sorted() == [
                "author.born.place", "author.born.year", "author.person", "author.place", "author.published", "id",
            ])
        #expect(try run(mapping).1 == Self.expected)
    }

    /// A name the destination composite lacks, or a source key path through a composite to an
    /// element it lacks, is refused when the file is read, naming the key path.
    @Test(arguments: [
        (["author.nickname": "$source.author.person"], "author.nickname"),
        (["author.person": "$source.author.nickname"], "author.nickname"),
        (["author.born": "$source.author.born.era"], "author.born.era"),
    ])
    func anUnknownElementIsRefusedWhenTheMappingIsRead(_ attributes: [String: String], property: String) throws {
        let error = #expect(throws: MappingError.self) { try Self.load(Self.mappingFile(attributes)) }
        guard case .unknownProperty(let entity, let named, _) = error?.kind else {
            Issue.record("expected unknownProperty, got \(String(describing: error))")
            return
        }
        #expect(entity == "Book" && named == property)
    }

    // MARK: - Values a policy returns

    /// Returns what it was made with, for every row that has an author.
    final class FixedPolicy: EntityMigrationPolicy {
        var value: MappingValue = .null

        override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
            -> MappingValue
        {
            arguments.first == .null ? .null : value
        }
    }

    /// A returned value the destination composite can't hold is a typed error naming the entity,
    /// the composite and the element; nothing is written.
    @Test(arguments: [
        (MappingValue.composite(["person": "Ada", "nickname": "A."]), "nickname"),
        (MappingValue.composite(["born": .composite(["era": "AD"])]), "born.era"),
        (MappingValue.string("Ada"), nil),
        (MappingValue.composite(["born": "London"]), nil),
    ])
    func aReturnedValueThatDoesNotFitIsATypedError(_ value: MappingValue, unknownElement: String?) throws {
        var policies = PolicyRegistry()
        policies.register("Fixed") {
            let policy = FixedPolicy()
            policy.value = value
            return policy
        }
        let mapping = try Self.load(
            Self.mappingFile(["author": #"FUNCTION($entityPolicy, "fixed:", $source.author)"#], policy: "Fixed"))
        let error = #expect(throws: MappingError.self) { try run(mapping, policies: policies) }
        #expect(error?.entity == "Book" && error?.sourcePrimaryKey == 1)
        switch error?.kind {
        case .unknownCompositeElement(let entity, let attribute, let element, let version):
            #expect(unknownElement == element && entity == "Book" && attribute == "author" && version == "Library 2")
        case .notACompositeValue(let entity, let attribute, let given):
            #expect(unknownElement == nil && entity == "Book" && attribute.hasPrefix("author") && !given.isEmpty)
        default:
            Issue.record("unexpected \(String(describing: error))")
        }
    }

    // MARK: - Policies reading and writing by key-value coding

    /// Reads the source's composite whole and one element by key path, and writes the
    /// destination's whole, as Core Data's `valueForKey:` and `setValue:forKey:` do.
    final class KeyValuePolicy: EntityMigrationPolicy {
        override func createDestinationInstances(
            forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
        ) throws {
            let created = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)
            let author = try manager.source.value(forKeyPath: "author", of: source)
            let born = try manager.source.value(forKeyPath: "author.born.year", of: source)
            guard case .composite(var elements) = author else {
                try manager.destination.setValue(author, forKeyPath: "author", of: created)
                return
            }
            #expect(born == .integer(1815))
            elements["published"] = elements.removeValue(forKey: "year")
            try manager.destination.setValue(.composite(elements), forKeyPath: "author", of: created)
            // One element by key path, read back from the destination.
            let written = try manager.destination.value(
                forKeyPath: "author.born.place", of: try manager.destination.object(created))
            #expect(written == "London")
        }
    }

    @Test func aPolicyReadsAndWritesTheCompositeWholeAndByKeyPath() throws {
        var policies = PolicyRegistry()
        policies.register("KeyValue") { KeyValuePolicy() }
        let mapping = try Self.load(Self.mappingFile(["author": "nil"], policy: "KeyValue"))
        #expect(try run(mapping, policies: policies).1 == Self.expected)
    }
}
