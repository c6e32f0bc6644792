import Foundation
import GRDB
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting

/// Reading a corpus store through GRDB, always on a copy.
extension CorpusStore {
    /// Runs `body` on a fresh copy of the store (with its -wal and -shm): corpus files are
    /// never opened in place.
    func withCopy<T>(in corpus: Corpus, _ body: (DatabaseQueue, URL) throws -> T) throws -> T {
        let directory = try TemporaryDirectory()
        let url = try corpus.copyStore(self, to: directory.url)
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
