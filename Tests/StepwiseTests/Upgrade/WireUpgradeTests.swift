import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// Wire's history (`wire-data-model`, 90 versions, no mapping model: every step shipped as a
/// lightweight migration) run as written, on every Wire store the corpus holds, found by
/// ``RealStore`` so that stores added later are upgraded too.
@Suite("upgradeIfNeeded: Wire's stores", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct WireUpgradeTests {
    static let bundlePath = "wire-data-model/model/zmessaging.xcdatamodeld"

    /// Every Wire store, by path inside the corpus (an empty list without the corpus).
    static let stores: [String] = {
        guard let corpus = try? Corpus.locate(),
            let folder = try? FileManager.default.contentsOfDirectory(
                atPath: corpus.url("wire-data-model/stores").path)
        else { return [] }
        return folder.filter { $0.hasSuffix(".wiredatabase") }.sorted().map { "wire-data-model/stores/\($0)" }
    }()

    /// Wire's own migration test (`Tests/Source/ManagedObjectContext/DatabaseMigrationTests.swift`
    /// in its repository) asserts these counts for the stores of version 2.6 onward, fetched by
    /// entity (subentities included).
    static let wireCounts = [
        "ClientMessage": 3, "SystemMessage": 21, "Connection": 16, "UserClient": 12, "AssetClientMessage": 0,
    ]

    /// The bundle, read once for all the stores (90 versions).
    static let bundle: Result<ModelBundle, any Error> = Result {
        try ModelBundle(contentsOf: Corpus.required().url(bundlePath))
    }

    @Test(
        "Every Wire store whose version the bundle has upgrades to the current one, every row kept", arguments: stores)
    func upgradesToTheCurrentVersion(_ path: String) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory(prefix: "stepwise-wire")
        let copy = try corpus.copyStore(path, to: directory.url)
        let bundle = try Self.bundle.get()
        let registry = VersionRegistry(history: bundle.history)
        let upgrader = try Upgrader(history: bundle.history)

        // Wire 1.24 predates the oldest version in the bundle (zmessaging, 1.25): Wire itself
        // wipes such a store ("DoesNotMigrateFromANonE2EEVersion"). Its own model cache
        // (Z_MODELCACHE) matches its metadata, so Stepwise upgrades it from that model, inferring
        // the step to the current version, as Core Data's fallback does.
        let source = try #require(try registry.identify(storeAt: copy).version)
        let predatesTheBundle = path.hasSuffix("store1-24.wiredatabase")
        #expect(try registry.identify(storeAt: copy).matchedBy == (predatesTheBundle ? .modelCache : .hash))
        let sourceLayout = try Self.layout(of: copy, version: source)
        let before = try Self.rowCounts(of: copy, layout: sourceLayout)

        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: copy)
        #expect(report.to == bundle.current.name)
        let identification = try registry.identify(storeAt: copy)
        let current = try #require(identification.version)
        // The current version, or a version with the same hashes (2.98, 2.100 and 2.101 share them).
        #expect(current.entityVersionHashes == bundle.current.entityVersionHashes)

        // The layout Core Data writes for the current version, in the newest forms, with the
        // store's own choice of self-referential join tables.
        let (actual, keys) = try Self.schemaAndKeys(of: copy)
        let expected = try SQLiteSchema(
            expectedFor: StoreLayout(model: bundle.current, release: .newest, matching: actual))
        #expect(actual.differences(from: expected, ignoringTables: StoreLayout.optionalTableNames) == [])
        let currentLayout = try StoreLayout(model: bundle.current, matching: actual)
        #expect(keys.filter { !$0.isCoreDataPrivate }.map(\.ignoringMaximum) == currentLayout.primaryKeyRows)

        // Every row of every entity the current version still has.
        let after = try Self.rowCounts(of: copy, layout: currentLayout)
        for (entity, count) in before where currentLayout.entity(named: entity) != nil {
            #expect(after[entity] == count, "\(entity) in \(path)")
        }
        #expect(after.values.reduce(0, +) > 0)

        // Wire's own expectations, from 2.6 on.
        let versionNames = bundle.history.names
        if let index = versionNames.firstIndex(of: source.name),
            let first = versionNames.firstIndex(of: "zmessaging2.6"),
            index >= first
        {
            let kinds = try Self.kindCounts(of: copy, layout: currentLayout, entities: Array(Self.wireCounts.keys))
            #expect(kinds == Self.wireCounts, "\(path)")
        }
    }

    /// The layout a store of `version` has, matched to its own schema and release.
    static func layout(of url: URL, version: ObjectModel) throws -> StoreLayout {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            try StoreLayout(
                model: version, release: StoreMetadata.read(from: db, path: url.path).release,
                matching: SQLiteSchema.read(from: db))
        }
    }

    static func schemaAndKeys(of url: URL) throws -> (SQLiteSchema, [PrimaryKeyRow]) {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in (try SQLiteSchema.read(from: db), try PrimaryKeyRow.readAll(from: db)) }
    }

    /// Rows of each entity itself (its own `Z_ENT`), by name.
    static func rowCounts(of url: URL, layout: StoreLayout) throws -> [String: Int] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            var counts: [String: Int] = [:]
            for entity in layout.entities where !entity.isAbstract {
                counts[entity.name] =
                    try Int.fetchOne(
                        db,
                        sql: "SELECT COUNT(*) FROM \(entity.tableName.quotedDatabaseIdentifier) WHERE \"Z_ENT\" = ?",
                        arguments: [entity.number]) ?? 0
            }
            return counts
        }
    }

    /// Rows of each entity and its subentities, as a Core Data fetch request counts them.
    static func kindCounts(of url: URL, layout: StoreLayout, entities: [String]) throws -> [String: Int] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            var counts: [String: Int] = [:]
            for name in entities {
                guard let entity = layout.entity(named: name) else { continue }
                let numbers = entity.subentityNumbers.map(String.init).joined(separator: ", ")
                counts[name] =
                    try Int.fetchOne(
                        db,
                        sql:
                            "SELECT COUNT(*) FROM \(entity.tableName.quotedDatabaseIdentifier) WHERE \"Z_ENT\" IN (\(numbers))"
                    ) ?? 0
            }
            return counts
        }
    }
}
