import Foundation
import GRDB

extension StoreGeneration {
    /// Where a checkpointed copy syncs, named for fault injection (``FileSystem``).
    package struct CheckpointSites: Sendable {
        /// The sync of the copy's main file after the checkpoint.
        package var file: String
        /// The sync of the copy's directory.
        package var directory: String

        package init(file: String, directory: String) {
            self.file = file
            self.directory = directory
        }
    }

    /// Copies the files that carry data (``dataFiles``: the main file, a `-wal` and a hot
    /// `-journal`, never the `-shm`) to `destination`, whose files must not exist.
    ///
    /// With `checkpointing`, the copy is then opened and its WAL folded into its main file
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`; a hot journal is rolled back on open), so the
    /// copy's main file alone holds every committed row, and the main file and its directory
    /// are synced: "the WAL file is part of the persistent state of the database"
    /// (<https://www.sqlite.org/wal.html>), so a copy without it would miss rows, and a copy
    /// read without checkpointing would change when SQLite first opens it.
    ///
    /// - parameters:
    ///   - syncing: How each copied file is synced (`<site><suffix>.fsync`); nil for a scratch
    ///     copy nobody relies on after a crash.
    ///   - site: Each file's copy is the site `<site><suffix>`: `copy.file`, `copy.file-wal`…
    /// - throws: ``FileSystemError``; ``StoreError`` naming this generation's main file when
    ///   the checkpoint fails.
    package func copy(
        to destination: StoreGeneration, checkpointing: CheckpointSites?, syncing: SyncKind?,
        fileSystem: FileSystem, site: String
    ) throws {
        for companion in Self.dataFiles where fileSystem.exists(file(companion)) {
            try fileSystem.copyFile(
                file(companion), to: destination.file(companion), site: site + Self.suffix(companion),
                syncing: syncing)
        }
        guard let checkpointing else { return }
        do {
            let queue = try DatabaseQueue(
                path: destination.mainFile.path, configuration: .forStoreWrites)
            try queue.writeWithoutTransaction { db in
                _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
            try queue.close()
        } catch {
            throw StoreError(path: mainFile.path, wrapping: error)
        }
        // Ordering: the checkpointed copy must reach the disk before the journal that names it;
        // if neither does, the run just starts over from the original.
        try fileSystem.sync(destination.mainFile, .ordering, site: checkpointing.file)
        try fileSystem.sync(destination.mainFile.deletingLastPathComponent(), .ordering, site: checkpointing.directory)
    }
}
