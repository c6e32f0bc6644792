import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// What the app's own Core Data reads back: a store Stepwise upgrades from version A to B equals
/// the store Core Data itself wrote at B, wherever the corpus has Core Data's stores of both.
///
/// For every store of a version A whose project also has a Core Data store of a later version B
/// (the next such version, and the latest), a copy of A's store is upgraded to B and compared
/// with Core Data's B store: tables, columns with their types and primary keys, indexes by name
/// and definition, `Z_PRIMARYKEY`, and the metadata. Indexes Core Data's own in-place migrations
/// left in its B store are set aside, each printed: absent from B's layout in that store's
/// release, and repeating the columns of one it has. Indexes and uniqueness constraints, which
/// releases name in their own forms (``CoreDataRelease``), are compared directly when both
/// stores' releases lay B out alike; otherwise each store must be exactly B's layout in its own
/// release's forms. Left out of the metadata comparison: per-store identity (the UUID, in `Z_UUID`) and
/// the app's own keys (not `NS…`/`_NS…`), `NSPersistenceMaximumFrameworkVersion` (a record of
/// the newest Core Data that opened the store) and `StepwiseModelVersionName` (Stepwise's own).
/// `NSPersistenceFrameworkVersion` is checked for what it means: the upgraded store's tables are
/// exactly the layout of B for the release it names. The digest and the checksum, which Core
/// Data before 977 and 1333 didn't write, may only be added, each equal to its rule's value.
@Suite(
    "Upgrades compared with the stores Core Data wrote", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct CoreDataDifferentialTests {
    @Test func everyUpgradeBetweenTwoCoreDataStoresGivesCoreDatasOwnStore() throws {
        let corpus = try Corpus.required()
        let pairs = try Self.pairs(in: corpus)
        var failures: [String] = []
        var leftovers: [String] = []
        var inSameForms = 0
        var refused: Set<String> = []
        var histories: [URL: ModelHistory] = [:]
        for pair in pairs {
            let bundle = pair.bundle
            let history =
                try histories[bundle] ?? ModelHistory(bundleAt: bundle, mappingsAt: Self.mappings(beside: bundle))
            histories[bundle] = history
            do {
                let result = try Self.compare(pair, history: history)
                failures += result.differences.map { "\(pair): \($0)" }
                if result.sameForms { inSameForms += 1 }
                leftovers += result.leftovers.map { "\(pair.target.path): \($0)" }
            } catch {
                if RefusedCorpusInput.listed(pair.source.path, scope: .upgrade) != nil {
                    refused.insert(pair.source.path)
                } else {
                    failures.append("\(pair): \(error)")
                }
            }
        }
        // A store listed as refused that every pair upgraded is listed no longer.
        for input in RefusedCorpusInput.all where input.scope == .upgrade && !refused.contains(input.path) {
            failures.append("\(input.path) is listed as refused (issue \(input.issue)) but upgrades now: unlist it")
        }
        print(
            "CoreDataDifferentialTests: \(pairs.count) pairs upgraded and compared (\(inSameForms) in the same "
                + "release forms, indexes included), \(failures.count) differences; "
                + "\(Set(leftovers).count) indexes left by Core Data's in-place migrations set aside:\n  "
                + Set(leftovers).sorted().joined(separator: "\n  ") + "\ndifferences:\n  "
                + failures.joined(separator: "\n  ") + "\n" + RefusedCorpusInput.report)
        #expect(failures == [])
        // Not vacuous: Wire's 40 identified stores give dozens of pairs, Bookmarks V1–V4 → V5 four more.
        #expect(pairs.count >= 60)
        #expect(
            pairs.contains { $0.source.path.hasSuffix("Bookmarks_V4.sqlite") && $0.target.path.hasSuffix("V5.sqlite") })
    }

    /// A store of version A to upgrade to the version of `target`, a Core Data store of version B.
    struct Pair: CustomStringConvertible {
        var bundle: URL
        var source: RealStore
        var target: RealStore

        var description: String {
            "\(source.path) (\(source.version?.name ?? "")) → \(target.version?.name ?? "")"
        }
    }

    /// For each store of a version A: the next later version with a Core Data store in the same
    /// bundle, and the latest one, each paired with the first store of that version.
    static func pairs(in corpus: Corpus) throws -> [Pair] {
        let stores = try corpus.realStores().filter {
            $0.version != nil && $0.bundle != nil && $0.path != CorpusStore.corrupt.path
        }
        var pairs: [Pair] = []
        for (bundle, group) in Dictionary(grouping: stores, by: { $0.bundle! }).sorted(by: { $0.key.path < $1.key.path }
        ) {
            let history = try ModelBundle(contentsOf: bundle).history
            func position(_ store: RealStore) -> Int { history.index(of: store.version?.name ?? "") ?? -1 }
            // One target store per version: the first by path.
            var targets: [Int: RealStore] = [:]
            for store in group.sorted(by: { $0.path < $1.path }) where targets[position(store)] == nil {
                targets[position(store)] = store
            }
            let positions = targets.keys.sorted()
            for source in group.sorted(by: { $0.path < $1.path }) {
                let later = positions.filter { $0 > position(source) }
                for target in Set([later.first, later.last].compactMap { $0 }).sorted() {
                    pairs.append(Pair(bundle: bundle, source: source, target: targets[target]!))
                }
            }
        }
        return pairs
    }

    /// The folder of `.xcmappingmodel`s beside a bundle, when it has any (corpus README §3).
    static func mappings(beside bundle: URL) -> URL? {
        let folder = bundle.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.contains { $0.hasSuffix(".xcmappingmodel") } ? folder : nil
    }

    /// Upgrades a copy of the pair's source to the target's version and compares it with the
    /// target: the differences, and the indexes Core Data left behind in the target.
    static func compare(
        _ pair: Pair, history: ModelHistory
    ) throws -> (differences: [String], leftovers: [String], sameForms: Bool) {
        let target = try #require(pair.target.version)
        let directory = try TemporaryDirectory(prefix: "stepwise-differential")
        let copy = try Corpus.required().copyStore(pair.source.path, to: directory.url)
        let upgrader = Upgrader(
            history: history, policies: SamplePolicies.registry, options: UpgradeOptions(targetVersion: target.name))
        _ = try upgrader.upgradeIfNeededSynchronously(storeAt: copy)

        let queue = try DatabaseQueue(path: copy.path)
        defer { try? queue.close() }
        let (ours, ourKeys, ourMetadata, ourPlist) = try queue.read { db in
            (
                try SQLiteSchema.read(from: db), try PrimaryKeyRow.readAll(from: db),
                try StoreMetadata.read(from: db, path: copy.path), try Self.plist(db)
            )
        }
        let (theirs, theirKeys, theirPlist) = try pair.target.withCopy { queue, _ in
            try queue.read { db in
                (try SQLiteSchema.read(from: db), try PrimaryKeyRow.readAll(from: db), try Self.plist(db))
            }
        }
        var differences: [String] = []
        let theirRelease = pair.target.metadata.release
        // Core Data's store, less the indexes its in-place migrations left: each is absent from
        // the layout of B in the store's own release, and repeats the columns of one it has, so
        // only an earlier version's or release's layout can have put it there.
        let theirLayout = try SQLiteSchema(
            expectedFor: StoreLayout(model: target, release: theirRelease, matching: theirs))
        let leftovers = theirs.redundantIndexes(comparedWith: theirLayout)
        let theirsAsLaidOut = theirs.removingIndexes(Set(leftovers.map(\.name)))
        let theirForms = theirsAsLaidOut.differences(from: theirLayout, ignoringTables: StoreLayout.optionalTableNames)
        differences += theirForms.map { "Core Data's own store is not B in its release's forms: \($0)" }

        // The upgraded store is B in the forms of the release its metadata names.
        let ourLayout = try SQLiteSchema(
            expectedFor: StoreLayout(model: target, release: ourMetadata.release, matching: ours))
        // Less the indexes Core Data's migrations had left in the source store, which an in-place
        // step keeps as they are: each is in the source, by name.
        let sourceSchema = try pair.source.withCopy { queue, _ in
            try queue.read { db in try SQLiteSchema.read(from: db) }
        }
        let carried = ours.redundantIndexes(comparedWith: ourLayout)
        for index in carried where sourceSchema.index(named: index.name) == nil {
            differences.append("index \(index.name) repeats one of the layout's but is not the source store's")
        }
        let oursAsLaidOut = ours.removingIndexes(Set(carried.map(\.name)))
        let ownForms = oursAsLaidOut.differences(from: ourLayout, ignoringTables: StoreLayout.optionalTableNames)
        differences += ownForms.map { "not laid out in the forms of \(ourMetadata.release): \($0)" }

        // The two compared: everything when both releases write B in the same forms; otherwise
        // tables, columns and keys, the indexes and constraints each release names its own way
        // having been checked against that release's layout just above.
        let sameForms =
            try SQLiteSchema(expectedFor: StoreLayout(model: target, release: ourMetadata.release, matching: theirs))
            .differences(from: theirLayout).isEmpty
        // Tables where Core Data's store is not what Core Data writes for a new store of B (its
        // in-place migrations keep a join table's column order, as in Wire's
        // `Z_25TRUSTEDBYCLIENTS` from 2.96), while the upgraded store is: Core Data's own
        // history chose them, and they are printed, not compared.
        let freshTheirs = try SQLiteSchema(expectedFor: StoreLayout(model: target, release: theirRelease))
        let freshOurs = try SQLiteSchema(expectedFor: StoreLayout(model: target, release: ourMetadata.release))
        let migratedByCoreData = Set(
            theirsAsLaidOut.differences(from: freshTheirs, ignoringTables: StoreLayout.optionalTableNames)
                .map { $0.table.uppercased() })
        let freshInOurs = Set(ours.tables.map { $0.name.uppercased() }).subtracting(
            oursAsLaidOut.differences(from: freshOurs, ignoringTables: StoreLayout.optionalTableNames)
                .map { $0.table.uppercased() })
        var chosenByCoreData: [String] = []
        let schemaDifferences = oursAsLaidOut.differences(
            from: theirsAsLaidOut, ignoringTables: StoreLayout.optionalTableNames
        )
        .filter { sameForms || !$0.dependsOnTheRelease }
        .filter { difference in
            let table = difference.table.uppercased()
            if migratedByCoreData.contains(table), freshInOurs.contains(table) {
                chosenByCoreData.append("\(table) (\(difference))")
                return false
            }
            // A join table's columns in the order the source's table had them (under its name
            // there), as Core Data's in-place migration keeps them.
            if case .primaryKeyMismatch(_, _, let actual) = difference,
                sourceSchema.tables.contains(where: { source in
                    source.primaryKey.map { $0.uppercased() } == actual.map { $0.uppercased() }
                })
            {
                chosenByCoreData.append("\(table) (columns in the source's order: \(difference))")
                return false
            }
            return true
        }
        differences += schemaDifferences.map { "schema, against Core Data's store: \($0)" }
        let (ourRows, theirRows) = (
            ourKeys.filter { !$0.isCoreDataPrivate }.map(\.ignoringMaximum),
            theirKeys.filter { !$0.isCoreDataPrivate }.map(\.ignoringMaximum)
        )
        if ourRows != theirRows { differences.append("Z_PRIMARYKEY: \(ourRows) against Core Data's \(theirRows)") }
        // A store whose hashes already are the target's is up to date: Stepwise writes nothing,
        // and Core Data too migrates nothing, writing the new identifiers on its next save
        // (Wire's 2.98, 2.100 and 2.101 share their hashes).
        // Identifiers aren't hashed either, so an app may edit them in a version that has shipped:
        // Core Data's store then carries the version's identifiers as they were (Artsy's 1.4 store
        // has "1", the corpus's `ArtsyFolio v1.4` says "1.4"). The upgraded store has the target
        // model's.
        var theirComparedPlist = theirPlist
        let targetIdentifiers = target.versionIdentifiers.isEmpty ? [""] : target.versionIdentifiers
        if pair.source.metadata.versionHashes == target.entityVersionHashes {
            theirComparedPlist[StoreMetadata.versionIdentifiersKey] = ourPlist[StoreMetadata.versionIdentifiersKey]
        } else if pair.target.metadata.versionIdentifiers != targetIdentifiers {
            theirComparedPlist[StoreMetadata.versionIdentifiersKey] = .array(targetIdentifiers.map { .string($0) })
        }
        differences += metadataDifferences(ours: ourPlist, theirs: theirComparedPlist)
        return (
            differences,
            leftovers.map { "\($0.name) ON \($0.table)" } + chosenByCoreData.map { "in-place choice: \($0)" },
            sameForms
        )
    }

    static let derivedKeys: Set<String> = [StoreMetadata.hashesDigestKey, StoreMetadata.versionChecksumKey]
    static let notCompared: Set<String> = [
        StoreMetadata.frameworkVersionKey, "NSPersistenceMaximumFrameworkVersion", StoreMetadata.modelVersionNameKey,
        StoreMetadata.storeUUIDKey,
    ]

    static func metadataDifferences(ours: [String: PropertyListValue], theirs: [String: PropertyListValue]) -> [String]
    {
        func compared(_ key: String) -> Bool {
            (key.hasPrefix("NS") || key.hasPrefix("_NS")) && !notCompared.contains(key)
        }
        var differences: [String] = []
        for key in Set(ours.keys).union(theirs.keys).filter(compared).sorted() {
            switch (ours[key], theirs[key]) {
            case (let mine?, let coreData?) where mine != coreData:
                differences.append("metadata \(key): \(mine) against Core Data's \(coreData)")
            case (nil, _?):
                differences.append("metadata \(key): missing")
            case (_?, nil) where !derivedKeys.contains(key):
                differences.append("metadata \(key): Core Data's store has none")
            default:
                break
            }
        }
        return differences
    }

    static func plist(_ db: Database) throws -> [String: PropertyListValue] {
        let data = try #require(
            try Data.fetchOne(db, sql: #"SELECT "Z_PLIST" FROM "Z_METADATA" WHERE "Z_VERSION" = 1"#))
        let decoded = try PropertyListSerialization.propertyList(from: data, format: nil)
        guard case .dictionary(let entries)? = PropertyListValue(foundationValue: decoded) else { return [:] }
        return entries
    }
}

extension SchemaDifference {
    /// Whether the difference is in what Core Data's releases write in different forms: indexes
    /// and uniqueness constraints (``CoreDataRelease``).
    fileprivate var dependsOnTheRelease: Bool {
        switch self {
        case .missingIndex, .extraIndex, .indexMismatch, .missingUniqueConstraint, .extraUniqueConstraint: true
        default: false
        }
    }
}
