import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// The set-based path (`INSERT … SELECT`, no row in Swift) and the row-by-row path (a policy
/// per row) must build the same destination from the same source.
@Suite("Set-based and row-by-row paths")
struct SetBasedPathTests {
    /// Publishers, books (and e-books, a subentity), ordered chapters and authors
    /// (many-to-many). v2 is a lightweight change with type widenings and a default for nil.
    enum Library {
        static let v1 = ObjectModel("Library") {
            Entity("Author") {
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "authors").toMany()
            }
            Entity("Book") {
                Attribute("added", .date)
                Attribute("isbn", .string)
                Attribute("name", .string).required()
                Attribute("price", .double)
                Attribute("published", .date)
                Attribute("rating", .integer16)
                Attribute("serial", .integer32).required()
                Relationship("authors", to: "Author", inverse: "books").toMany()
                Relationship("chapters", to: "Chapter", inverse: "book").ordered()
                Relationship("publisher", to: "Publisher", inverse: "books")
            }
            Entity("Chapter") {
                Attribute("pages", .integer32)
                Attribute("title", .string)
                Relationship("book", to: "Book", inverse: "chapters")
            }
            Entity("Ebook", parent: "Book") {
                Attribute("fileSize", .integer64)
            }
            Entity("Publisher") {
                Attribute("country", .string)
                Attribute("name", .string).required()
                Relationship("books", to: "Book", inverse: "publisher").toMany()
            }
        }

        static let v2 = ObjectModel("Library 2") {
            Entity("Author") {
                Attribute("email", .string)
                Attribute("name", .string)
                Relationship("books", to: "Book", inverse: "authors").toMany()
            }
            Entity("Book") {
                Attribute("added", .date)
                Attribute("isbn", .string)
                Attribute("name", .string).required()
                Attribute("price", .double)
                Attribute("published", .string)
                Attribute("rating", .integer32)
                Attribute("serial", .integer64).required()
                Attribute("subtitle", .string)
                Relationship("authors", to: "Author", inverse: "books").toMany()
                Relationship("chapters", to: "Chapter", inverse: "book").ordered()
                Relationship("publisher", to: "Publisher", inverse: "books")
            }
            Entity("Chapter") {
                Attribute("pages", .integer64)
                Attribute("title", .string)
                Relationship("book", to: "Book", inverse: "chapters")
            }
            Entity("Ebook", parent: "Book") {
                Attribute("fileSize", .integer64)
            }
            Entity("Publisher") {
                Attribute("country", .string).required().defaultValue("unknown")
                Attribute("name", .string).required()
                Relationship("books", to: "Book", inverse: "publisher").toMany()
            }
        }

        /// Name stems: Unicode, case and diacritic variants of "a…", and one that is empty.
        static let stems = [
            "apple", "Apple", "Äpfel", "avocado", "Ångström", "ábaco", "banana", "東京", "🙂 smile", "naïve café",
            "Zürich", "apricot", "ASCII", "a", "",
        ]

        /// 20 publishers, 300 authors, 1,000 books of which 143 e-books (minus 11 deleted,
        /// leaving key gaps), 1,200 chapters; NULLs in every optional attribute and relationship.
        static func seed(_ objects: ObjectContext) throws {
            let countries = ["France", "日本", "Deutschland"]
            let publishers = try (0..<20).map { index in
                try objects.insert(
                    "Publisher",
                    [
                        "name": "Publisher \(index) \(stems[index % stems.count])",
                        "country": index % 4 == 0 ? nil : countries[index % 3],
                    ])
            }
            let authors = try (0..<300).map { index in
                try objects.insert("Author", ["name": index % 9 == 0 ? nil : "\(stems[index % stems.count]) \(index)"])
            }
            var books: [ObjectID] = []
            for index in 0..<1_000 {
                var values: [String: (any DatabaseValueConvertible)?] = [
                    "name": "\(stems[index % stems.count]) \(index)", "serial": index,
                    "rating": index % 6 == 0 ? nil : index % 5, "price": index % 5 == 0 ? nil : Double(index) * 0.37,
                    "published": index % 3 == 0
                        ? nil : Date(timeIntervalSinceReferenceDate: Double(index) * 86_400.125),
                    "added": Date(timeIntervalSinceReferenceDate: Double(index * 1_000)),
                    "isbn": index % 4 == 0 ? nil : "978-\(index)",
                    "publisher": index % 11 == 0 ? nil : publishers[index % 20],
                ]
                let isEbook = index % 7 == 3
                if isEbook { values["fileSize"] = index % 2 == 0 ? nil : Int64(index) * 1_000_000_007 }
                let book = try objects.insert(isEbook ? "Ebook" : "Book", values)
                books.append(book)
                guard index % 10 != 0 else { continue }
                for author in Set([index * 7 % 300, index * 13 % 300]).sorted() {
                    try objects.relate(book, "authors", to: authors[author])
                }
            }
            let chapters = try (0..<1_200).map { index in
                try objects.insert(
                    "Chapter",
                    [
                        "title": index % 17 == 0 ? nil : "Chapter \(index) ✦",
                        "pages": index % 8 == 0 ? nil : index % 300,
                    ])
            }
            // Three chapters for each of the first 400 books, attached in reverse key order so
            // that the positions disagree with the primary keys.
            for book in 0..<400 {
                for chapter in (book * 3..<book * 3 + 3).reversed() {
                    try objects.relate(books[book], "chapters", to: chapters[chapter])
                }
            }
            for index in stride(from: 5, to: 1_000, by: 97) {
                try objects.delete(books[index])
            }
        }
    }

    /// Overrides nothing: its only effect is to make a mapping run row by row.
    final class PassivePolicy: EntityMigrationPolicy {}

    static var passive: PolicyRegistry {
        var policies = PolicyRegistry()
        policies.register("Passive") { PassivePolicy() }
        return policies
    }

    enum Path: String, CaseIterable, Sendable {
        case setBased, rowByRow
    }

    /// The seeded source and both paths' results of the inferred step, made once.
    final class Fixture: Sendable {
        let directory: TemporaryDirectory
        let source: URL
        let destinations: [Path: URL]
        let reports: [Path: StepReport]

        init() throws {
            directory = try TemporaryDirectory()
            source = directory.path("Library.sqlite")
            try StepFixtures.store(at: source, model: Library.v1, Library.seed)
            var inferred = try MappingInference.inferMapping(from: Library.v1, to: Library.v2)
            let setBased = directory.path("set-based.sqlite")
            let rowByRow = directory.path("row-by-row.sqlite")
            let setBasedReport = try MigrationStep(from: Library.v1, to: Library.v2).run(
                source: source, destination: setBased)
            for index in inferred.entityMappings.indices {
                inferred.entityMappings[index].policyName = "Passive"
            }
            let rowByRowReport = try MigrationStep(
                from: Library.v1, to: Library.v2, mappingModels: [inferred], policies: passive
            ).run(source: source, destination: rowByRow)
            destinations = [.setBased: setBased, .rowByRow: rowByRow]
            reports = [.setBased: setBasedReport, .rowByRow: rowByRowReport]
        }

        static let shared = Result { try Fixture() }
    }

    var fixture: Fixture {
        get throws { try Fixture.shared.get() }
    }

    // MARK: The inferred step

    @Test func theInferredStepIsSetBasedForEveryMappingAndTheForcedOneIsNot() throws {
        let reports = try fixture.reports
        let setBased = try #require(reports[.setBased])
        let rowByRow = try #require(reports[.rowByRow])
        #expect(setBased.kind == .inferred)
        #expect(
            setBased.entityMappings.map(\.name).sorted() == [
                "AuthorToAuthor", "BookToBook", "ChapterToChapter", "EbookToEbook", "PublisherToPublisher",
            ])
        #expect(setBased.entityMappings.allSatisfy { $0.setBased })
        #expect(rowByRow.entityMappings.allSatisfy { !$0.setBased })
        #expect(setBased.rows == rowByRow.rows)
        #expect(setBased.rows == 20 + 300 + 989 + 1_200)
    }

    @Test func bothPathsWriteTheSameRowsInEveryTable() throws {
        let destinations = try fixture.destinations
        let setBased = try StepFixtures.dump(try #require(destinations[.setBased]))
        let rowByRow = try StepFixtures.dump(try #require(destinations[.rowByRow]))
        #expect(setBased.keys.sorted() == rowByRow.keys.sorted())
        for table in setBased.keys.sorted() {
            let left = setBased[table] ?? []
            let right = rowByRow[table] ?? []
            #expect(left.count == right.count, "\(table)")
            let differences = zip(left, right).filter { $0 != $1 }.prefix(3)
            #expect(differences.isEmpty, "\(table): set-based vs row by row \(Array(differences))")
        }
    }

    @Test(arguments: Path.allCases)
    func valuesNullsUnicodeAndWideningsArrive(path: Path) throws {
        let destination = try #require(try fixture.destinations[path])
        let (book, publisher, author, ebook) = try StepFixtures.read(destination, Library.v2) { objects in
            (
                try #require(try objects.fetch("Book", where: .equal("serial", 4)).first),
                try #require(try objects.fetch("Publisher", where: .equal("name", "Publisher 0 apple")).first),
                try #require(try objects.fetch("Author", where: .equal("name", "東京 7")).first),
                try #require(try objects.fetch("Ebook", where: .equal("serial", 10)).first)
            )
        }
        #expect(book.string("name") == "Ångström 4")
        #expect(book.int("rating") == 4)
        #expect(book.double("price") == 4 * 0.37)
        // Date → String: ISO 8601 in UTC with milliseconds (0.5 day + 0.5 s after 2001-01-01).
        #expect(book.string("published") == "2001-01-05T00:00:00.500Z")
        #expect(book.string("subtitle") == nil)
        #expect(publisher.string("country") == "unknown")
        #expect(author.string("email") == nil)
        #expect(ebook.int("fileSize") == nil)
        #expect(ebook.string("isbn") == "978-10")
    }

    @Test(arguments: Path.allCases)
    func primaryKeysAreDenseFromOnePerRootTableInSourceOrder(path: Path) throws {
        let fixture = try fixture
        let destination = try #require(fixture.destinations[path])
        let sourceOrder = try StepFixtures.read(fixture.source, Library.v1) { objects in
            [
                try objects.fetch("Book", includingSubentities: false).compactMap { $0.int("serial") },
                try objects.fetch("Ebook").compactMap { $0.int("serial") },
            ]
        }
        let (keys, destinationOrder, counts) = try StepFixtures.read(destination, Library.v2) { objects in
            let plain = try objects.fetch("Book", includingSubentities: false)
            let ebooks = try objects.fetch("Ebook")
            return (
                [plain.map(\.id.primaryKey), ebooks.map(\.id.primaryKey)],
                [plain.compactMap { $0.int("serial") }, ebooks.compactMap { $0.int("serial") }],
                try ["Author", "Book", "Chapter", "Publisher"].map { ($0, try objects.count($0)) }
            )
        }
        #expect(destinationOrder == sourceOrder)
        #expect((keys[0] + keys[1]).sorted() == Array(1...Int64(keys[0].count + keys[1].count)))
        for entityKeys in keys {
            #expect(entityKeys == Array((entityKeys.first ?? 1)...(entityKeys.last ?? 0)), "contiguous")
        }
        let maxima = try StepFixtures.maxima(destination)
        for (entity, count) in counts {
            #expect(maxima[entity] == count, "Z_MAX of \(entity)")
        }
        #expect(counts.map(\.1) == [300, 989, 1_200, 20])
    }

    @Test(arguments: Path.allCases)
    func relationshipsArriveWithOrderedPositionsKept(path: Path) throws {
        let fixture = try fixture
        let destination = try #require(fixture.destinations[path])
        func links(_ url: URL, _ model: ObjectModel) throws -> [String] {
            try StepFixtures.read(url, model) { objects in
                try objects.fetch("Book").map { book in
                    let chapters = try objects.related(book.id, "chapters").map {
                        try objects.object($0).string("title") ?? "nil"
                    }
                    let authors = try objects.related(book.id, "authors").map {
                        try objects.object($0).string("name") ?? "nil"
                    }.sorted()
                    let publisher = try objects.related(book.id, "publisher").map {
                        try objects.object($0).string("name") ?? "nil"
                    }
                    return "\(book.int("serial") ?? -1): \(chapters) \(authors) \(publisher)"
                }.sorted()
            }
        }
        let expected = try links(fixture.source, Library.v1)
        let actual = try links(destination, Library.v2)
        #expect(actual.count == expected.count)
        let differences = zip(expected, actual).filter { $0 != $1 }.prefix(3)
        #expect(differences.isEmpty, "\(Array(differences))")
        // Attached in reverse key order: the positions, not the keys, give the order.
        #expect(actual.first?.hasPrefix(#"0: ["Chapter 2 ✦", "Chapter 1 ✦", "nil"]"#) == true)
    }

    // MARK: Explicit mappings

    /// An explicit mapping of every entity but e-books, with `bookFilter` on books.
    static func explicitMapping(bookFilter: String?, policy: String?) -> String {
        let policyKey = policy.map { #", "policy": "\#($0)""# } ?? ""
        let filterKey = bookFilter.map { #", "filter": "\#($0.replacingOccurrences(of: "\"", with: "\\\""))""# } ?? ""
        return """
            { "source": "Library", "destination": "Library 2", "entityMappings": [
                { "source": "Publisher", "destination": "Publisher"\(policyKey) },
                { "source": "Author", "destination": "Author"\(policyKey) },
                { "source": "Book", "destination": "Book"\(policyKey)\(filterKey), "attributes": { "published": "nil" } },
                { "source": "Chapter", "destination": "Chapter"\(policyKey) }
            ] }
            """
    }

    func runExplicit(bookFilter: String?, path: Path, in directory: TemporaryDirectory) throws -> (URL, StepReport) {
        let text = Self.explicitMapping(bookFilter: bookFilter, policy: path == .rowByRow ? "Passive" : nil)
        let models = try StepFixtures.mappingModels([text], from: Library.v1, to: Library.v2)
        let destination = directory.path("\(path).sqlite")
        let report = try MigrationStep(from: Library.v1, to: Library.v2, mappingModels: models, policies: Self.passive)
            .run(source: try fixture.source, destination: destination)
        return (destination, report)
    }

    @Test func aFilterSelectsTheSameRowsOnBothPaths() throws {
        let directory = try TemporaryDirectory()
        let filter = #"name BEGINSWITH[c] "a" AND rating > 2"#
        var selected: [Path: [String]] = [:]
        for path in Path.allCases {
            let (destination, report) = try runExplicit(bookFilter: filter, path: path, in: directory)
            #expect(report.entityMappings.allSatisfy { $0.setBased == (path == .setBased) })
            selected[path] = try StepFixtures.read(destination, Library.v2) { objects in
                try objects.fetch("Book").compactMap { $0.string("name") }
            }
        }
        let expected = try StepFixtures.read(try fixture.source, Library.v1) { objects in
            try objects.fetch("Book", includingSubentities: false).filter { book in
                (book.string("name") ?? "").lowercased().hasPrefix("a") && (book.int("rating") ?? 0) > 2
            }.compactMap { $0.string("name") }
        }
        #expect(expected.count > 50)
        #expect(selected[.setBased] == expected)
        #expect(selected[.rowByRow] == expected)
        #expect(expected.allSatisfy { !$0.hasPrefix("Ä") && !$0.hasPrefix("Å") && !$0.hasPrefix("á") })
    }

    @Test(arguments: Path.allCases)
    func aParentsMappingDoesntTakeItsSubentitysRows(path: Path) throws {
        let directory = try TemporaryDirectory()
        let (destination, report) = try runExplicit(bookFilter: nil, path: path, in: directory)
        #expect(
            report.entityMappings.map(\.name) == [
                "PublisherToPublisher", "AuthorToAuthor", "BookToBook", "ChapterToChapter",
            ])
        let (books, ebooks, ebookAuthorsLinks) = try StepFixtures.read(destination, Library.v2) { objects in
            (
                try objects.count("Book"), try objects.count("Ebook"),
                try objects.fetch("Author").reduce(0) { $0 + (try objects.related($1.id, "books").count) }
            )
        }
        let (sourceBooks, sourceLinks) = try StepFixtures.read(try fixture.source, Library.v1) { objects in
            (
                try objects.count("Book", includingSubentities: false),
                try objects.fetch("Book", includingSubentities: false).reduce(0) {
                    $0 + (try objects.related($1.id, "authors").count)
                }
            )
        }
        #expect(ebooks == 0)
        #expect(books == sourceBooks)
        #expect(report.entityMappings[2].instances == sourceBooks)
        // Authors keep only the links to books that were migrated.
        #expect(ebookAuthorsLinks == sourceLinks)
    }
}
