import Foundation
import GRDB
import StepwiseModel

/// Creates empty stores at a model version, laid out as Core Data would lay them out.
///
/// ```swift
/// let metadata = try StoreCreator.createStore(at: url, model: model)
/// print(metadata.storeUUID)
/// ```
///
/// The file is set up like Core Data's own stores (corpus README §4.2, §5):
/// 1. `PRAGMA page_size = 4096` and `PRAGMA auto_vacuum = INCREMENTAL` (2). Both must come
///    before anything is written: SQLite fixes the page size when the database is created,
///    and "auto-vacuuming must be turned on before any tables are created" (SQLite docs).
/// 2. `PRAGMA journal_mode = WAL`, Core Data's default journal since iOS 7 / macOS 10.9.
/// 3. One transaction with every table and index, the `Z_PRIMARYKEY` rows and the
///    `Z_METADATA` row: a crash leaves either a complete store or an empty file, which
///    is removed.
/// 4. `PRAGMA wal_checkpoint(TRUNCATE)`, then close, so the main file holds everything and
///    the store can be copied as one file.
package enum StoreCreator {
    /// Creates an empty store for a model version and returns its metadata.
    ///
    /// - parameters:
    ///   - url: Where to create the store. Nothing may exist there yet (nor a `-wal`, `-shm`
    ///     or `-journal` file beside it, which SQLite would otherwise take as part of it).
    ///   - model: The model version.
    ///   - uuid: The store's UUID; a migration passes the source store's.
    /// - throws: `ModelError` for an invalid model; ``StoreError`` with kind
    ///   ``StoreError/Kind/alreadyExists``, ``StoreError/Kind/unsupportedModel(_:)``,
    ///   ``StoreError/Kind/sqlite(code:message:)`` or ``StoreError/Kind/io(_:)`` otherwise.
    @discardableResult
    package static func createStore(at url: URL, model: ObjectModel, uuid: String = UUID().uuidString) throws
        -> StoreMetadata
    {
        let layout = try StoreLayout(model: model)
        let metadata = StoreMetadata(model: model, uuid: uuid)
        try createStore(at: url, layout: layout, metadata: metadata)
        return metadata
    }

    /// Creates an empty store with a given layout and metadata.
    ///
    /// Use it when the metadata must carry more than ``StoreMetadata/init(model:uuid:)``
    /// provides, such as an app's own keys kept across a migration.
    package static func createStore(at url: URL, layout: StoreLayout, metadata: StoreMetadata) throws(StoreError) {
        let path = url.path
        let generation = StoreGeneration(mainFile: url)
        try generation.refuseExisting()
        var isDirectory: ObjCBool = false
        let directory = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw StoreError(path: path, kind: .io("the folder \(directory) does not exist"))
        }
        do {
            try write(layout: layout, metadata: metadata, path: path)
        } catch {
            // Nothing was there before: remove whatever SQLite left so a retry can start clean.
            try? generation.remove(fileSystem: FileSystem(), site: "create.remove-after-error")
            throw error
        }
    }

    private static func write(layout: StoreLayout, metadata: StoreMetadata, path: String) throws(StoreError) {
        do {
            let dbQueue = try DatabaseQueue(path: path, configuration: .forStoreWrites)
            try dbQueue.writeWithoutTransaction { db in
                guard try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") == 0 else {
                    throw StoreError(path: path, kind: .alreadyExists)
                }
                try db.execute(sql: "PRAGMA page_size = 4096")
                try db.execute(sql: "PRAGMA auto_vacuum = 2")
                let journalMode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                guard journalMode?.lowercased() == "wal" else {
                    throw StoreError(
                        path: path,
                        kind: .io("SQLite refused WAL journaling (journal mode is \(journalMode ?? "unknown"))"))
                }
                try db.inTransaction(.immediate) {
                    for statement in layout.createStatements {
                        try db.execute(sql: statement)
                    }
                    for row in layout.primaryKeyRows {
                        try row.insert(into: db)
                    }
                    try metadata.write(to: db, path: path)
                    return .commit
                }
                try db.checkpoint(.truncate)
            }
            try dbQueue.close()
        } catch {
            throw StoreError(path: path, wrapping: error)
        }
    }
}
