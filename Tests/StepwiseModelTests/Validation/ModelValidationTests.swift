import StepwiseModel
import StepwiseTestSupport
import Testing

/// A model with exactly the problems listed.
struct ValidationCase: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var model: ObjectModel
    var problems: [ModelProblem]

    init(_ description: String, problems: [ModelProblem], @ModelBuilder entities: () -> [Entity]) {
        self.testDescription = description
        self.model = ObjectModel("Broken", entities: entities())
        self.problems = problems
    }

    static let all: [ValidationCase] = [
        ValidationCase(
            "unknown destination",
            problems: [.unknownDestination(entity: "Author", relationship: "books", destination: "Book")]
        ) {
            Entity("Author") { Relationship("books", to: "Book").toMany() }
        },
        ValidationCase("unknown parent", problems: [.unknownParent(entity: "Novel", parent: "Book")]) {
            Entity("Novel", parent: "Book") { Attribute("title", .string) }
        },
        ValidationCase(
            "an inverse that names another relationship",
            problems: [
                .inverseMismatch(entity: "Author", relationship: "books", inverseEntity: "Book", inverse: "author")
            ]
        ) {
            Entity("Author") {
                Relationship("books", to: "Book", inverse: "author").toMany()
                Relationship("favoriteBooks", to: "Book", inverse: "author").toMany()
            }
            Entity("Book") { Relationship("author", to: "Author", inverse: "favoriteBooks") }
        },
        ValidationCase(
            "an inverse without an inverse",
            problems: [
                .inverseMismatch(entity: "Author", relationship: "books", inverseEntity: "Book", inverse: "author")
            ]
        ) {
            Entity("Author") { Relationship("books", to: "Book", inverse: "author").toMany() }
            Entity("Book") { Relationship("author", to: "Author") }
        },
        ValidationCase(
            "an inverse that points to a third entity",
            problems: [
                .inverseMismatch(entity: "Author", relationship: "books", inverseEntity: "Book", inverse: "author")
            ]
        ) {
            Entity("Author") { Relationship("books", to: "Book", inverse: "author").toMany() }
            Entity("Book") { Relationship("author", to: "Editor", inverse: "books") }
            Entity("Editor") { Relationship("books", to: "Book", inverse: "author").toMany() }
        },
        ValidationCase(
            "an unknown inverse",
            problems: [.unknownInverse(entity: "Author", relationship: "books", destination: "Book", inverse: "writer")]
        ) {
            Entity("Author") { Relationship("books", to: "Book", inverse: "writer").toMany() }
            Entity("Book") { Attribute("title", .string) }
        },
        ValidationCase(
            "an inverse that is an attribute",
            problems: [.unknownInverse(entity: "Author", relationship: "books", destination: "Book", inverse: "title")]
        ) {
            Entity("Author") { Relationship("books", to: "Book", inverse: "title").toMany() }
            Entity("Book") { Attribute("title", .string) }
        },
        ValidationCase("a duplicate entity name", problems: [.duplicateEntity("Book")]) {
            Entity("Book") { Attribute("title", .string) }
            Entity("Author") { Attribute("name", .string) }
            Entity("Book") { Attribute("isbn", .string) }
        },
        ValidationCase(
            "a duplicate attribute name", problems: [.duplicateProperty(entity: "Book", property: "title")]
        ) {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("title", .integer16)
            }
        },
        ValidationCase(
            "an attribute and a relationship with one name",
            problems: [.duplicateProperty(entity: "Book", property: "author")]
        ) {
            Entity("Book") {
                Attribute("author", .string)
                Relationship("author", to: "Author")
            }
            Entity("Author") { Attribute("name", .string) }
        },
        ValidationCase(
            "a property that clashes with an inherited one",
            problems: [.duplicateProperty(entity: "Novel", property: "title")]
        ) {
            Entity("Book", isAbstract: true) { Attribute("title", .string) }
            Entity("Novel", parent: "Book") { Attribute("title", .string) }
            Entity("Manual", parent: "Book") { Attribute("topic", .string) }
        },
        ValidationCase(
            "a duplicate on a parent, reported once",
            problems: [.duplicateProperty(entity: "Book", property: "title")]
        ) {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("title", .string)
            }
            Entity("Novel", parent: "Book") { Attribute("genre", .string) }
        },
        ValidationCase("a two-entity inheritance cycle", problems: [.inheritanceCycle(["A", "B", "A"])]) {
            Entity("A", parent: "B") { Attribute("a", .string) }
            Entity("B", parent: "A") { Attribute("b", .string) }
        },
        ValidationCase(
            "a three-entity cycle below another entity", problems: [.inheritanceCycle(["B", "C", "D", "B"])]
        ) {
            Entity("A", parent: "B") { Attribute("a", .string) }
            Entity("B", parent: "C") { Attribute("b", .string) }
            Entity("C", parent: "D") { Attribute("c", .string) }
            Entity("D", parent: "B") { Attribute("d", .string) }
        },
        ValidationCase("an entity that is its own parent", problems: [.inheritanceCycle(["A", "A"])]) {
            Entity("A", parent: "A") { Attribute("a", .string) }
        },
        ValidationCase("an empty entity name", problems: [.emptyName(entity: nil)]) {
            Entity("") { Attribute("a", .string) }
        },
        ValidationCase("an empty property name", problems: [.emptyName(entity: "Book")]) {
            Entity("Book") { Relationship("", to: "Book") }
        },
        ValidationCase(
            "an unknown property in a uniqueness constraint",
            problems: [.unknownIndexedProperty(entity: "Book", property: "isbn", in: "a uniqueness constraint")]
        ) {
            Entity("Book") {
                Attribute("title", .string)
                Unique("title", "isbn")
            }
        },
        ValidationCase(
            "an unknown property in a compound index",
            problems: [.unknownIndexedProperty(entity: "Book", property: "year", in: "a compound index")]
        ) {
            Entity("Book") {
                Attribute("title", .string)
                CompoundIndex("year", "title")
            }
        },
        ValidationCase(
            "an unknown property in a fetch index",
            problems: [.unknownIndexedProperty(entity: "Book", property: "pages", in: "a fetch index")]
        ) {
            Entity("Book") {
                Attribute("title", .string)
                FetchIndex(name: "byPages", elements: [FetchIndex.Element(property: "pages")])
            }
        },
        ValidationCase("inherited properties in constraints and indexes", problems: []) {
            Entity("Region", isAbstract: true) {
                Attribute("code", .integer16)
                Attribute("updatedAt", .date)
            }
            Entity("Country", parent: "Region") {
                Attribute("dummy", .integer16)
                Unique("code", "dummy")
                CompoundIndex("updatedAt", "code")
            }
        },
        ValidationCase("an inverse declared on the destination's parent", problems: []) {
            Entity("Record", isAbstract: true) { Relationship("owner", to: "Person", inverse: "records") }
            Entity("Note", parent: "Record") { Attribute("text", .string) }
            Entity("Person") { Relationship("records", to: "Record", inverse: "owner").toMany() }
        },
    ]
}

@Suite("ModelValidation")
struct ModelValidationTests {
    @Test("Reports each kind of problem exactly", arguments: ValidationCase.all)
    func reportsEachProblemExactly(_ validationCase: ValidationCase) {
        #expect(validationCase.model.problems() == validationCase.problems)
    }

    @Test("validate() throws an error that lists every problem in model order")
    func validateListsEveryProblem() {
        let model = ObjectModel("Library 3") {
            Entity("Book") {
                Attribute("title", .string)
                Attribute("title", .string)
                Relationship("shelf", to: "Shelf")
                Relationship("author", to: "Author", inverse: "works")
                Unique("isbn")
            }
            Entity("Author") { Relationship("books", to: "Book", inverse: "author").toMany() }
            Entity("Novel", parent: "Story") { Attribute("genre", .string) }
            Entity("Book") { Attribute("", .string) }
        }
        let expected: [ModelProblem] = [
            .duplicateEntity("Book"),
            .unknownParent(entity: "Novel", parent: "Story"),
            .duplicateProperty(entity: "Book", property: "title"),
            .unknownDestination(entity: "Book", relationship: "shelf", destination: "Shelf"),
            .unknownInverse(entity: "Book", relationship: "author", destination: "Author", inverse: "works"),
            .unknownIndexedProperty(entity: "Book", property: "isbn", in: "a uniqueness constraint"),
            // Author.books → the first "Book", whose author has inverse "works", not "books".
            .inverseMismatch(entity: "Author", relationship: "books", inverseEntity: "Book", inverse: "author"),
            .emptyName(entity: "Book"),
        ]
        #expect(model.problems() == expected)
        let error = #expect(throws: ModelError.self) { try model.validate(file: "/m/Library 3/contents") }
        #expect(error == ModelError(version: "Library 3", file: "/m/Library 3/contents", problems: expected))
        let lines = error?.description.split(separator: "\n").map(String.init) ?? []
        #expect(lines.first == "model version 'Library 3' (/m/Library 3/contents) is invalid:")
        #expect(lines.count == expected.count + 2)
        #expect(lines.dropFirst().first == "  - two entities are named 'Book'; rename one")
        #expect(lines.last == "Fix the model in Xcode or in its builder code, then try again.")
    }

    @Test("A valid model passes validate()")
    func validModelPasses() throws {
        let model = ObjectModel("Library") {
            Entity("Author") { Relationship("books", to: "Book", inverse: "author").toMany() }
            Entity("Book") { Relationship("author", to: "Author", inverse: "books") }
        }
        #expect(model.problems() == [])
        try model.validate()
    }

    @Test("Each problem describes itself precisely")
    func problemDescriptions() {
        let descriptions: [(ModelProblem, String)] = [
            (.emptyName(entity: nil), "an entity has an empty name"),
            (.emptyName(entity: "Book"), "entity 'Book' has a property with an empty name"),
            (.inheritanceCycle(["A", "B", "A"]), "inheritance cycle: A → B → A"),
            (
                .unknownDestination(entity: "A", relationship: "r", destination: "X"),
                "relationship 'A.r' points to 'X', which is not in the model"
            ),
            (
                .unknownInverse(entity: "A", relationship: "r", destination: "B", inverse: "s"),
                "relationship 'A.r' has inverse 's', but 'B' has no such relationship"
            ),
            (
                .inverseMismatch(entity: "A", relationship: "r", inverseEntity: "B", inverse: "s"),
                "relationship 'A.r' has inverse 'B.s', which does not point back to it"
            ),
            (
                .unknownIndexedProperty(entity: "A", property: "p", in: "a compound index"),
                "a compound index of entity 'A' names 'p', which the entity does not have"
            ),
        ]
        for (problem, description) in descriptions {
            #expect(problem.description == description)
        }
    }

    @Test(
        "Every corpus version validates without problems",
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CorpusBundle.allVersionNames)
    func everyCorpusVersionIsValid(_ versionName: String) throws {
        let model = try Corpus.required().readVersion(versionName)
        #expect(model.problems() == [])
    }
}
