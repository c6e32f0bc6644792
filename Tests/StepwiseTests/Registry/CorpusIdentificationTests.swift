import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// Every consistent corpus store is identified by hash as the version that wrote it
/// (corpus README §4.1), and the half-migrated one is flagged.
@Suite("Corpus identification", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct CorpusIdentificationTests {
    /// The shared catalogue (`CorpusStore`) names every store file of the corpus, once.
    @Test func theCatalogueListsEveryCorpusStore() throws {
        let corpus = try Corpus.required()
        var files: [String] = []
        for bundle in CorpusBundle.allCases {
            let folder = bundle.path.split(separator: "/")[0]
            let stores = corpus.url("\(folder)/stores")
            let enumerator = FileManager.default.enumerator(at: stores, includingPropertiesForKeys: [.isRegularFileKey])
            while let url = enumerator?.nextObject() as? URL {
                let name = url.lastPathComponent
                guard !name.hasSuffix("-wal"), !name.hasSuffix("-shm"),
                    try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true
                else { continue }
                let relative = url.standardizedFileURL.path.dropFirst(corpus.root.standardizedFileURL.path.count + 1)
                files.append(String(relative))
            }
        }
        #expect(CorpusStore.all.map(\.path).sorted() == files.sorted())
        #expect(Set(CorpusStore.all.map(\.shortName)).count == 18)
        #expect(CorpusStore.consistent.count == 17)
        #expect(CorpusStore.inconsistent == [CorpusStore.corrupt])
        // Every version but Moody 6 wrote a store.
        #expect(CorpusStore.onePerVersion.map(\.version) == CorpusBundle.allVersionNames.filter { $0 != "Moody 6" })
        for store in CorpusStore.all {
            #expect(CorpusBundle.containing(store.version) == store.bundle, "\(store)")
            #expect(try CorpusStore.named(store.shortName) == store)
        }
        #expect(throws: CorpusError.self) { try CorpusStore.named("v7") }
    }

    @Test(arguments: CorpusStore.consistent)
    func aCorpusStoreIsIdentifiedByHash(_ store: CorpusStore) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(store, to: directory.url)
        let history = try corpus.modelBundle(store.bundle).history
        let identification = try VersionRegistry(history: history).identify(storeAt: copy)
        #expect(identification.version?.name == store.version)
        #expect(identification.matchedBy == .hash)
        #expect(identification.isConsistent)
    }

    @Test func theHalfMigratedApptentiveStoreIsFlaggedInconsistent() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(CorpusStore.corrupt, to: directory.url)
        let history = try corpus.modelBundle(.apptentive).history
        let identification = try VersionRegistry(history: history).identify(storeAt: copy)
        #expect(identification.version == nil)
        #expect(!identification.isConsistent)
        guard case .inconsistent(let hashVersion, let schemaVersion, let differences) = identification.match else {
            Issue.record("expected inconsistent")
            return
        }
        #expect(hashVersion == "ATDataModel 3")
        #expect(schemaVersion == "ATDataModel 2")
        #expect(hashVersion == CorpusStore.corrupt.hashVersion)
        #expect(schemaVersion == CorpusStore.corrupt.version)
        #expect(differences.map(\.description).contains { $0.contains("ZCUSTOMDATA") })
    }

    @Test func identifyingACopyLeavesItsBytesUnchanged() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(CorpusStore.named("2W"), to: directory.url)
        let files = ["", "-wal", "-shm"].map { URL(fileURLWithPath: copy.path + $0) }
        let before = files.map { try? Data(contentsOf: $0) }
        let history = try corpus.modelBundle(.apptentive).history
        _ = try VersionRegistry(history: history).identify(storeAt: copy)
        let after = files.map { try? Data(contentsOf: $0) }
        #expect(after == before)
        #expect(after[1]?.count == 753_992)
    }
}
