import Foundation
import StepwiseMapping
import StepwiseModel
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// The JSON mapping file: its defaults, its errors, and the mapping folders of `Versions/`.
@Suite("Mapping files")
struct MappingFileTests {
    /// Pets and their owners. In B, `owner` became a String attribute, `tag` a relationship
    /// to a new Tag entity, `age` is new and `nickname` transient.
    enum Pets {
        static let a = ObjectModel("A") {
            Entity("Person") {
                Attribute("name", .string)
                Relationship("pets", to: "Pet", inverse: "owner").toMany()
            }
            Entity("Pet") {
                Attribute("name", .string)
                Attribute("tag", .string)
                Relationship("owner", to: "Person", inverse: "pets")
            }
        }

        static let b = ObjectModel("B") {
            Entity("Person") {
                Attribute("name", .string)
            }
            Entity("Pet") {
                Attribute("age", .integer16)
                Attribute("name", .string)
                Attribute("nickname", .string).transient()
                Attribute("owner", .string)
                Relationship("tag", to: "Tag", inverse: "pets")
            }
            Entity("Tag") {
                Attribute("name", .string)
                Relationship("pets", to: "Pet", inverse: "tag").toMany()
            }
        }

        static func file(_ entityMappings: String, name: String? = nil) -> String {
            let nameKey = name.map { #""name": "\#($0)", "# } ?? ""
            return #"{ \#(nameKey)"source": "A", "destination": "B", "entityMappings": [\#(entityMappings)] }"#
        }
    }

    func decode(_ text: String) throws -> MappingModel {
        try MappingFile.decode(Data(text.utf8), source: Pets.a, destination: Pets.b)
    }

    // MARK: Defaults

    @Test func namesAndKindsAreDeducedAsXcodeDoes() throws {
        let model = try decode(
            Pets.file(
                """
                { "source": "Pet", "destination": "Pet" },
                { "source": "Person", "destination": "Person", "policy": "PersonPolicy" },
                { "destination": "Tag" },
                { "source": "Person" },
                { "name": "Copied", "kind": "copy", "source": "Person", "destination": "Person" }
                """))
        #expect(model.name == "A → B")
        #expect(model.sourceVersion == "A")
        #expect(model.destinationVersion == "B")
        #expect(!model.isInferred)
        #expect(model.entityMappings.map(\.name) == ["PetToPet", "PersonToPerson", "ToTag", "PersonTo", "Copied"])
        #expect(model.entityMappings.map(\.kind) == [.transform, .custom, .add, .remove, .copy])
        #expect(model.entityMappings.map(\.policyName) == [nil, "PersonPolicy", nil, nil, nil])
        #expect(model.entityMapping(named: "ToTag")?.sourceEntity == nil)
        #expect(model.entityMapping(named: "PersonTo")?.destinationEntity == nil)
    }

    /// Source key paths are checked when the file is read, through relationships and in
    /// filters, so a typo fails before any step runs.
    @Test(arguments: [
        (
            #"{ "source": "Pet", "destination": "Pet", "attributes": { "name": "$source.owner.nme" } }"#, "Person",
            "nme", "name"
        ),
        (
            #"{ "source": "Pet", "destination": "Pet", "filter": "owner.name != nil AND colour == nil" }"#, "Pet",
            "colour", "filter"
        ),
        (
            #"{ "source": "Pet", "destination": "Pet", "attributes": { "owner": "FUNCTION($entityPolicy, \"x:\", $source.owner.pets.@count.zz)" } }"#,
            "Pet", "zz", "owner"
        ),
    ])
    func aSourceKeyPathToAMissingPropertyFailsWhenTheFileIsRead(
        mapping: String, entity: String, missing: String, destinationProperty: String
    ) throws {
        let error = try #require(throws: MappingError.self) { try decode(Pets.file(mapping)) }
        #expect(error.kind == .unknownProperty(entity: entity, property: missing, version: "A"))
        #expect(error.entityMapping == "PetToPet")
        #expect(error.property == destinationProperty)
    }

    @Test func validSourceKeyPathsThroughRelationshipsAndOperatorsAreAccepted() throws {
        let model = try decode(
            Pets.file(
                #"{ "source": "Pet", "destination": "Pet", "filter": "owner.name BEGINSWITH \"A\"", "attributes": { "owner": "$source.owner.name" } }"#
            ))
        #expect(
            model.entityMappings.first?.propertyMapping(named: "owner")?.valueExpression == .source("owner", "name"))
    }

    @Test func theFileNameIsTheModelsName() throws {
        #expect(try decode(Pets.file("", name: "Pets, step one")).name == "Pets, step one")
    }

    @Test func sameNamedPropertiesAreCopiedOnlyAttributeToAttributeAndRelationshipToRelationship() throws {
        let pet = try #require(
            try decode(Pets.file(#"{ "source": "Pet", "destination": "Pet" }"#)).entityMappings.first)
        // `owner` (relationship → attribute) and `tag` (attribute → relationship) need a
        // written mapping; `age` has no source; `nickname` is transient.
        #expect(pet.attributeMappings == [PropertyMapping("name", .source("name"))])
        #expect(pet.relationshipMappings.isEmpty)

        let university = try #require(
            try MappingFile.decode(
                Data(SampleMappings.university3to4.utf8), source: UniversityHistory.v3,
                destination: UniversityHistory.v4
            ).entityMappings.first)
        #expect(university.attributeMappings.map(\.name) == ["domain", "estYear", "name", "website"])
        #expect(university.relationshipMappings.isEmpty, "country became a relationship: the policy links it")

        let person = try #require(
            try decode(Pets.file(#"{ "source": "Person", "destination": "Person" }"#)).entityMappings.first)
        #expect(person.attributeMappings == [PropertyMapping("name", .source("name"))])
    }

    @Test func sameNamedRelationshipsAreCopiedToo() throws {
        let recipes = try MappingFile.decode(
            Data(
                #"{ "source": "Recipes 3", "destination": "Recipes 4", "entityMappings": [{ "source": "Recipe", "destination": "Recipe" }] }"#
                    .utf8),
            source: RecipesHistory.v3, destination: RecipesHistory.v4)
        let recipe = try #require(recipes.entityMappings.first)
        #expect(recipe.relationshipMappings.map(\.name) == ["chef", "cuisine", "ingredients"])
        #expect(recipe.relationshipMappings.first?.valueExpression == .source("chef"))
        #expect(recipe.attributeMappings.map(\.name) == ["directions", "name", "rating"])
    }

    @Test func writtenMappingsWinAndCopyMatchingPropertiesFalseCopiesNothing() throws {
        let model = try decode(
            Pets.file(
                """
                { "name": "Written", "source": "Pet", "destination": "Pet",
                  "attributes": { "name": "$source.tag", "owner": "$source.owner.name" },
                  "userInfo": { "note": "kept" } },
                { "name": "Bare", "source": "Pet", "destination": "Pet", "copyMatchingProperties": false,
                  "attributes": { "age": "3" } }
                """))
        let written = try #require(model.entityMapping(named: "Written"))
        #expect(
            written.attributeMappings == [
                PropertyMapping("name", .source("tag")), PropertyMapping("owner", .source("owner", "name")),
            ])
        #expect(written.userInfo == ["note": "kept"])
        let bare = try #require(model.entityMapping(named: "Bare"))
        #expect(bare.attributeMappings == [PropertyMapping("age", .constant(.integer(3)))])
        #expect(bare.relationshipMappings.isEmpty)
    }

    // MARK: Errors

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var kind: MappingError.Kind?
        /// Text the description must contain (for invalid files).
        var message: String?
        var entityMapping: String?
        var property: String?
        var testDescription: String { name }
    }

    static let errorCases: [ErrorCase] = [
        ErrorCase(
            name: "bad expression",
            text: Pets.file(
                #"{ "source": "Pet", "destination": "Pet", "attributes": { "name": "$source.name $source.tag" } }"#),
            kind: .syntax(message: "", line: 1, column: 14), entityMapping: "PetToPet", property: "name"),
        ErrorCase(
            name: "bad expression on its second line",
            text: Pets.file(
                #"{ "source": "Pet", "destination": "Pet", "attributes": { "age": "FUNCTION($entityPolicy,\n  \"years:\" $source.name)" } }"#
            ),
            kind: .syntax(message: "", line: 2, column: 12), entityMapping: "PetToPet", property: "age"),
        ErrorCase(
            name: "bad filter",
            text: Pets.file(#"{ "name": "Filtered", "source": "Pet", "destination": "Pet", "filter": "name == " }"#),
            kind: .syntax(message: "", line: 1, column: 9), entityMapping: "Filtered", property: "filter"),
        ErrorCase(
            name: "unknown source entity",
            text: Pets.file(#"{ "source": "Pets", "destination": "Pet" }"#),
            kind: .unknownEntity("Pets", version: "A"), entityMapping: "PetsToPet"),
        ErrorCase(
            name: "unknown destination entity",
            text: Pets.file(#"{ "source": "Pet", "destination": "Animal" }"#),
            kind: .unknownEntity("Animal", version: "B"), entityMapping: "PetToAnimal"),
        ErrorCase(
            name: "unknown attribute",
            text: Pets.file(#"{ "source": "Pet", "destination": "Pet", "attributes": { "nmae": "$source.name" } }"#),
            kind: .unknownProperty(entity: "Pet", property: "nmae", version: "B"), entityMapping: "PetToPet"),
        ErrorCase(
            name: "an attribute listed as a relationship",
            text: Pets.file(
                #"{ "source": "Pet", "destination": "Pet", "relationships": { "name": "$source.owner" } }"#),
            kind: .unknownProperty(entity: "Pet", property: "name", version: "B"), entityMapping: "PetToPet"),
        ErrorCase(
            name: "a transient attribute",
            text: Pets.file(
                #"{ "source": "Pet", "destination": "Pet", "attributes": { "nickname": "$source.name" } }"#),
            kind: .unknownProperty(entity: "Pet", property: "nickname", version: "B"), entityMapping: "PetToPet"),
        ErrorCase(
            name: "wrong source version",
            text: #"{ "source": "A 2", "destination": "B", "entityMappings": [] }"#,
            message: "it maps 'A 2' → 'B', not 'A' → 'B'"),
        ErrorCase(
            name: "wrong destination version",
            text: #"{ "source": "A", "destination": "A", "entityMappings": [] }"#,
            message: "it maps 'A' → 'A', not 'A' → 'B'"),
        ErrorCase(
            name: "truncated JSON",
            text: #"{ "source": "A", "destination": "B", "entityMappings": [ { "source": "Pet" "#,
            message: "not valid JSON"),
        ErrorCase(
            name: "missing top-level key",
            text: #"{ "source": "A", "entityMappings": [] }"#,
            message: "missing key 'destination' at the top level"),
        ErrorCase(
            name: "expression that is not a string",
            text: Pets.file(#"{ "source": "Pet", "destination": "Pet", "attributes": { "age": 3 } }"#),
            message: "at .entityMappings[0].attributes.age"),
        ErrorCase(
            name: "entity mappings that are not a list",
            text: #"{ "source": "A", "destination": "B", "entityMappings": { "source": "Pet" } }"#,
            message: "at .entityMappings"),
        ErrorCase(
            name: "unknown kind",
            text: Pets.file(#"{ "source": "Pet" }, { "kind": "rename", "source": "Pet", "destination": "Pet" }"#),
            message: "at .entityMappings[1].kind"),
    ]

    @Test(arguments: errorCases)
    func errorsNameTheFileMappingPropertyAndPlace(_ errorCase: ErrorCase) throws {
        let directory = try TemporaryDirectory()
        let url = directory.path("Pets.json")
        try Data(errorCase.text.utf8).write(to: url)
        let error = try #require(
            #expect(throws: MappingError.self) { try MappingFile.load(url, source: Pets.a, destination: Pets.b) })
        #expect(error.file == url.path)
        #expect("\(error)".hasPrefix(url.path))
        #expect(error.entityMapping == errorCase.entityMapping)
        #expect(error.property == errorCase.property)
        switch (error.kind, errorCase.kind) {
        case (.syntax(_, let line, let column), .syntax(_, let expectedLine, let expectedColumn)?):
            #expect(line == expectedLine, "\(error)")
            #expect(column == expectedColumn, "\(error)")
            #expect("\(error)".contains("line \(expectedLine), column \(expectedColumn)"))
        case (.invalidFile(let reason), nil):
            #expect(reason.contains(errorCase.message ?? "?"), "\(reason)")
        case (let kind, let expected?):
            #expect(kind == expected)
        default:
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theSameExpressionErrorWithoutAFileNamesEverythingButTheFile() throws {
        let error = #expect(throws: MappingError.self) {
            try decode(Pets.file(#"{ "source": "Pet", "destination": "Pet", "attributes": { "name": "$source." } }"#))
        }
        #expect(error?.file == nil)
        #expect(error?.entityMapping == "PetToPet")
        #expect(error?.entity == "Pet")
        #expect(error?.property == "name")
    }

    @Test func aMissingFileIsAnInvalidFileNamingIt() throws {
        let url = URL(fileURLWithPath: "/nonexistent/Pets.json")
        let error = #expect(throws: MappingError.self) {
            try MappingFile.load(url, source: Pets.a, destination: Pets.b)
        }
        #expect(error?.file == url.path)
        guard case .invalidFile = error?.kind else {
            Issue.record("expected an invalid file, got \(String(describing: error))")
            return
        }
    }

    // MARK: Mapping directories

    static let versionsFolder = Corpus.packageRoot.appendingPathComponent("Versions")

    @Test(arguments: SampleHistories.all.map(\.name))
    func theMappingFoldersOfVersionsLoadAgainstTheirBundles(name: String) throws {
        let sample = try #require(SampleHistories.all.first { $0.name == name })
        let bundle = try ModelBundle(contentsOf: Self.versionsFolder.appendingPathComponent("\(name).xcdatamodeld"))
        let mappings = try MappingDirectory(
            contentsOf: Self.versionsFolder.appendingPathComponent("\(name).mappings"), history: bundle.history)
        // Every file, grouped by step, each step's files in `order` then file-name order.
        var expected: [MappingDirectory.StepKey: [MappingModel]] = [:]
        for (file, text) in sample.mappingFiles.sorted(by: { $0.key < $1.key }) {
            let url = mappings.url.appendingPathComponent(file)
            let header = try MappingFile.header(of: url)
            var model = try MappingFile.decode(
                Data(text.utf8), source: try #require(bundle.history.version(named: header.source)),
                destination: try #require(bundle.history.version(named: header.destination)))
            model.origin = MappingOrigin(path: url.path, format: .json, binding: .fileHeader)
            expected[MappingDirectory.StepKey(header.source, header.destination), default: []].append(model)
        }
        #expect(Set(mappings.steps.keys) == Set(expected.keys))
        for (key, models) in expected {
            #expect(mappings.steps[key]?.count == models.count)
            #expect(Set(mappings.steps[key] ?? []) == Set(models))
        }
        let expectedSteps: [String: [String]] = [
            "Recipes": ["Recipes → Recipes 2", "Recipes 2 → Recipes 3"],
            "University": ["University 2 → University 3", "University 3 → University 4"],
            "Events": ["Events → Events 2"],
        ]
        #expect(mappings.steps.keys.map(\.description).sorted() == expectedSteps[name]?.sorted())
        // The steps without a file are inferred.
        #expect(mappings.mappingModels(from: name, to: "\(name) 2").isEmpty == (name == "University"))
    }

    @Test func aMissingMappingFolderHasNoMappings() throws {
        let mappings = try MappingDirectory(
            contentsOf: URL(fileURLWithPath: "/nonexistent/Events.mappings"), history: EventsHistory.history)
        #expect(mappings.steps.isEmpty)
        #expect(mappings.mappingModels(from: "Events", to: "Events 2").isEmpty)
    }

    @Test(arguments: [
        (
            #"{ "source": "Events 0", "destination": "Events 2", "entityMappings": [] }"#,
            "no model version named 'Events 0'"
        ),
        (
            #"{ "source": "Events", "destination": "Events 3", "entityMappings": [] }"#,
            "no model version named 'Events 3'"
        ),
        (#"{ "source": "Events", "#, "not valid JSON"),
        (#"{ "destination": "Events 2", "entityMappings": [] }"#, "missing key 'source'"),
    ])
    func aBadFileInAMappingFolderIsAnErrorNamingIt(text: String, message: String) throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("Events.mappings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(SampleMappings.events1to2TimeStamps.utf8).write(to: folder.appendingPathComponent("1.json"))
        let bad = folder.appendingPathComponent("2.json")
        try Data(text.utf8).write(to: bad)
        let error = #expect(throws: MappingError.self) {
            try MappingDirectory(contentsOf: folder, history: EventsHistory.history)
        }
        #expect(error?.file == bad.path)
        #expect(error.map { "\($0)" }?.contains(message) == true, "\(String(describing: error))")
    }
}
