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
}
