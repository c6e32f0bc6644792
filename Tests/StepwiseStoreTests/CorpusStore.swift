import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting

/// A store of the corpus and the model version that wrote it (corpus README §4.1).
struct CorpusStore: Sendable, CustomStringConvertible {
    /// The store's path inside the corpus.
    let path: String
    /// The `.xcdatamodeld` bundle's path inside the corpus.
    let bundle: String
    /// The model version whose layout the store has.
    let version: String
    /// The short name used by the corpus README (v1, 2W, M3, WW…).
    let shortName: String

    var description: String { "\(shortName) (\(path))" }

    static let apptentiveBundle = "apptentive-ios/model/ATDataModel.xcdatamodeld"
    static let moodyBundle = "objcio-moody/model/Moody.xcdatamodeld"
    static let wiboscoBundle = "wibosco-migration-example/model/CoreDataMigration_Example.xcdatamodeld"

    static let apptentive: [CorpusStore] =
        [
            CorpusStore(
                path: "apptentive-ios/stores/ATDataModelv1.sqlite", bundle: apptentiveBundle, version: "ATDataModel",
                shortName: "v1")
        ]
        + (2...6).map { number in
            CorpusStore(
                path: "apptentive-ios/stores/ATDataModelv\(number).sqlite", bundle: apptentiveBundle,
                version: "ATDataModel \(number)", shortName: "v\(number)")
        } + [
            CorpusStore(
                path: "apptentive-ios/stores/v2WALDatabase/ATDataModel.sqlite", bundle: apptentiveBundle,
                version: "ATDataModel 2", shortName: "2W"),
            CorpusStore(
                path: "apptentive-ios/stores/v3WALDatabase/ATDataModel.sqlite", bundle: apptentiveBundle,
                version: "ATDataModel 3", shortName: "3W"),
        ]

    /// 2C: metadata of version 3, tables of version 2.
    static let corrupt = CorpusStore(
        path: "apptentive-ios/stores/v2CorruptDatabase/ATDataModel.sqlite", bundle: apptentiveBundle,
        version: "ATDataModel 2", shortName: "2C")

    static let moody: [CorpusStore] =
        [CorpusStore(path: "objcio-moody/stores/Moody.moody", bundle: moodyBundle, version: "Moody", shortName: "M1")]
        + (2...5).map { number in
            CorpusStore(
                path: "objcio-moody/stores/Moody \(number).moody", bundle: moodyBundle, version: "Moody \(number)",
                shortName: "M\(number)")
        }

    static let wibosco: [CorpusStore] = [
        CorpusStore(
            path: "wibosco-migration-example/stores/CoreDataMigration_Example_1.sqlite", bundle: wiboscoBundle,
            version: "CoreDataMigration_Example", shortName: "W1"),
        CorpusStore(
            path: "wibosco-migration-example/stores/CoreDataMigration_Example_2.sqlite", bundle: wiboscoBundle,
            version: "CoreDataMigration_Example 2", shortName: "W2"),
        CorpusStore(
            path: "wibosco-migration-example/stores/CoreDataMigration_Example_3.sqlite", bundle: wiboscoBundle,
            version: "CoreDataMigration_Example 3", shortName: "W3"),
        CorpusStore(
            path: "wibosco-migration-example/stores/CoreDataMigration_Example_WAL.sqlite", bundle: wiboscoBundle,
            version: "CoreDataMigration_Example 4", shortName: "WW"),
    ]

    /// Every store whose layout matches one model version, 2C included (as version 2).
    static let all: [CorpusStore] = apptentive + [corrupt] + moody + wibosco

    /// One store per model version that has a store (2W, 3W and 2C share v2's and v3's versions).
    static let onePerVersion: [CorpusStore] = apptentive.filter { !$0.path.contains("WALDatabase") } + moody + wibosco

    /// The model version that wrote the store.
    func model(in corpus: Corpus) throws -> ObjectModel {
        try ModelBundle(contentsOf: corpus.url(bundle)).version(named: version)
    }

    /// Runs `body` on a fresh copy of the store (with its -wal and -shm): corpus files are
    /// never opened in place.
    func withCopy<T>(in corpus: Corpus, _ body: (DatabaseQueue, URL) throws -> T) throws -> T {
        let directory = try TemporaryDirectory()
        let url = try corpus.copyStore(path, to: directory.url)
        let dbQueue = try DatabaseQueue(path: url.path)
        defer { try? dbQueue.close() }
        return try body(dbQueue, url)
    }

    /// The copy's schema and `Z_PRIMARYKEY` rows.
    func schemaAndPrimaryKeys(in corpus: Corpus) throws -> (SQLiteSchema, [PrimaryKeyRow]) {
        try withCopy(in: corpus) { dbQueue, _ in
            try dbQueue.read { db in (try SQLiteSchema.read(from: db), try PrimaryKeyRow.readAll(from: db)) }
        }
    }

    /// The copy's metadata.
    func metadata(in corpus: Corpus) throws -> StoreMetadata {
        try withCopy(in: corpus) { dbQueue, url in
            try dbQueue.read { db in try StoreMetadata.read(from: db, path: url.path) }
        }
    }
}
