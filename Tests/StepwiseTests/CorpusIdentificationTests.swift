import Foundation
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// Every consistent corpus store is identified by hash as the version that wrote it
/// (corpus README §4.1), and the half-migrated one is flagged.
@Suite("Corpus identification", .enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
struct CorpusIdentificationTests {
    static let apptentive = "apptentive-ios/model/ATDataModel.xcdatamodeld"
    static let moody = "objcio-moody/model/Moody.xcdatamodeld"
    static let wibosco = "wibosco-migration-example/model/CoreDataMigration_Example.xcdatamodeld"

    static let consistentStores: [(bundle: String, store: String, version: String)] = [
        (apptentive, "apptentive-ios/stores/ATDataModelv1.sqlite", "ATDataModel"),
        (apptentive, "apptentive-ios/stores/ATDataModelv2.sqlite", "ATDataModel 2"),
        (apptentive, "apptentive-ios/stores/ATDataModelv3.sqlite", "ATDataModel 3"),
        (apptentive, "apptentive-ios/stores/ATDataModelv4.sqlite", "ATDataModel 4"),
        (apptentive, "apptentive-ios/stores/ATDataModelv5.sqlite", "ATDataModel 5"),
        (apptentive, "apptentive-ios/stores/ATDataModelv6.sqlite", "ATDataModel 6"),
        (apptentive, "apptentive-ios/stores/v2WALDatabase/ATDataModel.sqlite", "ATDataModel 2"),
        (apptentive, "apptentive-ios/stores/v3WALDatabase/ATDataModel.sqlite", "ATDataModel 3"),
        (moody, "objcio-moody/stores/Moody.moody", "Moody"),
        (moody, "objcio-moody/stores/Moody 2.moody", "Moody 2"),
        (moody, "objcio-moody/stores/Moody 3.moody", "Moody 3"),
        (moody, "objcio-moody/stores/Moody 4.moody", "Moody 4"),
        (moody, "objcio-moody/stores/Moody 5.moody", "Moody 5"),
        (wibosco, "wibosco-migration-example/stores/CoreDataMigration_Example_1.sqlite", "CoreDataMigration_Example"),
        (wibosco, "wibosco-migration-example/stores/CoreDataMigration_Example_2.sqlite", "CoreDataMigration_Example 2"),
        (wibosco, "wibosco-migration-example/stores/CoreDataMigration_Example_3.sqlite", "CoreDataMigration_Example 3"),
        (
            wibosco, "wibosco-migration-example/stores/CoreDataMigration_Example_WAL.sqlite",
            "CoreDataMigration_Example 4"
        ),
    ]

    @Test(arguments: consistentStores)
    func aCorpusStoreIsIdentifiedByHash(bundle: String, store: String, version: String) throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore(store, to: directory.url)
        let history = try ModelBundle(contentsOf: corpus.url(bundle)).history
        let identification = try VersionRegistry(history: history).identify(storeAt: copy)
        #expect(identification.version?.name == version)
        #expect(identification.matchedBy == .hash)
        #expect(identification.isConsistent)
    }

    @Test func theHalfMigratedApptentiveStoreIsFlaggedInconsistent() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore("apptentive-ios/stores/v2CorruptDatabase/ATDataModel.sqlite", to: directory.url)
        let history = try ModelBundle(contentsOf: corpus.url(Self.apptentive)).history
        let identification = try VersionRegistry(history: history).identify(storeAt: copy)
        #expect(identification.version == nil)
        #expect(!identification.isConsistent)
        guard case .inconsistent(let hashVersion, let schemaVersion, let differences) = identification.match else {
            Issue.record("expected inconsistent")
            return
        }
        #expect(hashVersion == "ATDataModel 3")
        #expect(schemaVersion == "ATDataModel 2")
        #expect(differences.map(\.description).contains { $0.contains("ZCUSTOMDATA") })
    }

    @Test func identifyingACopyLeavesItsBytesUnchanged() throws {
        let corpus = try Corpus.required()
        let directory = try TemporaryDirectory()
        let copy = try corpus.copyStore("apptentive-ios/stores/v2WALDatabase/ATDataModel.sqlite", to: directory.url)
        let files = ["", "-wal", "-shm"].map { URL(fileURLWithPath: copy.path + $0) }
        let before = files.map { try? Data(contentsOf: $0) }
        let history = try ModelBundle(contentsOf: corpus.url(Self.apptentive)).history
        _ = try VersionRegistry(history: history).identify(storeAt: copy)
        let after = files.map { try? Data(contentsOf: $0) }
        #expect(after == before)
        #expect(after[1]?.count == 753_992)
    }
}
