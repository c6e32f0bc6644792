import Foundation
import GRDB
import StepwiseTestSupport
import StepwiseTesting
import Testing

/// Issue #22's new user: the same `.xcmappingmodel` beside the bundle and a copy of it in
/// `--mappings`. The step runs it once: W1's 1,001 posts stay 1,001, not 2,002.
@Suite("A mapping model found twice runs once", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct MappingRunOnceCLITests {
    let corpus: Corpus
    let directory: TemporaryDirectory

    init() throws {
        corpus = try Corpus.required()
        directory = try TemporaryDirectory()
    }

    /// wibosco's bundle with its mapping models beside it, and `Copies.mappings/` holding a copy
    /// of each.
    func bundleWithCopies() throws -> (bundle: URL, mappings: URL) {
        let bundle = directory.path("CoreDataMigration_Example.xcdatamodeld")
        try FileManager.default.copyItem(at: corpus.url(.wibosco), to: bundle)
        let mappings = directory.path("Copies.mappings")
        try FileManager.default.createDirectory(at: mappings, withIntermediateDirectories: true)
        for mappingModel in try corpus.mappingModels(.wibosco) {
            try FileManager.default.copyItem(at: mappingModel, to: directory.path(mappingModel.lastPathComponent))
            try FileManager.default.copyItem(
                at: mappingModel, to: mappings.appendingPathComponent(mappingModel.lastPathComponent))
        }
        return (bundle, mappings)
    }

    func postCount(_ store: URL) throws -> Int {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "ZPOST""#) ?? -1 }
    }

    @Test func theUpgradeRunsEachMappingModelOnce() throws {
        let (bundle, mappings) = try bundleWithCopies()
        let store = try corpus.copyStore(try CorpusStore.named("W1"), to: directory.url)
        let before = try postCount(store)
        #expect(before == 1001)

        let plan = try CommandRunner.testTool().run([
            "plan", store.path, "--models", bundle.path, "--mappings", mappings.path,
        ])
        #expect(plan.status == 0, "\(plan.standardError)")
        #expect(
            plan.standardOutput.contains("Migration1to2.xcmappingmodel, bound by model paths; also found identical at"))

        let result = try CommandRunner.testTool().run([
            "upgrade", store.path, "--models", bundle.path, "--mappings", mappings.path, "--json", "--progress", "none",
        ])

        #expect(result.status == 0, "\(result.standardError)")
        let steps = try #require(try result.json()["steps"] as? [[String: Any]])
        #expect(steps.first?["mappingModels"] as? [String] == ["Migration1to2"])
        #expect(try postCount(store) == before)
    }
}
