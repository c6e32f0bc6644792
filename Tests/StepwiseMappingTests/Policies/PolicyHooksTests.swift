import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Entity migration policies: the order of their hooks, what `super` does, what they share
/// through the manager, and how their failures are reported.
@Suite("Policy hooks")
struct PolicyHooksTests {
    /// Authors and their books; v2 adds a page count.
    enum Shelf {
        static let v1 = ObjectModel("Shelf") {
            Entity("Author") {
                Attribute("name", .string).required()
                Relationship("books", to: "Book", inverse: "author").toMany()
            }
            Entity("Book") {
                Attribute("title", .string).required()
                Relationship("author", to: "Author", inverse: "books")
            }
        }

        static let v2 = ObjectModel("Shelf 2") {
            Entity("Author") {
                Attribute("name", .string).required()
                Relationship("books", to: "Book", inverse: "author").toMany()
            }
            Entity("Book") {
                Attribute("pages", .integer32)
                Attribute("title", .string).required()
                Relationship("author", to: "Author", inverse: "books")
            }
        }

        /// A mapping file for v1 → v2; `authorPolicy` and `bookPolicy` go in the `policy` keys.
        static func mapping(
            authorPolicy: String? = nil, bookPolicy: String? = nil, bookTitle: String = "$source.title",
            name: String = "Shelf → Shelf 2", only: String? = nil
        ) -> String {
            func policy(_ name: String?) -> String { name.map { ", \"policy\": \"\($0)\"" } ?? "" }
            let author = """
                { "name": "AuthorToAuthor", "source": "Author", "destination": "Author"\(policy(authorPolicy)) }
                """
            let book = """
                { "name": "BookToBook", "source": "Book", "destination": "Book"\(policy(bookPolicy)),
                  "attributes": { "title": "\(bookTitle.replacingOccurrences(of: "\"", with: "\\\""))" },
                  "relationships": {
                    "author": "FUNCTION($manager, \\"destinationInstancesForEntityMappingNamed:sourceInstances:\\", \\"AuthorToAuthor\\", $source.author)"
                  } }
                """
            let mappings = only == "Author" ? [author] : only == "Book" ? [book] : [author, book]
            return """
                { "name": "\(name)", "source": "Shelf", "destination": "Shelf 2",
                  "entityMappings": [\(mappings.joined(separator: ", "))] }
                """
        }
    }

    let directory: TemporaryDirectory
    let source: URL
    let destination: URL

    /// Two authors; three books (Z_PK 1…3), the third without an author.
    init() throws {
        directory = try TemporaryDirectory()
        source = directory.path("Shelf.sqlite")
        destination = directory.path("Shelf 2.sqlite")
        try StepFixtures.store(at: source, model: Shelf.v1) { objects in
            let le = try objects.insert("Author", ["name": "Ursula K. Le Guin"])
            let lem = try objects.insert("Author", ["name": "Stanisław Lem"])
            _ = try objects.insert("Book", ["title": "The Dispossessed", "author": le])
            _ = try objects.insert("Book", ["title": "Solaris", "author": lem])
            _ = try objects.insert("Book", ["title": "Anonymous"])
        }
    }

    func run(
        _ texts: [String], policies: PolicyRegistry, stage: MigrationStage? = nil
    ) throws -> StepReport {
        let models = try StepFixtures.mappingModels(texts, from: Shelf.v1, to: Shelf.v2)
        return try MigrationStep(from: Shelf.v1, to: Shelf.v2, mappingModels: models, policies: policies, stage: stage)
            .run(source: source, destination: destination)
    }

    /// `name → author name` of every destination book.
    func books(_ url: URL) throws -> [String: String?] {
        try StepFixtures.read(url, Shelf.v2) { objects in
            var result: [String: String?] = [:]
            for book in try objects.fetch("Book") {
                let author = try objects.related(book.id, "author").first.map { try objects.object($0).string("name") }
                result.updateValue(author ?? nil, forKey: book.string("title") ?? "")
            }
            return result
        }
    }

    // MARK: Order

    @Test func theHooksRunInCoreDatasOrderForEachEntityMapping() throws {
        let log = HookLog()
        var policies = PolicyRegistry()
        policies.register("Recording") { RecordingPolicy(log: log) }
        _ = try run([Shelf.mapping(authorPolicy: "Recording", bookPolicy: "Recording")], policies: policies)
        #expect(
            log.entries(of: "AuthorToAuthor") == [
                "begin", "create 1", "create 2", "endInstanceCreation", "relationships 1", "relationships 2",
                "endRelationshipCreation", "performCustomValidation", "end",
            ])
        #expect(
            log.entries(of: "BookToBook") == [
                "begin", "create 1", "create 2", "create 3", "endInstanceCreation", "relationships 1",
                "relationships 2", "relationships 3", "endRelationshipCreation", "performCustomValidation", "end",
            ])
        // Pass 1 of every mapping ends before pass 2 of any starts, and pass 2 before pass 3.
        let all = log.entries
        let lastCreation = try #require(all.lastIndex { $0.hasSuffix("endInstanceCreation") })
        let firstRelationship = try #require(all.firstIndex { $0.contains(" relationships ") })
        let lastRelationship = try #require(all.lastIndex { $0.hasSuffix("endRelationshipCreation") })
        let firstValidation = try #require(all.firstIndex { $0.hasSuffix("performCustomValidation") })
        #expect(lastCreation < firstRelationship)
        #expect(lastRelationship < firstValidation)
    }

    @Test func createRelationshipsRunsOncePerDestinationInstance() throws {
        // The policy makes one Book per distinct first letter: 1,500 sources, 3 destinations.
        let many = directory.path("Many.sqlite")
        try StepFixtures.store(at: many, model: Shelf.v1) { objects in
            for index in 0..<1_500 {
                _ = try objects.insert("Book", ["title": ["Alpha", "Beta", "Gamma"][index % 3] + " \(index)"])
            }
        }
        let log = HookLog()
        var policies = PolicyRegistry()
        policies.register("Merging") { MergingPolicy(log: log) }
        let models = try StepFixtures.mappingModels(
            [Shelf.mapping(bookPolicy: "Merging")], from: Shelf.v1, to: Shelf.v2)
        let report = try MigrationStep(from: Shelf.v1, to: Shelf.v2, mappingModels: models, policies: policies)
            .run(source: many, destination: destination)
        #expect(
            log.entries(of: "BookToBook").filter { $0.hasPrefix("relationships") } == [
                "relationships 1", "relationships 2", "relationships 3",
            ])
        #expect(report.entityMappings.map(\.instances) == [0, 3])
        #expect(report.entityMappings.map(\.links) == [0, 3])
    }

    @Test func callingSuperInEveryHookGivesTheDefaultBehaviour() throws {
        let log = HookLog()
        var policies = PolicyRegistry()
        policies.register("Recording") { RecordingPolicy(log: log) }
        let withPolicies = try run(
            [Shelf.mapping(authorPolicy: "Recording", bookPolicy: "Recording")], policies: policies)
        let plain = directory.path("Plain.sqlite")
        let models = try StepFixtures.mappingModels([Shelf.mapping()], from: Shelf.v1, to: Shelf.v2)
        let without = try MigrationStep(from: Shelf.v1, to: Shelf.v2, mappingModels: models)
            .run(source: source, destination: plain)
        #expect(withPolicies.entityMappings.map(\.setBased) == [false, false])
        #expect(without.entityMappings.map(\.setBased) == [true, true])
        #expect(try StepFixtures.dump(destination) == StepFixtures.dump(plain))
        #expect(
            try books(destination) == [
                "The Dispossessed": "Ursula K. Le Guin", "Solaris": "Stanisław Lem", "Anonymous": nil,
            ])
    }

    @Test func notCallingSuperCreatesNothingAndSkipsPassTwo() throws {
        let log = HookLog()
        var policies = PolicyRegistry()
        policies.register("Recording") { RecordingPolicy(log: log) }
        policies.register("Skipping") { SkippingPolicy(log: log) }
        let report = try run([Shelf.mapping(authorPolicy: "Recording", bookPolicy: "Skipping")], policies: policies)
        #expect(report.entityMappings.map(\.instances) == [2, 0])
        #expect(try books(destination).isEmpty)
        #expect(log.entries(of: "BookToBook").filter { $0.hasPrefix("relationships") }.isEmpty)
        let authors = try StepFixtures.read(destination, Shelf.v2) { objects in
            try objects.fetch("Author").map { try objects.related($0.id, "books").count }
        }
        #expect(authors == [0, 0])
    }

    // MARK: What policies share

    @Test(arguments: [false, true])
    func userInfoIsSharedByEveryMappingOfTheStep(inTwoMappingModels: Bool) throws {
        let log = HookLog()
        var policies = PolicyRegistry()
        policies.register("Sharing") { SharingPolicy(log: log) }
        let texts =
            inTwoMappingModels
            ? [
                Shelf.mapping(authorPolicy: "Sharing", name: "one", only: "Author"),
                Shelf.mapping(bookPolicy: "Sharing", name: "two", only: "Book"),
            ]
            : [Shelf.mapping(authorPolicy: "Sharing", bookPolicy: "Sharing")]
        _ = try run(texts, policies: policies)
        #expect(log.entries(of: "BookToBook").last == "end saw AuthorToAuthor, BookToBook")
        #expect(log.entries(of: "AuthorToAuthor").first == "begin saw ")
        // A new step starts with an empty userInfo.
        try FileManager.default.removeItem(at: destination)
        _ = try run(texts, policies: policies)
        #expect(log.entries(of: "AuthorToAuthor").filter { $0.hasPrefix("begin") } == ["begin saw ", "begin saw "])
    }

    @Test func associationsRoundTripAndOneSourceMayMakeSeveralInstances() throws {
        let log = HookLog()
        var policies = PolicyRegistry()
        policies.register("Recording") { RecordingPolicy(log: log) }
        policies.register("Copies") { CopiesPolicy(log: log) }
        let report = try run([Shelf.mapping(authorPolicy: "Recording", bookPolicy: "Copies")], policies: policies)
        #expect(report.entityMappings.map(\.instances) == [2, 6])
        #expect(
            log.entries(of: "BookToBook").filter { $0.hasPrefix("lookup") } == [
                "lookup Book#1 → Book#1, Book#2 → Book#1", "lookup Book#3 → Book#2, Book#4 → Book#2",
                "lookup Book#5 → Book#3, Book#6 → Book#3",
            ])
        #expect(
            try books(destination) == [
                "The Dispossessed (1)": "Ursula K. Le Guin", "The Dispossessed (2)": "Ursula K. Le Guin",
                "Solaris (1)": "Stanisław Lem", "Solaris (2)": "Stanisław Lem", "Anonymous (1)": nil,
                "Anonymous (2)": nil,
            ])
        let perAuthor = try StepFixtures.read(destination, Shelf.v2) { objects in
            try objects.fetch("Author").map { try objects.related($0.id, "books").count }
        }
        #expect(perAuthor == [2, 2])
    }

    @Test func lookingUpAMappingThatDoesntExistIsAnError() throws {
        var policies = PolicyRegistry()
        policies.register("Lost") { LostPolicy() }
        let error = #expect(throws: MappingError.self) {
            try run([Shelf.mapping(bookPolicy: "Lost")], policies: policies)
        }
        #expect(error?.kind == .unknownEntityMapping("NoSuchMapping"))
        #expect(error?.entityMapping == "BookToBook")
        #expect(error?.sourcePrimaryKey == 1)
    }

    // MARK: Failures

    struct Boom: Error, CustomStringConvertible {
        var description: String { "boom" }
    }

    struct FailureCase: Sendable, CustomTestStringConvertible {
        var hook: String
        /// Whether the policy throws a MappingError of its own (else `Boom`).
        var throwsMappingError: Bool
        var sourcePrimaryKey: Int64?
        var testDescription: String { "\(hook), \(throwsMappingError ? "MappingError" : "another error")" }
    }

    static let failureCases: [FailureCase] = [true, false].flatMap { throwsMappingError in
        [
            FailureCase(hook: "begin", throwsMappingError: throwsMappingError),
            FailureCase(hook: "create", throwsMappingError: throwsMappingError, sourcePrimaryKey: 3),
            FailureCase(hook: "endInstanceCreation", throwsMappingError: throwsMappingError),
            FailureCase(hook: "relationships", throwsMappingError: throwsMappingError, sourcePrimaryKey: 3),
            FailureCase(hook: "endRelationshipCreation", throwsMappingError: throwsMappingError),
            FailureCase(hook: "performCustomValidation", throwsMappingError: throwsMappingError),
            FailureCase(hook: "end", throwsMappingError: throwsMappingError),
        ]
    }

    @Test(arguments: failureCases)
    func aFailingPolicyFailsTheStepNamingTheMappingEntityAndRowAndLeavesNothing(_ failure: FailureCase) throws {
        let before = StepFixtures.bytes(source)
        var policies = PolicyRegistry()
        policies.register("Failing") {
            FailingPolicy(hook: failure.hook, primaryKey: 3, throwsMappingError: failure.throwsMappingError)
        }
        let error = #expect(throws: MappingError.self) {
            try run([Shelf.mapping(bookPolicy: "Failing")], policies: policies)
        }
        let kind: MappingError.Kind = failure.throwsMappingError ? .invalidValue("rejected") : .policyFailed("boom")
        #expect(error?.kind == kind)
        #expect(error?.mappingModel == "Shelf → Shelf 2")
        #expect(error?.entityMapping == "BookToBook")
        #expect(error?.entity == "Book")
        #expect(error?.sourcePrimaryKey == failure.sourcePrimaryKey)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(StepFixtures.bytes(source) == before)
        #expect(StepFixtures.files(in: directory.url) == ["Shelf.sqlite"])
    }

    @Test(arguments: [nil, "Recording"])
    func anUnknownPolicyFunctionIsAnUnknownFunctionError(policy: String?) throws {
        var policies = PolicyRegistry()
        policies.register("Recording") { RecordingPolicy(log: HookLog()) }
        let error = #expect(throws: MappingError.self) {
            try run(
                [Shelf.mapping(bookPolicy: policy, bookTitle: #"FUNCTION($entityPolicy, "unknown:", $source.title)"#)],
                policies: policies)
        }
        #expect(error?.kind == .unknownFunction("unknown:"))
        #expect(error?.entityMapping == "BookToBook")
        #expect(error?.entity == "Book")
        #expect(error?.property == "title")
        #expect(error?.sourcePrimaryKey == 1)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test func aModuleQualifiedNameFindsThePolicyRegisteredWithoutItsModule() {
        let registry = SamplePolicies.registry
        #expect(registry.contains("CuisinePolicy"))
        #expect(registry.contains("Migrations.Country5ToCountry6Policy"))
        #expect(registry.makePolicy(named: "Migrations.Country5ToCountry6Policy") is Country5ToCountry6Policy)
        #expect(!registry.contains("Migrations.NotRegistered"))
        #expect(!registry.contains("CuisinePolicy.Other"))
        #expect(registry.makePolicy(named: "NotRegistered") == nil)
    }

    @Test func anUnregisteredPolicyIsAnUnknownPolicyError() throws {
        let error = #expect(throws: MappingError.self) {
            try run([Shelf.mapping(bookPolicy: "MyApp.NotRegistered")], policies: SamplePolicies.registry)
        }
        #expect(error?.kind == .unknownPolicy("MyApp.NotRegistered"))
        #expect(error?.entityMapping == "BookToBook")
        #expect(error?.mappingModel == "Shelf → Shelf 2")
        #expect(error.map { "\($0)" }?.contains(#"PolicyRegistry.register("MyApp.NotRegistered")"#) == true)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(StepFixtures.files(in: directory.url) == ["Shelf.sqlite"])
    }

    // MARK: Registry

    @Test(arguments: [
        ("ChefNamePolicy", true), ("MyApp.ChefNamePolicy", true), ("My.Nested.Module.ChefNamePolicy", true),
        ("MyApp.CuisinePolicy", false), ("ChefNamePolicy.MyApp", false), ("chefnamepolicy", false), ("", false),
    ])
    func theRegistryResolvesModuleQualifiedNames(name: String, resolves: Bool) {
        var registry = PolicyRegistry()
        registry.register("ChefNamePolicy") { ChefNamePolicy() }
        let policy = registry.makePolicy(named: name)
        #expect((policy is ChefNamePolicy) == resolves)
        #expect((policy != nil) == resolves)
    }

    @Test func aFullNameRegisteredAsSuchWinsAndEveryLookupMakesAFreshInstance() throws {
        var registry = PolicyRegistry()
        registry.register("ChefNamePolicy") { ChefNamePolicy() }
        registry.register("MyApp.ChefNamePolicy") { CuisinePolicy() }
        #expect(registry.makePolicy(named: "MyApp.ChefNamePolicy") is CuisinePolicy)
        #expect(registry.makePolicy(named: "Other.ChefNamePolicy") is ChefNamePolicy)
        #expect(registry.names == ["ChefNamePolicy", "MyApp.ChefNamePolicy"])
        let first = try #require(registry.makePolicy(named: "ChefNamePolicy"))
        let second = try #require(registry.makePolicy(named: "ChefNamePolicy"))
        #expect(first !== second)
    }

    @Test func aMappingNamingAModuleQualifiedPolicyRuns() throws {
        let recipes = directory.path("Recipes.sqlite")
        try StoreCreator.createStore(at: recipes, model: RecipesHistory.v1)
        try DemoSeed.seedRecipes(at: recipes)
        let text = SampleMappings.recipes1to2.replacingOccurrences(
            of: #""policy": "ChefNamePolicy""#, with: #""policy": "MyApp.ChefNamePolicy""#)
        #expect(text != SampleMappings.recipes1to2)
        let models = try StepFixtures.mappingModels([text], from: RecipesHistory.v1, to: RecipesHistory.v2)
        let recipes2 = directory.path("Recipes 2.sqlite")
        _ = try MigrationStep(
            from: RecipesHistory.v1, to: RecipesHistory.v2, mappingModels: models, policies: SamplePolicies.registry
        ).run(source: recipes, destination: recipes2)
        let names = try StepFixtures.read(recipes2, RecipesHistory.v2) { objects in
            try objects.fetch("Chef").map { "\($0.string("firstName") ?? "")|\($0.string("lastName") ?? "")" }
        }
        #expect(names == ["Miguel|Sanchez", "Rick|Bayless", "Diana|Kennedy", "Julia|Child"])
    }
}

// MARK: - Policies under test

/// What the policies did, in order, as `"<entity mapping> <event>"`.
final class HookLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    func append(_ mapping: EntityMapping, _ event: String) {
        lock.withLock { storage.append("\(mapping.name) \(event)") }
    }

    var entries: [String] { lock.withLock { storage } }

    /// The events of one entity mapping, without its name.
    func entries(of mapping: String) -> [String] {
        entries.filter { $0.hasPrefix(mapping + " ") }.map { String($0.dropFirst(mapping.count + 1)) }
    }
}

/// Records every hook and calls `super`.
class RecordingPolicy: EntityMigrationPolicy {
    let log: HookLog

    init(log: HookLog) {
        self.log = log
        super.init()
    }

    required init() {
        log = HookLog()
        super.init()
    }

    override func begin(_ mapping: EntityMapping, manager: MigrationManager) throws {
        log.append(mapping, "begin")
        try super.begin(mapping, manager: manager)
    }

    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        log.append(mapping, "create \(source.id.primaryKey)")
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }

    override func endInstanceCreation(for mapping: EntityMapping, manager: MigrationManager) throws {
        log.append(mapping, "endInstanceCreation")
        try super.endInstanceCreation(for: mapping, manager: manager)
    }

    override func createRelationships(
        forDestination destination: ObjectID, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        log.append(mapping, "relationships \(destination.primaryKey)")
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    }

    override func endRelationshipCreation(for mapping: EntityMapping, manager: MigrationManager) throws {
        log.append(mapping, "endRelationshipCreation")
        try super.endRelationshipCreation(for: mapping, manager: manager)
    }

    override func performCustomValidation(for mapping: EntityMapping, manager: MigrationManager) throws {
        log.append(mapping, "performCustomValidation")
        try super.performCustomValidation(for: mapping, manager: manager)
    }

    override func end(_ mapping: EntityMapping, manager: MigrationManager) throws {
        log.append(mapping, "end")
        try super.end(mapping, manager: manager)
    }
}

/// Creates nothing: overrides pass 1 without calling `super`.
final class SkippingPolicy: RecordingPolicy {
    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        log.append(mapping, "skip \(source.id.primaryKey)")
    }
}

/// Makes one Book per first word of the title and associates every source with it.
final class MergingPolicy: RecordingPolicy {
    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        let word = String((source.string("title") ?? "").split(separator: " ").first ?? "")
        var made = manager.userInfo["MergingPolicy"] as? [String: ObjectID] ?? [:]
        let book = try made[word] ?? manager.destination.insert("Book", ["title": word])
        made[word] = book
        manager.userInfo["MergingPolicy"] = made
        try manager.associate(source: source.id, destination: book, mapping: mapping)
    }
}

/// Records, at each `begin` and `end`, the mappings that began before it, through `userInfo`.
final class SharingPolicy: RecordingPolicy {
    override func begin(_ mapping: EntityMapping, manager: MigrationManager) throws {
        let begun = manager.userInfo["begun"] as? [String] ?? []
        log.append(mapping, "begin saw \(begun.joined(separator: ", "))")
        manager.userInfo["begun"] = begun + [mapping.name]
    }

    override func end(_ mapping: EntityMapping, manager: MigrationManager) throws {
        let begun = manager.userInfo["begun"] as? [String] ?? []
        log.append(mapping, "end saw \(begun.joined(separator: ", "))")
    }
}

/// Makes two copies of every book by hand, associates both, and checks the lookups both ways.
final class CopiesPolicy: RecordingPolicy {
    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        for copy in 1...2 {
            let book = try manager.destination.insert("Book", ["title": "\(source.string("title") ?? "") (\(copy))"])
            try manager.associate(source: source.id, destination: book, mapping: mapping)
        }
    }

    override func endInstanceCreation(for mapping: EntityMapping, manager: MigrationManager) throws {
        for source in try manager.source.fetch("Book") {
            let made = try manager.destinationInstances(
                forEntityMappingNamed: mapping.name, sourceInstances: [source.id])
            let back = try manager.sourceInstances(forEntityMappingNamed: mapping.name, destinationInstances: made)
            log.append(
                mapping,
                "lookup " + zip(made, back).map { "\($0.0) → \($0.1)" }.joined(separator: ", "))
        }
    }
}

/// Looks up a mapping that doesn't exist.
final class LostPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        _ = try manager.destinationInstances(forEntityMappingNamed: "NoSuchMapping", sourceInstances: [source.id])
    }
}

/// Throws in one hook: for the row hooks, only for the source row `primaryKey`.
final class FailingPolicy: EntityMigrationPolicy {
    var hook = ""
    var primaryKey: Int64 = 0
    var throwsMappingError = false

    convenience init(hook: String, primaryKey: Int64, throwsMappingError: Bool) {
        self.init()
        self.hook = hook
        self.primaryKey = primaryKey
        self.throwsMappingError = throwsMappingError
    }

    func fail(_ hook: String, row: Int64? = nil) throws {
        guard hook == self.hook, row == nil || row == primaryKey else { return }
        if throwsMappingError { throw MappingError(.invalidValue("rejected")) }
        throw PolicyHooksTests.Boom()
    }

    override func begin(_ mapping: EntityMapping, manager: MigrationManager) throws {
        try fail("begin")
    }

    override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        try fail("create", row: source.id.primaryKey)
        try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    }

    override func endInstanceCreation(for mapping: EntityMapping, manager: MigrationManager) throws {
        try fail("endInstanceCreation")
    }

    override func createRelationships(
        forDestination destination: ObjectID, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        let sources = try manager.sourceInstances(
            forEntityMappingNamed: mapping.name, destinationInstances: [destination])
        try fail("relationships", row: sources.first?.primaryKey)
        try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    }

    override func endRelationshipCreation(for mapping: EntityMapping, manager: MigrationManager) throws {
        try fail("endRelationshipCreation")
    }

    override func performCustomValidation(for mapping: EntityMapping, manager: MigrationManager) throws {
        try fail("performCustomValidation")
    }

    override func end(_ mapping: EntityMapping, manager: MigrationManager) throws {
        try fail("end")
    }
}
