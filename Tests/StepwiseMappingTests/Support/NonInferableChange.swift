import StepwiseMapping
import StepwiseModel
import Testing

/// A change between two versions that inference refuses, with exactly the problems it reports.
struct NonInferableChange: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var source: ObjectModel
    var destination: ObjectModel
    var problems: [InferenceProblem]

    init(
        _ description: String, problems: [InferenceProblem], @ModelBuilder source: () -> [Entity],
        @ModelBuilder destination: () -> [Entity]
    ) {
        self.testDescription = description
        self.source = ObjectModel("A", entities: source())
        self.destination = ObjectModel("B", entities: destination())
        self.problems = problems
    }

    static let all: [NonInferableChange] = attributeChanges + relationshipChanges + structureChanges

    static let attributeChanges: [NonInferableChange] = [
        NonInferableChange(
            "a new required attribute without a default",
            problems: [InferenceProblem(entity: "Post", property: "rating", reason: .newRequiredAttribute)]
        ) {
            Entity("Post") { Attribute("title", .string) }
        } destination: {
            Entity("Post") {
                Attribute("title", .string)
                Attribute("rating", .integer16).required()
            }
        },
        NonInferableChange(
            "a new required attribute on an abstract parent, reported on each concrete subentity",
            problems: [
                InferenceProblem(entity: "Page", property: "rating", reason: .newRequiredAttribute),
                InferenceProblem(entity: "Post", property: "rating", reason: .newRequiredAttribute),
            ]
        ) {
            Entity("Content", isAbstract: true) { Attribute("title", .string) }
            Entity("Page", parent: "Content") { Attribute("slug", .string) }
            Entity("Post", parent: "Content") { Attribute("body", .string) }
        } destination: {
            Entity("Content", isAbstract: true) {
                Attribute("title", .string)
                Attribute("rating", .integer16).required()
            }
            Entity("Page", parent: "Content") { Attribute("slug", .string) }
            Entity("Post", parent: "Content") { Attribute("body", .string) }
        },
        NonInferableChange(
            "an optional attribute made required without a default",
            problems: [InferenceProblem(entity: "Post", property: "title", reason: .attributeBecomesRequired)]
        ) {
            Entity("Post") { Attribute("title", .string) }
        } destination: {
            Entity("Post") { Attribute("title", .string).required() }
        },
        NonInferableChange(
            "String to Integer 32",
            problems: [
                InferenceProblem(
                    entity: "Post", property: "views", reason: .lossyTypeChange(from: .string, to: .integer32))
            ]
        ) {
            Entity("Post") { Attribute("views", .string) }
        } destination: {
            Entity("Post") { Attribute("views", .integer32) }
        },
        NonInferableChange(
            "Double to Integer 64",
            problems: [
                InferenceProblem(
                    entity: "Post", property: "score", reason: .lossyTypeChange(from: .double, to: .integer64))
            ]
        ) {
            Entity("Post") { Attribute("score", .double) }
        } destination: {
            Entity("Post") { Attribute("score", .integer64) }
        },
        NonInferableChange(
            "Integer 64 to Integer 16",
            problems: [
                InferenceProblem(
                    entity: "Post", property: "views", reason: .lossyTypeChange(from: .integer64, to: .integer16))
            ]
        ) {
            Entity("Post") { Attribute("views", .integer64) }
        } destination: {
            Entity("Post") { Attribute("views", .integer16) }
        },
        NonInferableChange(
            "Date to Double and Integer 16 to Boolean",
            problems: [
                InferenceProblem(entity: "Post", property: "date", reason: .lossyTypeChange(from: .date, to: .double)),
                InferenceProblem(
                    entity: "Post", property: "hidden", reason: .lossyTypeChange(from: .integer16, to: .boolean)),
            ]
        ) {
            Entity("Post") {
                Attribute("date", .date)
                Attribute("hidden", .integer16)
            }
        } destination: {
            Entity("Post") {
                Attribute("date", .double)
                Attribute("hidden", .boolean)
            }
        },
        NonInferableChange(
            "Boolean to Double, Date and Binary",
            problems: [
                InferenceProblem(
                    entity: "Post", property: "pinned", reason: .lossyTypeChange(from: .boolean, to: .double)),
                InferenceProblem(
                    entity: "Post", property: "starred", reason: .lossyTypeChange(from: .boolean, to: .date)),
                InferenceProblem(
                    entity: "Post", property: "wanted", reason: .lossyTypeChange(from: .boolean, to: .binary)),
            ]
        ) {
            Entity("Post") {
                Attribute("pinned", .boolean)
                Attribute("starred", .boolean)
                Attribute("wanted", .boolean)
            }
        } destination: {
            Entity("Post") {
                Attribute("pinned", .double)
                Attribute("starred", .date)
                Attribute("wanted", .binary)
            }
        },
        NonInferableChange(
            "an attribute that becomes a relationship",
            problems: [
                InferenceProblem(entity: "Post", property: "color", reason: .propertyKindChange(wasRelationship: false))
            ]
        ) {
            Entity("Post") { Attribute("color", .string) }
        } destination: {
            Entity("Color") { Attribute("hex", .string) }
            Entity("Post") { Relationship("color", to: "Color") }
        },
    ]

    static let relationshipChanges: [NonInferableChange] = [
        NonInferableChange(
            "a new required to-one relationship",
            problems: [
                InferenceProblem(
                    entity: "Post", property: "color", reason: .newRequiredRelationship(destination: "Color"))
            ]
        ) {
            Entity("Post") { Attribute("title", .string) }
        } destination: {
            Entity("Color") {
                Attribute("hex", .string)
                Relationship("post", to: "Post", inverse: "color")
            }
            Entity("Post") {
                Attribute("title", .string)
                Relationship("color", to: "Color", inverse: "post").required()
            }
        },
        NonInferableChange(
            "a new to-many relationship with a minimum count",
            problems: [
                InferenceProblem(entity: "Post", property: "tags", reason: .newRequiredRelationship(destination: "Tag"))
            ]
        ) {
            Entity("Post") { Attribute("title", .string) }
            Entity("Tag") { Attribute("name", .string) }
        } destination: {
            Entity("Post") {
                Attribute("title", .string)
                Relationship("tags", to: "Tag").toMany().count(min: 1, max: 0)
            }
            Entity("Tag") { Attribute("name", .string) }
        },
        NonInferableChange(
            "an optional relationship made required",
            problems: [InferenceProblem(entity: "Post", property: "author", reason: .relationshipBecomesRequired)]
        ) {
            Entity("Author") { Attribute("name", .string) }
            Entity("Post") { Relationship("author", to: "Author") }
        } destination: {
            Entity("Author") { Attribute("name", .string) }
            Entity("Post") { Relationship("author", to: "Author").required() }
        },
    ]

    static let structureChanges: [NonInferableChange] = [
        NonInferableChange(
            "merged hierarchies",
            problems: [
                InferenceProblem(
                    entity: "Vehicle",
                    reason: .mergedHierarchies(
                        entities: ["Car", "Truck"], sourceRoots: ["Car", "Truck"], destinationRoot: "Vehicle"))
            ]
        ) {
            Entity("Car") { Attribute("seats", .integer16) }
            Entity("Truck") { Attribute("load", .double) }
        } destination: {
            Entity("Vehicle", isAbstract: true) { Attribute("wheels", .integer16) }
            Entity("Car", parent: "Vehicle") { Attribute("seats", .integer16) }
            Entity("Truck", parent: "Vehicle") { Attribute("load", .double) }
        },
        NonInferableChange(
            "two entities claiming one source entity",
            problems: [
                InferenceProblem(
                    entity: "Article", reason: .ambiguousRename(source: "Post", claimants: ["Article", "Post"])),
                InferenceProblem(
                    entity: "Post", reason: .ambiguousRename(source: "Post", claimants: ["Article", "Post"])),
            ]
        ) {
            Entity("Post") { Attribute("title", .string) }
        } destination: {
            Entity("Article") { Attribute("title", .string) }.renamed(from: "Post")
            Entity("Post") { Attribute("title", .string) }
        },
        NonInferableChange(
            "two properties claiming one source property",
            problems: [
                InferenceProblem(
                    entity: "Post", property: "color",
                    reason: .ambiguousRename(source: "color", claimants: ["color", "hexColor"])),
                InferenceProblem(
                    entity: "Post", property: "hexColor",
                    reason: .ambiguousRename(source: "color", claimants: ["color", "hexColor"])),
            ]
        ) {
            Entity("Post") { Attribute("color", .string) }
        } destination: {
            Entity("Post") {
                Attribute("color", .string)
                Attribute("hexColor", .string).renamed(from: "color")
            }
        },
        NonInferableChange(
            "a concrete entity made abstract",
            problems: [InferenceProblem(entity: "Content", reason: .entityBecomesAbstract)]
        ) {
            Entity("Content") { Attribute("title", .string) }
        } destination: {
            Entity("Content", isAbstract: true) { Attribute("title", .string) }
            Entity("Post", parent: "Content") { Attribute("body", .string) }
        },
        NonInferableChange(
            "every problem of a step at once",
            problems: [
                InferenceProblem(
                    entity: "Vehicle",
                    reason: .mergedHierarchies(
                        entities: ["Car", "Truck"], sourceRoots: ["Car", "Truck"], destinationRoot: "Vehicle")),
                InferenceProblem(
                    entity: "Author", property: "age", reason: .lossyTypeChange(from: .string, to: .integer16)),
                InferenceProblem(entity: "Author", property: "email", reason: .newRequiredAttribute),
                InferenceProblem(entity: "Car", property: "plate", reason: .attributeBecomesRequired),
                InferenceProblem(entity: "Post", property: "author", reason: .relationshipBecomesRequired),
            ]
        ) {
            Entity("Author") { Attribute("age", .string) }
            Entity("Car") { Attribute("plate", .string) }
            Entity("Post") { Relationship("author", to: "Author") }
            Entity("Truck") { Attribute("load", .double) }
        } destination: {
            Entity("Author") {
                Attribute("age", .integer16)
                Attribute("email", .string).required()
            }
            Entity("Vehicle", isAbstract: true) { Attribute("wheels", .integer16) }
            Entity("Car", parent: "Vehicle") { Attribute("plate", .string).required() }
            Entity("Post") { Relationship("author", to: "Author").required() }
            Entity("Truck", parent: "Vehicle") { Attribute("load", .double) }
        },
    ]
}
