import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Two cases the corpus steps ran into, checked here without the corpus.
@Suite("Migration step edge cases")
struct MigrationStepEdgeCaseTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    static let contentV1 = ObjectModel("Content") {
        Entity("Content", isAbstract: true) { Attribute("title", .string) }
        Entity("Page", parent: "Content") { Attribute("slug", .string) }
        Entity("Post", parent: "Content") { Attribute("body", .string) }
    }

    static let contentV2 = ObjectModel("Content 2") {
        Entity("Content", isAbstract: true) { Attribute("title", .string) }
        Entity("Page", parent: "Content") { Attribute("slug", .string) }
        Entity("Post", parent: "Content") {
            Attribute("body", .string)
            Attribute("likes", .integer64).required().defaultValue("0")
        }
    }

    /// An inferred mapping has an entity mapping for every entity, abstract ones included
    /// (Moody's GeographicRegion, Apptentive's ATRecord). An abstract entity has no rows of
    /// its own, so its mapping creates nothing; the step used to refuse it as "abstract".
    @Test func anInferredMappingOfAnAbstractEntityCreatesNothingAndTheStepRuns() throws {
        let source = directory.path("Content.sqlite")
        try StoreCreator.createStore(at: source, model: Self.contentV1)
        let queue = try DatabaseQueue(path: source.path)
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: Self.contentV1))
            _ = try objects.insert("Page", ["title": "About", "slug": "about"])
            _ = try objects.insert("Post", ["title": "Hello", "body": "First"])
            _ = try objects.insert("Post", ["title": "Again", "body": "Second"])
        }
        try queue.close()

        let destination = directory.path("Content 2.sqlite")
        let report = try MigrationStep(from: Self.contentV1, to: Self.contentV2).run(
            source: source, destination: destination)
        let instances = Dictionary(uniqueKeysWithValues: report.entityMappings.map { ($0.name, $0.instances) })
        #expect(instances == ["ContentToContent": 0, "PageToPage": 1, "PostToPost": 2])

        let result = try DatabaseQueue(path: destination.path).read { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: Self.contentV2))
            return (
                pages: try objects.fetch("Page").map { "\($0.string("title") ?? "") \($0.string("slug") ?? "")" },
                posts: try objects.fetch("Post").map {
                    "\($0.string("title") ?? "") \($0.string("body") ?? "") \($0.int("likes") ?? -1)"
                }
            )
        }
        #expect(result.pages == ["About about"])
        #expect(result.posts == ["Hello First 0", "Again Second 0"])
    }

    /// A destination that exists is refused with `.alreadyExists`, and kept: the step used to
    /// delete the destination's files on *any* failure, including this one.
    @Test func anExistingDestinationIsRefusedAndLeftAsItWas() throws {
        let source = directory.path("Recipes.sqlite")
        try StoreCreator.createStore(at: source, model: RecipesHistory.v1)
        try DemoSeed.seedRecipes(at: source)
        let destination = directory.path("Taken.sqlite")
        try Data("keep me".utf8).write(to: destination)
        try Data("and me".utf8).write(to: URL(fileURLWithPath: destination.path + "-wal"))

        let mapping = try MappingFile.decode(
            Data(SampleMappings.recipes1to2.utf8), source: RecipesHistory.v1, destination: RecipesHistory.v2)
        let step = MigrationStep(
            from: RecipesHistory.v1, to: RecipesHistory.v2, mappingModels: [mapping], policies: SamplePolicies.registry)
        let error = try #require(throws: StoreError.self) {
            try step.run(source: source, destination: destination)
        }
        #expect(error.kind == .alreadyExists)
        #expect(try Data(contentsOf: destination) == Data("keep me".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: destination.path + "-wal")) == Data("and me".utf8))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .filter { $0.hasPrefix(".stepwise-source-") }
        #expect(leftovers.isEmpty, "the private copy of the source is removed")
    }
}
