import Foundation
import GRDBSQLite

extension StoreMetadata {
    /// Reads the metadata in a store's main file without creating, locking or changing any
    /// file: the cheap "which version is this?" an app asks at every launch.
    ///
    /// The file is opened through ``ImmutableStore/uri(for:)`` (`immutable=1`). A normal connection,
    /// even a read-only one, creates a `-wal` and `-shm` beside a WAL-mode store and writes
    /// read marks into the `-shm`; an immutable one touches nothing. The price: SQLite takes
    /// no locks and ignores the `-wal`, so this sees the metadata as of the last checkpoint.
    /// That is the right question for an upgrader: a store whose main file already carries the
    /// current version's metadata has been migrated, and what its `-wal` holds since was
    /// written by an app at that version. When the main file says an older version, the
    /// caller must take the careful path (a lock and a private copy that includes the `-wal`),
    /// since a migration may sit in the `-wal`.
    ///
    /// Returns nil when there is a hot rollback `-journal` (the main file may be mid-write) or
    /// the file can't be read this way.
    ///
    /// - parameter url: The store's main file.
    package static func readFromMainFile(at url: URL) -> StoreMetadata? {
        let journal = StoreGeneration(mainFile: url).file(.journal).path
        if let size = (try? FileManager.default.attributesOfItem(atPath: journal)[.size] as? NSNumber)?.int64Value,
            size > 0
        {
            return nil
        }
        var handle: OpaquePointer?
        defer { sqlite3_close_v2(handle) }
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        guard sqlite3_open_v2(ImmutableStore.uri(for: url), &handle, flags, nil) == SQLITE_OK, let handle else {
            return nil
        }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        let sql = #"SELECT "Z_UUID", "Z_PLIST" FROM "Z_METADATA" WHERE "Z_VERSION" = 1"#
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW
        else { return nil }
        let uuid = sqlite3_column_text(statement, 0).map { String(cString: $0) }
        var plist: Data?
        if let bytes = sqlite3_column_blob(statement, 1) {
            plist = Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, 1)))
        }
        return try? decode(plist: plist, uuid: uuid, path: url.path)
    }
}
