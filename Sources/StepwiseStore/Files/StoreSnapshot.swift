import Foundation
import GRDB

/// A private copy of a store, for reading it without changing a byte of the original.
///
/// Why copy: opening a store in place is not read-only in SQLite's sense. A WAL-mode
/// database needs its `-shm` wal-index written even by readers, and the last connection
/// to close may checkpoint the `-wal` into the main file. So `stepwise inspect` and the
/// version registry copy the main file and its `-wal` (never the `-shm`, which SQLite
/// rebuilds from the WAL) into a private directory and open the copy. Rows that live only
/// in the `-wal` are seen, because SQLite recovers the copied WAL when the copy opens.
///
/// ```swift
/// let snapshot = try StoreSnapshot(of: storeURL)
/// defer { snapshot.close() }
/// let count = try snapshot.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZPOST") }
/// ```
package final class StoreSnapshot: @unchecked Sendable {
    // @unchecked: the only mutable state is closing, guarded by `lock`.
    /// The store that was copied.
    package let originalURL: URL
    /// The copy's main file.
    package let copyURL: URL
    /// Whether the original had a non-empty `-wal` file.
    package let hadWAL: Bool
    /// The SQLite header of the original main file.
    package let header: StoreFileCheck.Header
    /// A connection to the copy.
    package let database: DatabaseQueue
    private let directory: URL
    private let lock = NSLock()
    private var isClosed = false

    /// Checks and copies the store at `url`, then opens the copy.
    /// - throws: ``StoreError`` for a missing, empty, non-SQLite or truncated file, or a directory.
    package init(of url: URL) throws(StoreError) {
        header = try StoreFileCheck.check(url)
        originalURL = url
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("stepwise-snapshot-\(UUID().uuidString)", isDirectory: true)
        copyURL = directory.appendingPathComponent(url.lastPathComponent)
        let original = StoreGeneration(mainFile: url)
        hadWAL = FileSystem().size(of: original.file(.wal)) > 0
        do {
            // The main file, its -wal and a hot -journal (StoreGeneration.dataFiles): SQLite
            // recovers the copied WAL, or replays the journal to undo a torn write, when the
            // copy opens. Not synced: the copy is scratch, deleted on close.
            let fileSystem = FileSystem()
            try fileSystem.createDirectory(directory, site: "snapshot.mkdir")
            try original.copy(
                to: StoreGeneration(mainFile: copyURL), checkpointing: nil, syncing: nil, fileSystem: fileSystem,
                site: "snapshot.copy")
            // FileCopy creates 0600 files, but a clone (Darwin's clonefile) keeps the original's mode.
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: copyURL.path)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw StoreError(
                path: url.path, kind: .io("can't copy the store to read it: \(error.localizedDescription)"))
        }
        do {
            var configuration = Configuration()
            configuration.label = "stepwise.snapshot"
            database = try DatabaseQueue(path: copyURL.path, configuration: configuration)
            // Fail now, with a precise error, if SQLite can't read the schema.
            _ = try database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw StoreError(path: url.path, wrapping: error)
        }
    }

    /// Closes the connection and deletes the copy. Safe to call more than once.
    package func close() {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { return }
        isClosed = true
        try? database.close()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        close()
    }
}
