import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

/// An explicit step whose mapping mixes plain copies with real mappings rebuilds only the
/// mapped tables, inside a copy of the source: the copied tables keep their rows, keys and
/// pages, and the store reads as the whole-store rebuild's.
@Suite("Partial rebuild")
struct PartialRebuildTests {
    typealias Kitchen = SetBasedRelinkTests.Kitchen

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func seededKitchen(deleting: Bool) throws -> URL {
        let source = directory.path("Kitchen-\(deleting).sqlite")
        try StepFixtures.store(at: source, model: Kitchen.v1, Kitchen.seed(deleting: deleting))
        return source
    }

    func step(policy: String? = nil, partial: Bool = true) throws -> MigrationStep {
        var policies = PolicyRegistry()
        policies.register("Passive") { SetBasedRelinkTests.PassivePolicy() }
        let models = try StepFixtures.mappingModels([Kitchen.mapping(policy: policy)], from: Kitchen.v1, to: Kitchen.v2)
        var step = MigrationStep(from: Kitchen.v1, to: Kitchen.v2, mappingModels: models, policies: policies)
        step.allowsPartialRebuild = partial
        return step
    }

    /// Every recipe with its chef and ingredients, by name: the store's content whatever the keys.
    func content(_ url: URL) throws -> [String] {
        try StepFixtures.read(url, Kitchen.v2) { objects in
            try objects.fetch("Recipe").map { recipe in
                let chef = try objects.related(recipe.id, "chef").first.flatMap {
                    try objects.object($0).string("name")
                }
                let ingredients = try objects.related(recipe.id, "ingredients").compactMap {
                    try objects.object($0).string("name")
                }.sorted()
                return "\(recipe.string("name") ?? "-") by \(chef ?? "-"): \(ingredients.joined(separator: ", "))"
            }.sorted()
        }
    }

    /// The pages of `table`'s b-tree and indexes (SQLite's `dbstat`), and their bytes.
    func pages(of table: String, in url: URL) throws -> [Int: Data] {
        let numbers = try sql(url) { db in
            try Int.fetchAll(
                db,
                sql: """
                    SELECT "pageno" FROM "dbstat" WHERE "name" IN
                      (SELECT "name" FROM "sqlite_master" WHERE "tbl_name" = ? COLLATE NOCASE)
                    """,
                arguments: [table])
        }
        let pageSize = try sql(url) { db in try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096 }
        let bytes = try Data(contentsOf: url)
        return Dictionary(
            uniqueKeysWithValues: numbers.map { number in
                let start = (number - 1) * pageSize
                return (number, bytes.subdata(in: start..<min(start + pageSize, bytes.count)))
            })
    }

    @Test(arguments: [false, true])
    func theCopiedTableIsKeptPageForPageAndTheStoreReadsAsTheWholeRebuilds(deleting: Bool) throws {
        let source = try seededKitchen(deleting: deleting)
        let partial = directory.path("partial-\(deleting).sqlite")
        let whole = directory.path("whole-\(deleting).sqlite")
        let report = try step().run(source: source, destination: partial)
        let wholeReport = try step(partial: false).run(source: source, destination: whole)
        // Chef is a plain copy whose table holds no key into a rebuilt table: kept. Recipe and
        // Ingredient change (a renamed relationship), so they are rebuilt.
        #expect(report.keptTables == ["ZCHEF"])
        #expect(!report.inPlace)
        #expect(wholeReport.keptTables.isEmpty)
        #expect(try content(partial) == content(whole))
        #expect(try content(partial).count == (deleting ? 35 : 40))
        #expect(report.objects == wholeReport.objects)
        // No row of the kept table was rewritten: its pages are the source's, byte for byte.
        let sourcePages = try pages(of: "ZCHEF", in: source)
        #expect(!sourcePages.isEmpty)
        #expect(try pages(of: "ZCHEF", in: partial) == sourcePages)
        // The schema is the destination's, indexes included, and the file is a sound store.
        #expect(try SetBasedRelinkTests().schemaIndexes(Kitchen.v2) == indexes(partial))
        let integrity = try sql(partial) { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == ["ok"])
        let metadata = try sql(partial) { db in try StoreMetadata.read(from: db, path: partial.path) }
        #expect(metadata.versionHashes == VersionHasher.entityHashes(of: Kitchen.v2))
    }

    @Test func newKeysContinueAfterTheKeptRowsAndTheRebuiltOnesRestart() throws {
        let source = try seededKitchen(deleting: true)
        let partial = directory.path("partial.sqlite")
        _ = try step().run(source: source, destination: partial)
        // Chef keeps its Z_MAX (its keys are unchanged); Recipe's keys are dense again.
        #expect(try StepFixtures.maxima(partial)["Chef"] == StepFixtures.maxima(source)["Chef"])
        #expect(try StepFixtures.maxima(partial)["Recipe"] == 35)
    }

    @Test func aStepWithAPolicyOnEveryMappingRebuildsTheWholeStore() throws {
        let source = try seededKitchen(deleting: false)
        let report = try step(policy: "Passive").run(source: source, destination: directory.path("policy.sqlite"))
        #expect(report.keptTables.isEmpty)
    }

    func sql<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    func indexes(_ url: URL) throws -> [String] {
        try sql(url) { db in
            try String.fetchAll(
                db, sql: "SELECT name || ': ' || sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        }.sorted()
    }
}
