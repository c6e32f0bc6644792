import StepwiseMapping
import StepwiseModel
import Testing

/// A change between two versions that inference accepts, with the exact mapping it infers
/// (rendered by ``MappingModel/summary``).
struct InferableChange: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var source: ObjectModel
    var destination: ObjectModel
    var expected: [String]

    init(
        _ description: String, expected: [String], @ModelBuilder source: () -> [Entity],
        @ModelBuilder destination: () -> [Entity]
    ) {
        self.testDescription = description
        self.source = ObjectModel("A", entities: source())
        self.destination = ObjectModel("B", entities: destination())
        self.expected = expected
    }

    static let all: [InferableChange] = entityChanges + propertyChanges + relationshipChanges + hierarchyChanges

    static let entityChanges: [InferableChange] = [
        InferableChange("add an entity", expected: ["copy PostToPost: title=$source.title", "add ToTag"]) {
            Entity("Post") { Attribute("title", .string) }
        } destination: {
            Entity("Post") { Attribute("title", .string) }
            Entity("Tag") { Attribute("name", .string).required() }
        },
        InferableChange("remove an entity", expected: ["copy PostToPost: title=$source.title", "remove TagTo"]) {
            Entity("Post") { Attribute("title", .string) }
            Entity("Tag") { Attribute("name", .string) }
        } destination: {
            Entity("Post") { Attribute("title", .string) }
        },
        InferableChange(
            "rename an entity through its renaming identifier",
            expected: [
                "transform AuthorToAuthor: name=$source.name, posts=→PostToArticle($source.posts)",
                "transform PostToArticle: title=$source.title, author=→AuthorToAuthor($source.author)",
            ]
        ) {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("posts", to: "Post", inverse: "author").toMany()
            }
            Entity("Post") {
                Attribute("title", .string)
                Relationship("author", to: "Author", inverse: "posts")
            }
        } destination: {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("posts", to: "Article", inverse: "author").toMany()
            }
            Entity("Article") {
                Attribute("title", .string)
                Relationship("author", to: "Author", inverse: "posts")
            }
            .renamed(from: "Post")
        },
    ]

    static let propertyChanges: [InferableChange] = [
        InferableChange("add an optional attribute", expected: ["transform PostToPost: title=$source.title"]) {
            Entity("Post") { Attribute("title", .string) }
        } destination: {
            Entity("Post") {
                Attribute("title", .string)
                Attribute("subtitle", .string)
            }
        },
        InferableChange(
            "add a required attribute with a default", expected: ["transform PostToPost: title=$source.title"]
        ) {
            Entity("Post") { Attribute("title", .string) }
        } destination: {
            Entity("Post") {
                Attribute("title", .string)
                Attribute("rating", .integer16).required().defaultValue("0")
            }
        },
        InferableChange("remove an attribute", expected: ["transform PostToPost: title=$source.title"]) {
            Entity("Post") {
                Attribute("title", .string)
                Attribute("subtitle", .string).required()
            }
        } destination: {
            Entity("Post") { Attribute("title", .string) }
        },
        InferableChange("make a required attribute optional", expected: ["transform PostToPost: title=$source.title"]) {
            Entity("Post") { Attribute("title", .string).required() }
        } destination: {
            Entity("Post") { Attribute("title", .string) }
        },
        InferableChange(
            "make an optional attribute required, with a default",
            expected: ["transform PostToPost: title=$source.title {stepwise.defaultForNull=Untitled}"]
        ) {
            Entity("Post") { Attribute("title", .string) }
        } destination: {
            Entity("Post") { Attribute("title", .string).required().defaultValue("Untitled") }
        },
        InferableChange(
            "rename an attribute through its renaming identifier",
            expected: ["transform PostToPost: headline=$source.title"]
        ) {
            Entity("Post") { Attribute("title", .string) }
        } destination: {
            Entity("Post") { Attribute("headline", .string).renamed(from: "title") }
        },
        InferableChange(
            "keep an old renaming identifier that no longer names a source property",
            expected: ["copy PostToPost: headline=$source.headline"]
        ) {
            Entity("Post") { Attribute("headline", .string).renamed(from: "title") }
        } destination: {
            Entity("Post") { Attribute("headline", .string).renamed(from: "title") }
        },
        InferableChange(
            "match two renames that record the same renaming identifier",
            expected: ["transform PostToPost: headline=$source.heading"]
        ) {
            Entity("Post") { Attribute("heading", .string).renamed(from: "title") }
        } destination: {
            Entity("Post") { Attribute("headline", .string).renamed(from: "title") }
        },
        InferableChange(
            "rename and widen an attribute at once",
            expected: ["transform PostToPost: viewCount=$source.views {stepwise.widening=integer16→integer64}"]
        ) {
            Entity("Post") { Attribute("views", .integer16) }
        } destination: {
            Entity("Post") { Attribute("viewCount", .integer64).renamed(from: "views") }
        },
        InferableChange(
            "ignore transient attributes",
            expected: ["copy PostToPost: title=$source.title"]
        ) {
            Entity("Post") {
                Attribute("title", .string)
                Attribute("draft", .string).transient()
            }
        } destination: {
            Entity("Post") {
                Attribute("title", .string)
                Attribute("preview", .string).required().transient()
            }
        },
    ]

    static let relationshipChanges: [InferableChange] = [
        InferableChange(
            "add a relationship",
            expected: ["transform AuthorToAuthor: name=$source.name", "transform PostToPost: title=$source.title"]
        ) {
            Entity("Author") { Attribute("name", .string) }
            Entity("Post") { Attribute("title", .string) }
        } destination: {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("posts", to: "Post", inverse: "author").toMany()
            }
            Entity("Post") {
                Attribute("title", .string)
                Relationship("author", to: "Author", inverse: "posts")
            }
        },
        InferableChange(
            "remove a relationship",
            expected: ["transform AuthorToAuthor: name=$source.name", "transform PostToPost: title=$source.title"]
        ) {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("posts", to: "Post", inverse: "author").toMany().required()
            }
            Entity("Post") {
                Attribute("title", .string)
                Relationship("author", to: "Author", inverse: "posts").required()
            }
        } destination: {
            Entity("Author") { Attribute("name", .string) }
            Entity("Post") { Attribute("title", .string) }
        },
        InferableChange(
            "rename a relationship through its renaming identifier",
            expected: [
                "transform AuthorToAuthor: name=$source.name, posts=→PostToPost($source.posts)",
                "transform PostToPost: writer=→AuthorToAuthor($source.author)",
            ]
        ) {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("posts", to: "Post", inverse: "author").toMany()
            }
            Entity("Post") { Relationship("author", to: "Author", inverse: "posts") }
        } destination: {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("posts", to: "Post", inverse: "writer").toMany()
            }
            Entity("Post") { Relationship("writer", to: "Author", inverse: "posts").renamed(from: "author") }
        },
        InferableChange(
            "turn a to-one into a to-many",
            expected: [
                "copy AuthorToAuthor: posts=→PostToPost($source.posts)",
                "transform PostToPost: author=→AuthorToAuthor($source.author)",
            ]
        ) {
            Entity("Author") { Relationship("posts", to: "Post", inverse: "author").toMany() }
            Entity("Post") { Relationship("author", to: "Author", inverse: "posts") }
        } destination: {
            Entity("Author") { Relationship("posts", to: "Post", inverse: "author").toMany() }
            Entity("Post") { Relationship("author", to: "Author", inverse: "posts").toMany() }
        },
        InferableChange(
            "turn a to-many into a to-one",
            expected: [
                "transform AuthorToAuthor: post=→PostToPost($source.posts)",
                "transform PostToPost: author=→AuthorToAuthor($source.author)",
            ]
        ) {
            Entity("Author") { Relationship("posts", to: "Post", inverse: "author").toMany() }
            Entity("Post") { Relationship("author", to: "Author", inverse: "posts") }
        } destination: {
            Entity("Author") { Relationship("post", to: "Post", inverse: "author").renamed(from: "posts") }
            Entity("Post") { Relationship("author", to: "Author", inverse: "post") }
        },
        InferableChange(
            "order an unordered to-many",
            expected: [
                "transform AuthorToAuthor: posts=→PostToPost($source.posts)",
                "copy PostToPost: author=→AuthorToAuthor($source.author)",
            ]
        ) {
            Entity("Author") { Relationship("posts", to: "Post", inverse: "author").toMany() }
            Entity("Post") { Relationship("author", to: "Author", inverse: "posts") }
        } destination: {
            Entity("Author") { Relationship("posts", to: "Post", inverse: "author").ordered() }
            Entity("Post") { Relationship("author", to: "Author", inverse: "posts") }
        },
        InferableChange(
            "unorder an ordered to-many",
            expected: [
                "transform AuthorToAuthor: posts=→PostToPost($source.posts)",
                "copy PostToPost: author=→AuthorToAuthor($source.author)",
            ]
        ) {
            Entity("Author") { Relationship("posts", to: "Post", inverse: "author").ordered() }
            Entity("Post") { Relationship("author", to: "Author", inverse: "posts") }
        } destination: {
            Entity("Author") { Relationship("posts", to: "Post", inverse: "author").toMany() }
            Entity("Post") { Relationship("author", to: "Author", inverse: "posts") }
        },
        InferableChange(
            "make a required relationship optional",
            expected: [
                "copy AuthorToAuthor: name=$source.name",
                "transform PostToPost: author=→AuthorToAuthor($source.author)",
            ]
        ) {
            Entity("Author") { Attribute("name", .string) }
            Entity("Post") { Relationship("author", to: "Author").required() }
        } destination: {
            Entity("Author") { Attribute("name", .string) }
            Entity("Post") { Relationship("author", to: "Author") }
        },
    ]

    static let hierarchyChanges: [InferableChange] = [
        InferableChange(
            "give an entity a new parent",
            expected: ["add ToContent", "transform PostToPost: title=$source.title"]
        ) {
            Entity("Post") { Attribute("title", .string) }
        } destination: {
            Entity("Content", isAbstract: true) { Attribute("createdAt", .date) }
            Entity("Post", parent: "Content") { Attribute("title", .string) }
        },
        InferableChange(
            "move a property up to the parent",
            expected: [
                "transform ContentToContent",
                "transform PageToPage: title=$source.title, slug=$source.slug",
                "transform PostToPost: title=$source.title, body=$source.body",
            ]
        ) {
            Entity("Content", isAbstract: true) { Attribute("createdAt", .date).transient() }
            Entity("Page", parent: "Content") {
                Attribute("slug", .string)
                Attribute("title", .string)
            }
            Entity("Post", parent: "Content") {
                Attribute("body", .string)
                Attribute("title", .string)
            }
        } destination: {
            Entity("Content", isAbstract: true) { Attribute("title", .string) }
            Entity("Page", parent: "Content") { Attribute("slug", .string) }
            Entity("Post", parent: "Content") { Attribute("body", .string) }
        },
        InferableChange(
            "move a property down to the subentities",
            expected: [
                "transform ContentToContent",
                "transform PageToPage: slug=$source.slug, title=$source.title",
                "transform PostToPost: body=$source.body, title=$source.title",
            ]
        ) {
            Entity("Content", isAbstract: true) { Attribute("title", .string) }
            Entity("Page", parent: "Content") { Attribute("slug", .string) }
            Entity("Post", parent: "Content") { Attribute("body", .string) }
        } destination: {
            Entity("Content", isAbstract: true) { Attribute("createdAt", .date).transient() }
            Entity("Page", parent: "Content") {
                Attribute("slug", .string)
                Attribute("title", .string)
            }
            Entity("Post", parent: "Content") {
                Attribute("body", .string)
                Attribute("title", .string)
            }
        },
        InferableChange(
            "move an entity out of its hierarchy",
            expected: [
                "copy ContentToContent: title=$source.title",
                "transform PageToPage: title=$source.title, slug=$source.slug",
                "copy PostToPost: title=$source.title, body=$source.body",
            ]
        ) {
            Entity("Content", isAbstract: true) { Attribute("title", .string) }
            Entity("Page", parent: "Content") { Attribute("slug", .string) }
            Entity("Post", parent: "Content") { Attribute("body", .string) }
        } destination: {
            Entity("Content", isAbstract: true) { Attribute("title", .string) }
            Entity("Page") {
                Attribute("title", .string)
                Attribute("slug", .string)
            }
            Entity("Post", parent: "Content") { Attribute("body", .string) }
        },
        InferableChange(
            "point a relationship at a new parent of the entities it holds",
            expected: [
                "add ToItem",
                "transform NoteToNote: text=$source.text, owner=→OwnerToOwner($source.owner)",
                "transform OwnerToOwner: items=→ToItem($source.notes)",
                "remove MessageTo",
            ]
        ) {
            Entity("Message", isAbstract: true) {
                Relationship("owner", to: "Owner", inverse: "notes")
            }
            Entity("Note", parent: "Message") { Attribute("text", .string) }
            Entity("Owner") { Relationship("notes", to: "Message", inverse: "owner").toMany() }
        } destination: {
            Entity("Item", isAbstract: true) {
                Relationship("owner", to: "Owner", inverse: "items")
            }
            Entity("Note", parent: "Item") { Attribute("text", .string) }
            Entity("Owner") { Relationship("items", to: "Item", inverse: "owner").toMany().renamed(from: "notes") }
        },
    ]
}

/// One attribute type change inference accepts, and the user info value it records.
struct WideningChange: Sendable, CustomTestStringConvertible {
    var source: AttributeType
    var destination: AttributeType
    var userInfoValue: String

    var testDescription: String { "\(source.rawValue) → \(destination.rawValue)" }

    init(_ source: AttributeType, _ destination: AttributeType, _ userInfoValue: String) {
        self.source = source
        self.destination = destination
        self.userInfoValue = userInfoValue
    }

    static let all: [WideningChange] = [
        WideningChange(.integer16, .integer32, "integer16→integer32"),
        WideningChange(.integer16, .integer64, "integer16→integer64"),
        WideningChange(.integer32, .integer64, "integer32→integer64"),
        WideningChange(.boolean, .integer16, "boolean→integer16"),
        WideningChange(.boolean, .integer32, "boolean→integer32"),
        WideningChange(.boolean, .integer64, "boolean→integer64"),
        WideningChange(.integer16, .double, "integer16→double"),
        WideningChange(.integer32, .double, "integer32→double"),
        WideningChange(.integer64, .double, "integer64→double"),
        WideningChange(.float, .double, "float→double"),
        WideningChange(.integer16, .string, "integer16→string"),
        WideningChange(.integer32, .string, "integer32→string"),
        WideningChange(.integer64, .string, "integer64→string"),
        WideningChange(.double, .string, "double→string"),
        WideningChange(.float, .string, "float→string"),
        WideningChange(.decimal, .string, "decimal→string"),
        WideningChange(.boolean, .string, "boolean→string"),
        WideningChange(.date, .string, "date→string"),
        WideningChange(.uuid, .string, "uuid→string"),
        WideningChange(.uri, .string, "uri→string"),
    ]

    var sourceModel: ObjectModel {
        ObjectModel("A") { Entity("Reading") { Attribute("value", source) } }
    }

    var destinationModel: ObjectModel {
        ObjectModel("B") { Entity("Reading") { Attribute("value", destination) } }
    }
}
