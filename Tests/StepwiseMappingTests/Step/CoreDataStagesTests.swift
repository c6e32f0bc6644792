import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// What a policy sees of the destination in each of Core Data's stages: stage 1 creates
/// instances and attributes with no relationship; stage 2 creates relationships mapping by
/// mapping, in the mapping model's order; stage 3 validates, with every link made. The
/// set-based paths of the mappings without a policy must not show a link any earlier.
@Suite("Core Data's stages")
struct CoreDataStagesTests {
    /// Portraits, authors, books, notes and reviews; every relationship has an inverse, and
    /// `Author.portrait` ↔ `Portrait.author` is a one-to-one. v2 adds a rating to reviews.
    static func library(_ name: String, rating: Bool) -> ObjectModel {
        ObjectModel(name) {
            Entity("Portrait") {
                Attribute("caption", .string)
                Relationship("author", to: "Author", inverse: "portrait")
            }
            Entity("Author") {
                Attribute("name", .string)
                Relationship("portrait", to: "Portrait", inverse: "author")
                Relationship("books", to: "Book", inverse: "author").toMany()
            }
            Entity("Book") {
                Attribute("title", .string)
                Relationship("author", to: "Author", inverse: "books")
                Relationship("notes", to: "Note", inverse: "book").toMany()
                Relationship("reviews", to: "Review", inverse: "book").toMany()
            }
            Entity("Note") {
                Attribute("text", .string)
                Relationship("book", to: "Book", inverse: "notes")
            }
            Entity("Review") {
                if rating { Attribute("rating", .integer16) }
                Attribute("text", .string)
                Relationship("book", to: "Book", inverse: "reviews")
            }
        }
    }

    static let v1 = library("Library", rating: false)
    static let v2 = library("Library 2", rating: true)

    /// Each relationship is mapped on one side only, in this order: Portrait.author (a
    /// one-to-one), Book.author, Note.book (the observing policy's own), Review.book. Author
    /// and Book copy no other property, so `Author.portrait`, `Author.books`, `Book.notes`
    /// and `Book.reviews` are only ever the inverses. Only NoteToNote has a policy, `policy`.
    static func mapping(policy: String?) -> String {
        func link(_ mapping: String, _ path: String) -> String {
            "FUNCTION($manager, \\\"destinationInstancesForEntityMappingNamed:sourceInstances:\\\", \\\"\(mapping)\\\", $source.\(path))"
        }
        let notePolicy = policy.map { ", \"policy\": \"\($0)\"" } ?? ""
        return """
            { "name": "Library → Library 2", "source": "Library", "destination": "Library 2",
              "entityMappings": [
                { "name": "PortraitToPortrait", "source": "Portrait", "destination": "Portrait",
                  "attributes": { "caption": "$source.caption" },
                  "relationships": { "author": "\(link("AuthorToAuthor", "author"))" } },
                { "name": "AuthorToAuthor", "source": "Author", "destination": "Author",
                  "copyMatchingProperties": false, "attributes": { "name": "$source.name" } },
                { "name": "BookToBook", "source": "Book", "destination": "Book", "copyMatchingProperties": false,
                  "attributes": { "title": "$source.title" },
                  "relationships": { "author": "\(link("AuthorToAuthor", "author"))" } },
                { "name": "NoteToNote", "source": "Note", "destination": "Note"\(notePolicy),
                  "attributes": { "text": "$source.text" },
                  "relationships": { "book": "\(link("BookToBook", "book"))" } },
                { "name": "ReviewToReview", "source": "Review", "destination": "Review",
                  "attributes": { "text": "$source.text" },
                  "relationships": { "book": "\(link("BookToBook", "book"))" } }
              ] }
            """
    }

    let directory: TemporaryDirectory
    let source: URL

    /// Two authors, each with a portrait and a book; three notes and two reviews on the books.
    init() throws {
        directory = try TemporaryDirectory()
        source = directory.path("Library.sqlite")
        try StepFixtures.store(at: source, model: Self.v1) { objects in
            for name in ["Le Guin", "Lem"] {
                let author = try objects.insert("Author", ["name": name])
                _ = try objects.insert("Portrait", ["caption": "\(name) at work", "author": author])
                let book = try objects.insert("Book", ["title": "A book by \(name)", "author": author])
                _ = try objects.insert("Note", ["text": "Note on \(name)", "book": book])
                _ = try objects.insert("Review", ["text": "Review of \(name)", "book": book])
            }
            _ = try objects.insert("Note", ["text": "Loose note"])
        }
    }

    func run(policies: PolicyRegistry, policy: String?, to name: String) throws -> URL {
        let destination = directory.path(name)
        let models = try StepFixtures.mappingModels([Self.mapping(policy: policy)], from: Self.v1, to: Self.v2)
        _ = try MigrationStep(from: Self.v1, to: Self.v2, mappingModels: models, policies: policies)
            .run(source: source, destination: destination)
        return destination
    }

    @Test func aPolicySeesInEachStageWhatCoreDatasWould() throws {
        let log = HookLog()
        var policies = PolicyRegistry()
        policies.register("Observing") { ObservingPolicy(log: log) }
        _ = try run(policies: policies, policy: "Observing", to: "Observed.sqlite")
        let nothing = "portrait.author 0, author.portrait 0, book.author 0, author.books 0, note.book 0, review.book 0"
        #expect(
            log.entries(of: "NoteToNote") == [
                // Stage 1: instances and attributes, no relationship, although the set-based
                // Book and Review mappings could have written their foreign keys on insert.
                "create: \(nothing)",
                "create: \(nothing)",
                "create: \(nothing)",
                "endInstanceCreation: \(nothing)",
                // Stage 2, fourth mapping: the links of the three before it, with both ends of
                // the one-to-one and the inverse to-many; its own as it makes them; none of
                // ReviewToReview's, which comes after.
                "relationships: portrait.author 2, author.portrait 2, book.author 2, author.books 2, note.book 0, review.book 0",
                "relationships: portrait.author 2, author.portrait 2, book.author 2, author.books 2, note.book 1, review.book 0",
                "relationships: portrait.author 2, author.portrait 2, book.author 2, author.books 2, note.book 2, review.book 0",
                "endRelationshipCreation: portrait.author 2, author.portrait 2, book.author 2, author.books 2, note.book 2, review.book 0",
                // Stage 3: every link.
                "performCustomValidation: portrait.author 2, author.portrait 2, book.author 2, author.books 2, note.book 2, review.book 2",
                "end: portrait.author 2, author.portrait 2, book.author 2, author.books 2, note.book 2, review.book 2",
            ])
    }

    @Test func theStagesDontChangeTheStoreTheStepWrites() throws {
        // The observing policy only reads and calls super: the store is the one the step
        // writes without any policy, set-based throughout.
        let log = HookLog()
        var policies = PolicyRegistry()
        policies.register("Observing") { ObservingPolicy(log: log) }
        let observed = try run(policies: policies, policy: "Observing", to: "Observed.sqlite")
        let plain = try run(policies: PolicyRegistry(), policy: nil, to: "Plain.sqlite")
        #expect(try StepFixtures.dump(observed) == StepFixtures.dump(plain))
    }
}

/// Records, at each hook, how many links of each kind the destination shows through the
/// manager: to-ones through `related`, to-manys counted object by object, and one to-one
/// through a fetch with a predicate.
final class ObservingPolicy: EntityMigrationPolicy {
    let log: HookLog

    init(log: HookLog) {
        self.log = log
        super.init()
    }

    required init() {
        log = HookLog()
        super.init()
    }

    func snapshot(_ manager: MigrationManager) throws -> String {
        let objects = manager.destination
        func toOnes(_ entity: String, _ relationship: String) throws -> Int {
            try objects.fetch(entity).filter { try !objects.related($0.id, relationship).isEmpty }.count
        }
        let books = try objects.fetch("Author").reduce(0) { $0 + (try objects.related($1.id, "books").count) }
        let reviews = try objects.count("Review", where: .isNotNil("book"))
        return [
            "portrait.author \(try toOnes("Portrait", "author"))",
            "author.portrait \(try toOnes("Author", "portrait"))",
            "book.author \(try toOnes("Book", "author"))", "author.books \(books)",
            "note.book \(try toOnes("Note", "book"))", "review.book \(reviews)",
        ].joined(separator: ", ")
    }

    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        log.append(mapping, "create: \(try snapshot(manager))")
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }

    override func endInstanceCreation(for mapping: EntityMapping, manager: MigrationManager) throws {
        log.append(mapping, "endInstanceCreation: \(try snapshot(manager))")
    }

    override func createRelationships(
        forDestination destination: ObjectID, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        log.append(mapping, "relationships: \(try snapshot(manager))")
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    }

    override func endRelationshipCreation(for mapping: EntityMapping, manager: MigrationManager) throws {
        log.append(mapping, "endRelationshipCreation: \(try snapshot(manager))")
    }

    override func performCustomValidation(for mapping: EntityMapping, manager: MigrationManager) throws {
        log.append(mapping, "performCustomValidation: \(try snapshot(manager))")
    }

    override func end(_ mapping: EntityMapping, manager: MigrationManager) throws {
        log.append(mapping, "end: \(try snapshot(manager))")
    }
}
