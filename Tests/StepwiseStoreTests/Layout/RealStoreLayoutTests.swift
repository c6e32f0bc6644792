import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

/// The oracle over every store Core Data wrote in the corpus (``RealStore``): the layout Stepwise
/// computes for the store's version and for the Core Data release that wrote it equals the
/// store's own layout exactly: tables, columns with their types, primary keys, unique
/// constraints, indexes by name and definition, and `Z_PRIMARYKEY`'s entity numbers. Only Core
/// Data's own private tables are left aside.
@Suite("StoreLayout against every real store")
struct RealStoreLayoutTests {
    /// Stores whose metadata and tables disagree on purpose: the corpus's half-migrated 2C.
    static let knownInconsistent: Set<String> = [CorpusStore.corrupt.path]

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func everyRealStoreHasTheLayoutStepwiseComputesForItsVersionAndRelease() throws {
        let corpus = try Corpus.required()
        let stores = try corpus.realStores()
        var compared: [String] = []
        var failures: [String] = []
        var redundantIndexes = 0
        for store in stores where !Self.knownInconsistent.contains(store.path) {
            guard let version = store.version else { continue }
            let (actual, primaryKeys) = try store.withCopy { queue, _ in
                try queue.read { db in (try SQLiteSchema.read(from: db), try PrimaryKeyRow.readAll(from: db)) }
            }
            let layout = try StoreLayout(model: version, release: store.metadata.release, matching: actual)
            let expected = try SQLiteSchema(expectedFor: layout)
            // Indexes Core Data left behind when it migrated the store in place (``CoreDataRelease``).
            let leftovers = actual.redundantIndexes(comparedWith: expected)
            redundantIndexes += leftovers.count
            let differences = actual.removingIndexes(Set(leftovers.map(\.name)))
                .differences(from: expected, ignoringTables: StoreLayout.optionalTableNames)
            let keys = primaryKeys.filter { !$0.isCoreDataPrivate }.map(\.ignoringMaximum)
            if !differences.isEmpty || keys != layout.primaryKeyRows {
                failures.append(
                    "\(store): \(differences.prefix(3).map(\.description).joined(separator: "; "))"
                        + (keys == layout.primaryKeyRows ? "" : "; Z_PRIMARYKEY differs"))
            }
            compared.append(store.path)
        }
        let skipped = stores.filter { $0.version == nil }.map { "\($0.path): \($0.whyNoModel ?? "")" }
        print(
            "RealStoreLayoutTests: \(compared.count) real stores compared with their version's layout, "
                + "\(failures.count) differ (\(redundantIndexes) indexes left by Core Data's own migrations set aside); "
                + "\(skipped.count) without a model in the corpus:\n  "
                + skipped.joined(separator: "\n  ") + "\n" + RefusedCorpusInput.report)
        #expect(failures == [])
        // Not vacuous: Wire's stores (41 here) and the first three projects' are all compared.
        #expect(compared.filter { $0.hasPrefix("wire-data-model/") }.count >= 40)
        #expect(compared.count >= 55)
    }

    /// Tables Core Data changed when it migrated a store in place, which a new store of the same
    /// version and release doesn't have: store path → table → why.
    static let migratedInPlace: [String: [String: String]] = {
        // Wire's `UserClient.trustedClients` ↔ `trustedByClients`: the table is named after
        // `trustedByClients` as in a new store, but its two columns are the other way round. The
        // three stores were upgraded from earlier Wire versions by Core Data's own migration,
        // which kept the older store's column order (a new 2.96 store has `Z_25TRUSTEDCLIENTS`
        // first, as `_setInverseManyToMany:` names it first).
        let reason = "columns swapped by Core Data's in-place migration from an earlier version"
        return [
            "wire-data-model/stores/store2-96-0.wiredatabase": ["Z_25TRUSTEDBYCLIENTS": reason],
            "wire-data-model/stores/store2-98-0.wiredatabase": ["Z_25TRUSTEDBYCLIENTS": reason],
            "wire-data-model/stores/store2-100-0.wiredatabase": ["Z_25TRUSTEDBYCLIENTS": reason],
        ]
    }()

    /// Core Data's own rule, without the store's help: the layout of a new store of the version
    /// and release that wrote each real store (no `matching:`) has the store's tables, columns,
    /// keys and indexes, and its join tables' names with their columns in the store's order, but
    /// for the tables Core Data changed when it migrated the store in place (``migratedInPlace``),
    /// which are listed with their reason.
    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func everyRealStoreHasTheLayoutOfANewStoreOfItsVersionAndRelease() throws {
        let corpus = try Corpus.required()
        var storesCompared = 0
        var joinTablesCompared = 0
        var failures: [String] = []
        var exceptions: [String] = []
        for store in try corpus.realStores() where !Self.knownInconsistent.contains(store.path) {
            guard let version = store.version else { continue }
            let actual = try store.withCopy { queue, _ in try queue.read { db in try SQLiteSchema.read(from: db) } }
            let layout = try StoreLayout(model: version, release: store.metadata.release)
            let expected = try SQLiteSchema(expectedFor: layout)
            let known = Self.migratedInPlace[store.path] ?? [:]
            var differing: Set<String> = []
            let leftovers = Set(actual.redundantIndexes(comparedWith: expected).map(\.name))
            for difference in actual.removingIndexes(leftovers).differences(
                from: expected, ignoringTables: StoreLayout.optionalTableNames)
            {
                differing.insert(difference.table.uppercased())
                if known[difference.table.uppercased()] == nil { failures.append("\(store): \(difference)") }
            }
            // Column order, of join tables: entity tables Core Data altered in place get new
            // columns at the end (Wire's `ZUSER.ZDOMAIN`), and the order of a to-one's
            // `Z_FOK_` column among the foreign keys isn't what this test is about.
            for table in layout.tables {
                guard case .join = table.kind, let stored = actual.table(named: table.name) else { continue }
                joinTablesCompared += 1
                let order = stored.columns.map { $0.name.uppercased() }
                guard order != table.columns.map({ $0.name.uppercased() }) else { continue }
                differing.insert(table.name.uppercased())
                if known[table.name.uppercased()] == nil {
                    failures.append("\(store): \(table.name) has columns \(order), a new store \(table.columnNames)")
                }
            }
            for (table, reason) in known.sorted(by: { $0.key < $1.key }) {
                if differing.contains(table) {
                    exceptions.append("\(store.path) \(table): \(reason)")
                } else {
                    failures.append("\(store): \(table) is listed as migrated in place but matches a new store")
                }
            }
            storesCompared += 1
        }
        print(
            "RealStoreLayoutTests: \(storesCompared) real stores (\(joinTablesCompared) join tables) compared with "
                + "a new store's layout, \(failures.count) differ; \(exceptions.count) tables Core Data migrated in place:\n  "
                + exceptions.joined(separator: "\n  "))
        #expect(failures == [])
        #expect(exceptions.count == Self.migratedInPlace.values.map(\.count).reduce(0, +))
        #expect(storesCompared >= 55)
    }

    /// DuckDuckGo's Bookmarks (Core Data 1333 and 1251, fresh stores): `BookmarkEntity.favorites`
    /// names the table though `favoriteFolders` sorts first, because it comes first in the
    /// entity's slot order (``StoreLayout``, "Which side names a join table").
    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func bookmarksStoresNameTheirJoinTableAfterFavorites() throws {
        let corpus = try Corpus.required()
        let stores = try corpus.realStores().filter {
            $0.path.hasSuffix("Bookmarks_V4.sqlite") || $0.path.hasSuffix("Bookmarks_V5.sqlite")
        }
        #expect(stores.count == 2)
        for store in stores {
            let version = try #require(store.version, "\(store.path): \(store.whyNoModel ?? "")")
            let layout = try StoreLayout(model: version, release: store.metadata.release)
            let table = try #require(layout.table(named: "Z_1FAVORITES"))
            #expect(table.columnNames == ["Z_1FAVORITEFOLDERS", "Z_1FAVORITES", "Z_FOK_1FAVORITES"])
            #expect(layout.table(named: "Z_1FAVORITEFOLDERS") == nil)
            let stored = try store.withCopy { queue, _ in
                try queue.read { db in try SQLiteSchema.read(from: db).table(named: "Z_1FAVORITES") }
            }
            #expect(stored?.columns.map(\.name) == table.columnNames)
        }
    }
}
