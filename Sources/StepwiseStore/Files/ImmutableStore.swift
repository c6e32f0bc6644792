import Foundation
import GRDB
import GRDBSQLite

/// Reading a store that must not change (the original, before the swap) without creating,
/// locking or writing any file beside it.
///
/// A normal SQLite connection, even a read-only one, creates a `-wal` and `-shm` beside a
/// WAL-mode store and writes read marks into the `-shm`; on close it may checkpoint, and on
/// open it rolls back a hot `-journal`. A connection through ``uri(for:)`` (`mode=ro` and
/// `immutable=1`) does none of that: it can't write, takes no locks and ignores the `-wal`.
///
/// Two conditions make that safe to read a whole store through:
/// - **Nothing to fold in** (``StoreGeneration/hasNothingToFoldIn``): no `-wal` holding frames and no hot
///   `-journal`, so the main file alone is the whole store.
/// - **Writers are caught afterwards.** Without locks, a process that writes anyway (one that
///   ignores the upgrade's locks) could change the file under a read. Any such write changes
///   the main file or the `-wal`, which the upgrade compares before its commit point, refusing
///   to swap; a torn read can only make a run fail or produce a file that is never swapped in.
package enum ImmutableStore {
    /// Whether this SQLite reads `file:` URIs where GRDB and `ATTACH` pass a path (it is built
    /// with `SQLITE_USE_URI`, as Debian's is). Without it, callers copy the store instead.
    package static let isAvailable = sqlite3_compileoption_used("USE_URI") == 1

    /// `file:<path>?mode=ro&immutable=1`, with the characters a URI path can't hold escaped.
    package static func uri(for url: URL) -> String {
        var escaped = ""
        for scalar in url.standardizedFileURL.path.unicodeScalars {
            switch scalar {
            case "%", "?", "#": escaped += String(format: "%%%02X", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return "file:\(escaped)?mode=ro&immutable=1"
    }

    /// A read-only GRDB connection through ``uri(for:)``.
    ///
    /// - throws: `DatabaseError` (`SQLITE_CANTOPEN`) when ``isAvailable`` is false or the file
    ///   can't be opened.
    package static func openQueue(at url: URL) throws -> DatabaseQueue {
        guard isAvailable else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "this SQLite can't open URIs")
        }
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: uri(for: url), configuration: configuration)
    }

    /// Attaches the store to `db` under `schema` through ``uri(for:)``, and checks SQLite
    /// attached it read-only (not a new, empty file named like the URI).
    package static func attach(_ url: URL, as schema: String, in db: Database) throws {
        guard isAvailable else {
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "this SQLite can't attach URIs")
        }
        try db.execute(sql: "ATTACH DATABASE ? AS \(schema.quotedSQLIdentifier)", arguments: [uri(for: url)])
        guard sqlite3_db_readonly(db.sqliteConnection, schema) == 1 else {
            try? db.execute(sql: "DETACH DATABASE \(schema.quotedSQLIdentifier)")
            throw DatabaseError(resultCode: .SQLITE_CANTOPEN, message: "could not attach \(url.path) read-only")
        }
    }
}
