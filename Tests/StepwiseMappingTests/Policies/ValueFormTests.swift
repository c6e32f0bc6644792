import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// What a policy may return, or write itself, for each attribute type: a value of the wrong
/// form is a typed error naming the entity mapping, the attribute, the form and the row; an
/// unambiguous one is converted; a Transformable's object is archived with its transformer.
@Suite("Value forms")
struct ValueFormTests {
    enum Forms {
        static let v1 = ObjectModel("Forms") {
            Entity("Item") { Attribute("title", .string).required() }
        }

        static let v2 = ObjectModel("Forms 2") {
            Entity("Item") {
                Attribute("title", .string)
                Attribute("when", .date)
                Attribute("count", .integer32)
                Attribute("ratio", .double)
                Attribute("link", .uri)
                Attribute("key", .uuid)
                Attribute("blob", .binary)
                Attribute("tags", .transformable).transformer("NSSecureUnarchiveFromData")
                Attribute("color", .transformable).transformer("MyApp.ColorTransformer")
            }
        }

        /// `attribute` comes from the policy's `valueFor:`; the title is copied unless it is `attribute`.
        static func mapping(_ attribute: String, policy: String = "Returning") -> String {
            var attributes = [#""title": "$source.title""#]
            if attribute != "" {
                attributes.removeAll { attribute == "title" && $0.contains("title") }
                attributes.append(#""\#(attribute)": "FUNCTION($entityPolicy, \"valueFor:\", $source.title)""#)
            }
            return """
                { "name": "Forms → Forms 2", "source": "Forms", "destination": "Forms 2",
                  "entityMappings": [
                    { "name": "ItemToItem", "source": "Item", "destination": "Item", "policy": "\(policy)",
                      "attributes": { \(attributes.joined(separator: ", ")) } } ] }
                """
        }
    }

    /// Returns `value` from `valueFor:`.
    final class ReturningPolicy: EntityMigrationPolicy {
        let value: MappingValue
        init(_ value: MappingValue) { self.value = value }
        required init() { value = .null }

        override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
            -> MappingValue
        { value }
    }

    /// Writes `write`'s value to the new Item itself, by `insert` or by `update`.
    final class WritingPolicy: EntityMigrationPolicy {
        let write: DirectWrite?
        init(_ write: DirectWrite) { self.write = write }
        required init() { write = nil }

        override func createDestinationInstances(
            forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
        ) throws {
            guard let write else { return }
            let values: [String: any DatabaseValueConvertible] = ["title": "one", write.attribute: write.value()]
            if write.updates {
                let item = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)
                try manager.destination.update(item, values)
            } else {
                let item = try manager.destination.insert("Item", values)
                try manager.associate(source: source.id, destination: item, mapping: mapping)
            }
        }
    }

    let directory: TemporaryDirectory
    let source: URL

    init() throws {
        directory = try TemporaryDirectory()
        source = directory.path("Forms.sqlite")
        try StepFixtures.store(at: source, model: Forms.v1) { objects in
            _ = try objects.insert("Item", ["title": "one"])
        }
    }

    /// Runs the step with `policy` and returns the Item's row.
    @discardableResult
    func run(
        _ mapping: String, _ policy: @escaping @Sendable () -> EntityMigrationPolicy,
        transformers: (inout PolicyRegistry) -> Void = { _ in }, to name: String = "Forms 2.sqlite"
    ) throws -> StoredObject? {
        var policies = PolicyRegistry()
        policies.register("Returning", policy)
        transformers(&policies)
        let destination = directory.path(name)
        let models = try StepFixtures.mappingModels([mapping], from: Forms.v1, to: Forms.v2)
        _ = try MigrationStep(from: Forms.v1, to: Forms.v2, mappingModels: models, policies: policies)
            .run(source: source, destination: destination)
        return try StepFixtures.read(destination, Forms.v2) { try $0.fetch("Item").first }
    }

    // MARK: Wrong forms

    struct WrongForm: CustomTestStringConvertible, Sendable {
        var attribute: String
        var value: MappingValue
        var expected: AttributeValueForm
        var testDescription: String { "\(value.literalDescription) for \(attribute)" }
    }

    static let wrongForms: [WrongForm] = [
        WrongForm(attribute: "when", value: .string("2024-05-01"), expected: .date),
        WrongForm(attribute: "tags", value: .data(Data("not an archive".utf8)), expected: .keyedArchive),
        WrongForm(attribute: "count", value: .date(Date(timeIntervalSinceReferenceDate: 0.5)), expected: .integer),
        WrongForm(attribute: "count", value: .string("many"), expected: .integer),
        WrongForm(attribute: "ratio", value: .string("0.5"), expected: .real),
        WrongForm(attribute: "link", value: .integer(3), expected: .uri),
        WrongForm(attribute: "key", value: .string("not a UUID"), expected: .uuid),
        WrongForm(attribute: "key", value: .data(Data([1, 2, 3])), expected: .uuid),
        WrongForm(attribute: "blob", value: .string("text"), expected: .binary),
        WrongForm(attribute: "title", value: .data(Data([1])), expected: .text),
        WrongForm(attribute: "title", value: .array([.string("a")]), expected: .text),
        WrongForm(attribute: "ratio", value: .object(ObjectID(entity: "Item", primaryKey: 1)), expected: .real),
    ]

    @Test(arguments: wrongForms)
    func aReturnedValueOfTheWrongFormIsATypedError(_ wrong: WrongForm) throws {
        let value = wrong.value
        let error = #expect(throws: MappingError.self) {
            try run(Forms.mapping(wrong.attribute)) { ReturningPolicy(value) }
        }
        guard case .wrongValueForm(let expected, _)? = error?.kind else {
            Issue.record("not a wrong value form: \(String(describing: error))")
            return
        }
        #expect(expected == wrong.expected)
        #expect(error?.entityMapping == "ItemToItem")
        #expect(error?.property == wrong.attribute)
        #expect(error?.sourcePrimaryKey == 1)
        #expect(error?.description.contains(wrong.expected.description) == true)
    }

    @Test func theErrorSaysWhereWhatItTakesAndWhatItGot() throws {
        let error = #expect(throws: MappingError.self) {
            try run(Forms.mapping("when")) { ReturningPolicy(.string("2024-05-01")) }
        }
        #expect(
            error?.description
                == #"mapping Forms → Forms 2, entity mapping ItemToItem, Item.when, source row Z_PK 1: the value is text, "#
                + #"but the attribute takes a date: seconds since 2001-01-01 as a real (MappingValue.date(_:), or a Date). "#
                + #"Return the value in the attribute's form (see the value forms in "Porting a Core Data policy")"#)
    }

    struct DirectWrite: CustomTestStringConvertible, Sendable {
        var attribute: String
        var value: @Sendable () -> any DatabaseValueConvertible
        var expected: AttributeValueForm
        var updates: Bool
        var testDescription: String { "\(updates ? "update" : "insert") of \(attribute)" }
    }

    static let directWrites: [DirectWrite] = [false, true].flatMap { updates in
        [
            DirectWrite(attribute: "count", value: { Date() }, expected: .integer, updates: updates),
            DirectWrite(attribute: "when", value: { "yesterday" }, expected: .date, updates: updates),
            DirectWrite(attribute: "tags", value: { Data([0xFF]) }, expected: .keyedArchive, updates: updates),
        ]
    }

    @Test(arguments: directWrites)
    func aPolicysOwnWriteOfTheWrongFormIsATypedError(_ write: DirectWrite) throws {
        let error = #expect(throws: MappingError.self) {
            try run(Forms.mapping("")) { WritingPolicy(write) }
        }
        guard case .wrongValueForm(let expected, _)? = error?.kind else {
            Issue.record("not a wrong value form: \(String(describing: error))")
            return
        }
        #expect(expected == write.expected)
        #expect(error?.entityMapping == "ItemToItem")
        #expect(error?.entity == "Item")
        #expect(error?.property == write.attribute)
        #expect(error?.sourcePrimaryKey == 1)
    }

    // MARK: Accepted forms

    struct Accepted: CustomTestStringConvertible, Sendable {
        var attribute: String
        var value: MappingValue
        var stored: DatabaseValue
        var testDescription: String { "\(value.literalDescription) for \(attribute)" }
    }

    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()

    static let accepted: [Accepted] = [
        Accepted(
            attribute: "link", value: .string("https://example.com/a"), stored: "https://example.com/a".databaseValue),
        Accepted(attribute: "ratio", value: .integer(2), stored: 2.0.databaseValue),
        Accepted(attribute: "when", value: .integer(5), stored: 5.0.databaseValue),
        Accepted(attribute: "when", value: .date(Date(timeIntervalSinceReferenceDate: 9.5)), stored: 9.5.databaseValue),
        Accepted(attribute: "count", value: .double(3), stored: 3.databaseValue),
        Accepted(attribute: "count", value: .string("42"), stored: 42.databaseValue),
        Accepted(attribute: "title", value: .double(0.1), stored: "0.1".databaseValue),
        Accepted(attribute: "title", value: .integer(7), stored: "7".databaseValue),
        Accepted(
            attribute: "key", value: .string(uuid.uuidString),
            stored: withUnsafeBytes(of: uuid.uuid) { Data($0) }.databaseValue),
        Accepted(
            attribute: "tags", value: .array([.string("a")]), stored: TransformableValue.array(["a"]).databaseValue),
        Accepted(
            attribute: "tags", value: .transformable(["k": 1]),
            stored: TransformableValue.dictionary(["k": 1]).databaseValue),
        Accepted(attribute: "tags", value: .string("solo"), stored: TransformableValue.string("solo").databaseValue),
        Accepted(
            attribute: "tags", value: .data(TransformableValue.array([]).keyedArchive()),
            stored: TransformableValue.array([]).databaseValue),
    ]

    @Test(arguments: accepted)
    func anUnambiguousValueIsConverted(_ accepted: Accepted) throws {
        let value = accepted.value
        let item = try run(Forms.mapping(accepted.attribute)) { ReturningPolicy(value) }
        #expect(item?[accepted.attribute] == accepted.stored)
    }

    // MARK: Named transformers

    @Test func aNamedTransformerRegisteredWithThePoliciesArchivesTheObject() throws {
        let item = try run(
            Forms.mapping("color"), { ReturningPolicy(.transformable("red")) },
            transformers: { policies in
                policies.registerValueTransformer("ColorTransformer") { value in
                    guard case .string(let name) = value else { throw CocoaError(.coderInvalidValue) }
                    return Data("color:\(name)".utf8)
                }
            })
        #expect(item?.data("color") == Data("color:red".utf8))
    }

    @Test func aNamedTransformerThatIsNotRegisteredIsAnErrorNamingIt() throws {
        let error = #expect(throws: MappingError.self) {
            try run(Forms.mapping("color")) { ReturningPolicy(.transformable("red")) }
        }
        #expect(error?.property == "color")
        #expect(error?.entityMapping == "ItemToItem")
        #expect(error?.description.contains("MyApp.ColorTransformer") == true)
        #expect(error?.description.contains("registerValueTransformer") == true)
    }

    @Test func bytesGivenForANamedTransformerAreStoredAsTheyAre() throws {
        let item = try run(Forms.mapping("color")) { ReturningPolicy(.data(Data([1, 2, 3]))) }
        #expect(item?.data("color") == Data([1, 2, 3]))
    }
}
