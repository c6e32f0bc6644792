import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// A store whose version is gone from the bundle is upgraded from its own model cache
/// (`Z_MODELCACHE`), as Core Data does, when the cache's hashes match the store's metadata; a
/// cache that doesn't match is never used. The store: wibosco's version 3 (7,995 posts, each
/// with a color), upgraded with a copy of the bundle that leaves version 3 out.
@Suite("Upgrading from the store's own model cache")
struct ModelCacheUpgradeTests {
    static let storePath = "wibosco-migration-example/stores/CoreDataMigration_Example_3.sqlite"
    static let bundlePath = "wibosco-migration-example/model/CoreDataMigration_Example.xcdatamodeld"
    static let cacheName = "CoreDataMigration_Example_3.sqlite's model cache"

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A copy of the store, and a copy of its bundle without the version that wrote it.
    func storeAndBundleWithoutItsVersion() throws -> (store: URL, bundle: URL) {
        let corpus = try Corpus.required()
        let store = try corpus.copyStore(Self.storePath, to: directory.url)
        let bundle = directory.path("CoreDataMigration_Example.xcdatamodeld")
        try FileManager.default.copyItem(at: corpus.url(Self.bundlePath), to: bundle)
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("CoreDataMigration_Example 3.xcdatamodel"))
        return (store, bundle)
    }

    func posts(_ store: URL) throws -> [Row] {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT p.Z_PK, p.ZPOSTID, p.ZDATE, c.ZCOLORID, c.ZHEX FROM ZPOST p LEFT JOIN ZCOLOR c ON c.Z_PK = p.ZCOLOR
                    ORDER BY p.Z_PK
                    """)
        }
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func aStoreWhoseVersionIsGoneUpgradesFromItsCachedModel() throws {
        let (store, bundle) = try storeAndBundleWithoutItsVersion()
        let before = try posts(store)
        #expect(before.count == 7_995)

        let upgrader = try Upgrader(bundleAt: bundle)
        let prepared = try upgrader.plan(forStoreAt: store)
        #expect(prepared.identification.matchedBy == .modelCache)
        #expect(prepared.version == Self.cacheName)
        #expect(prepared.identification.notes.first?.contains("from the store's own model cache") == true)
        #expect(
            prepared.plan.steps.map(\.description) == [
                "\(Self.cacheName) → CoreDataMigration_Example 4 (inferred)"
            ])
        // Version 3's cache differs from version 4 only by its new attribute: it joins there.
        #expect(prepared.plan.modelCacheJoin?.route == .versionIsTarget)
        #expect(prepared.plan.modelCacheJoin?.version == "CoreDataMigration_Example 4")
        #expect(
            prepared.plan.modelCacheJoin?.differences.map(\.description) == [
                "Post.hide was added (Boolean, optional, default NO)."
            ])

        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.outcome == .upgraded)
        #expect(report.from == Self.cacheName)
        #expect(report.to == "CoreDataMigration_Example 4")

        let after = try posts(store)
        #expect(after == before)
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        // Version 4's new attribute, with its default (NO).
        #expect(
            try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPOST WHERE ZHIDE = 0") } == 7_995)
        let identification = try VersionRegistry(history: upgrader.history.versions).identify(storeAt: store)
        #expect(identification.version?.name == "CoreDataMigration_Example 4")
        #expect(identification.matchedBy == .hash)
    }

    /// A crash while the cached model is kept, and one after the step (before the swap): the
    /// store is untouched, and the next call finishes from the original's cache or resumes the
    /// step from the cached model it kept.
    @Test(
        .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"),
        arguments: [("model-cache.write", 0), ("swap.incoming.mkdir", 1)])
    func anInterruptedUpgradeFromTheCacheFinishesOnTheNextCall(site: String, resumedSteps: Int) throws {
        let (store, bundle) = try storeAndBundleWithoutItsVersion()
        let before = try posts(store)
        let bytes = try Data(contentsOf: store)
        // A backup keeps the run on the copy-and-swap path, whose sites these are (a schema-only
        // step without one runs in one transaction on the store: OneTransactionUpgradeTests).
        var options = UpgradeOptions(keepBackup: true)
        options.fileSystem = FileSystem(inject: { _, reached in reached == site ? .crash : nil })
        #expect(throws: SimulatedCrash.self) {
            try Upgrader(bundleAt: bundle, options: options).upgradeIfNeededSynchronously(storeAt: store)
        }
        #expect(try Data(contentsOf: store) == bytes)

        let report = try Upgrader(bundleAt: bundle).upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.outcome == .upgraded)
        #expect(report.from == Self.cacheName)
        #expect(report.steps.filter(\.resumed).count == resumedSteps)
        #expect(try posts(store) == before)
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func aCacheThatDoesNotMatchTheMetadataIsNeverUsed() throws {
        let (store, bundle) = try storeAndBundleWithoutItsVersion()
        // Version 2's cache in version 3's store: readable, but not the model that wrote it.
        let other = try Corpus.required().copyStore(
            "wibosco-migration-example/stores/CoreDataMigration_Example_2.sqlite",
            to: directory.path("other").creatingDirectory())
        let otherContent = try DatabaseQueue(path: other.path).read { db in
            try ModelCache.content(in: db, path: other.path)
        }
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: #"UPDATE "Z_MODELCACHE" SET "Z_CONTENT" = ?"#, arguments: [otherContent])
        }
        let bytes = try Data(contentsOf: store)

        let error = #expect(throws: UpgradeError.self) {
            try Upgrader(bundleAt: bundle).upgradeIfNeededSynchronously(storeAt: store)
        }
        guard case .noMatchingVersion? = error?.kind else {
            Issue.record("expected noMatchingVersion, got \(String(describing: error))")
            return
        }
        #expect(error?.modelCacheNote?.contains("doesn't match its metadata") == true)
        #expect(error?.modelCacheNote?.contains("Post (hash differs)") == true)
        #expect(error?.description.contains("model cache (Z_MODELCACHE) doesn't match") == true)
        #expect(try Data(contentsOf: store) == bytes)
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func aCacheThatCannotBeReadLeavesTheRefusalAndSaysWhy() throws {
        let (store, bundle) = try storeAndBundleWithoutItsVersion()
        try DatabaseQueue(path: store.path).write { db in
            try db.execute(sql: #"UPDATE "Z_MODELCACHE" SET "Z_CONTENT" = x'07000000'"#)
        }
        let error = #expect(throws: UpgradeError.self) {
            try Upgrader(bundleAt: bundle).plan(forStoreAt: store)
        }
        #expect(error?.modelCacheNote?.contains("can't be read") == true)
        #expect(error?.modelCacheNote?.contains("not raw deflate") == true)
    }

    /// A copy of the store, and a copy of its bundle with only the versions before `Color`
    /// existed: the cached model's `Color` is an entity no version of the history has.
    func storeAndBundleThatNeverHadColor() throws -> (store: URL, bundle: URL) {
        let (store, bundle) = try storeAndBundleWithoutItsVersion()
        try FileManager.default.removeItem(at: bundle.appendingPathComponent("CoreDataMigration_Example 4.xcdatamodel"))
        try? FileManager.default.removeItem(at: bundle.appendingPathComponent(".xccurrentversion"))
        return (store, bundle)
    }

    /// Core Data, given another app's model alone, would drop `Color`'s table; Stepwise refuses
    /// an entity no version had before touching anything, and drops it only when asked.
    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func anEntityNoVersionHadIsRefusedUnlessDroppingIsAsked() throws {
        let (store, bundle) = try storeAndBundleThatNeverHadColor()
        let before = StepFixturesBytes.bytes(store)
        let error = #expect(throws: UpgradeError.self) {
            try Upgrader(bundleAt: bundle).upgradeIfNeededSynchronously(storeAt: store)
        }
        guard case .unknownEntities(let entities, let tables)? = error?.kind else {
            Issue.record("expected unknownEntities, got \(String(describing: error))")
            return
        }
        #expect(entities == ["Color"])
        #expect(tables == ["ZCOLOR"])
        #expect(StepFixturesBytes.bytes(store) == before)

        var options = UpgradeOptions()
        options.dropsUnknownEntities = true
        let report = try Upgrader(bundleAt: bundle, options: options).upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.to == "CoreDataMigration_Example 2")
        let drops = report.steps.flatMap(\.drops).filter { $0.kind == .entity }
        #expect(drops.map(\.entity) == ["Color"])
        #expect((drops.first?.count ?? 0) > 0)
        let posts = try DatabaseQueue(path: store.path).read { db in
            try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "ZPOST""#)
        }
        #expect(posts == 7_995)
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func withItsVersionInTheBundleTheCacheIsNotNeeded() throws {
        let corpus = try Corpus.required()
        let store = try corpus.copyStore(Self.storePath, to: directory.url)
        let prepared = try Upgrader(bundleAt: corpus.url(Self.bundlePath)).plan(forStoreAt: store)
        #expect(prepared.identification.matchedBy == .hash)
        #expect(prepared.version == "CoreDataMigration_Example 3")
    }
}

extension URL {
    fileprivate func creatingDirectory() throws -> URL {
        try FileManager.default.createDirectory(at: self, withIntermediateDirectories: true)
        return self
    }
}
