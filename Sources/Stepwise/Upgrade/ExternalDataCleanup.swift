import Foundation
import GRDB
import Logging
import StepwiseStore

/// What happens to the files of a store's external-storage values (``ExternalDataFolder``)
/// around a swap, so that every reference of the store in place resolves at every point, and
/// a rollback gets back the files of the store it restores.
///
/// An upgrade never writes into the folder: the values it converts are stored inline, and the
/// ones it copies keep their references. What it leaves behind are files that the upgraded
/// store no longer references (their attribute was dropped, or its values converted inline).
///
/// ## The order, and why
///
/// All of it runs after the journal says `swapped` (``UpgradeRecovery``): before that, the old
/// store may still be the one in place, and it references those files.
///
/// 1. **Keep** (only when a backup is kept): each file of the folder gets a second name in
///    `outgoing/_EXTERNAL_DATA/` (a hard link: no bytes copied; a copy where the file system
///    has none), and that folder is synced. `outgoing/` becomes the backup, so the old store's
///    files travel with it, and the app deleting a file later can't take it from the backup.
/// 2. **Remove**: the files the store in place doesn't reference are deleted, then the folder
///    is synced. The references are collected by SQL into a temporary table
///    (``referencedFileNames(in:columns:)``), never into memory.
///
/// Both phases skip what is already done, so a crash in either is finished by the replay from
/// the journal. Step 1 completes before step 2 starts, so a file removed is always in the
/// backup already.
///
/// A rollback (``restore(from:)``) moves the backup's files back into the folder before the
/// backup's store moves in: a file the app deleted since the upgrade comes back.
struct ExternalDataCleanup {
    var files: StoreFiles
    var fileSystem: FileSystem
    var logger: Logger

    /// The store's `_EXTERNAL_DATA` folder.
    var folder: ExternalDataFolder { ExternalDataFolder(store: files.store) }

    /// The `_EXTERNAL_DATA` folder inside a generation's directory (`outgoing/`, a backup).
    static func keptFolder(in directory: URL) -> URL {
        directory.appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    /// Phase 1: every file of the folder gets a second name in `kept` (created if needed).
    ///
    /// - parameter kept: The folder the old generation's files are kept in.
    func keep(in kept: URL) throws {
        let names = try folder.fileNames()
        guard !names.isEmpty else { return }
        if !fileSystem.exists(kept) {
            try fileSystem.createDirectory(kept, site: "external.keep.mkdir")
        }
        for name in names where !fileSystem.exists(kept.appendingPathComponent(name)) {
            let source = folder.file(named: name)
            let destination = kept.appendingPathComponent(name)
            if try !fileSystem.hardLink(source, to: destination, site: "external.keep.link") {
                try fileSystem.copyFile(source, to: destination, site: "external.keep.copy", syncing: .ordering)
            }
        }
        // Ordering: the backup's links reach the disk before any file is removed (phase 2).
        try fileSystem.sync(kept, .ordering, site: "external.keep.sync")
    }

    /// Phase 2: deletes the files of the folder that the store in place doesn't reference.
    ///
    /// - parameter columns: The store's external-storage columns (the target version's).
    /// - returns: How many files were removed.
    @discardableResult
    func removeUnreferenced(columns: [ExternalDataColumn]) throws -> Int {
        let names = try folder.fileNames()
        guard !names.isEmpty else { return 0 }
        // Immutable only while the main file is the whole store: a process that opened the
        // store after a crash may have written rows to its -wal, and their files count.
        let queue =
            try ImmutableStore.isAvailable && files.generation.hasNothingToFoldIn
            ? ImmutableStore.openQueue(at: files.store)
            : DatabaseQueue(path: files.store.path, configuration: Self.readOnly)
        defer { try? queue.close() }
        var unreferenced: [String] = []
        try queue.inDatabase { db in
            guard try Self.referencedFileNames(in: db, columns: columns) else {
                logger.warning(
                    "the store lacks an external-storage column of its model; its external files are left as they are",
                    metadata: ["store": "\(files.store.path)"])
                return
            }
            let isReferenced = try db.makeStatement(
                sql: #"SELECT 1 FROM "temp"."stepwise_referenced" WHERE "name" = ?"#)
            for name in names where try Int.fetchOne(isReferenced, arguments: [name]) == nil {
                unreferenced.append(name)
            }
            try db.execute(sql: #"DROP TABLE "temp"."stepwise_referenced""#)
        }
        for name in unreferenced {
            try fileSystem.remove(folder.file(named: name), site: "external.remove-unreferenced")
        }
        if !unreferenced.isEmpty {
            // Ordering: made durable with the rest by the cleanup's durable sync.
            try fileSystem.sync(folder.url, .ordering, site: "external.sync-folder")
            logger.info(
                "removed external files the upgraded store no longer references",
                metadata: ["count": "\(unreferenced.count)"])
        }
        return unreferenced.count
    }

    /// Rollback: moves each file of the backup's `kept` folder that the store's folder lacks
    /// back into it (creating `.<StoreName>_SUPPORT/_EXTERNAL_DATA/` if the app removed it),
    /// then syncs the folder. Files already there are left: a name is a UUID, never reused.
    ///
    /// - parameter kept: The backup's `_EXTERNAL_DATA` folder.
    func restore(from kept: URL) throws {
        let names = try ExternalDataFolder(url: kept).fileNames()
        guard !names.isEmpty else { return }
        for directory in [folder.supportDirectory, folder.url] where !fileSystem.exists(directory) {
            try fileSystem.createDirectory(directory, site: "rollback.external.mkdir")
        }
        for name in names where !fileSystem.exists(folder.file(named: name)) {
            try fileSystem.rename(
                kept.appendingPathComponent(name), to: folder.file(named: name), site: "rollback.external.rename")
        }
        // Ordering: the files are back before the backup's store moves in.
        try fileSystem.sync(folder.url, .ordering, site: "rollback.external.sync")
    }

    /// Fills `temp.stepwise_referenced` with the file names the store's `columns` hold
    /// (``ExternalBinaryValue``: `0x02`, then the UUID's 36 characters). False, with no table,
    /// when a column is missing from the store: then nothing may be called unreferenced.
    static func referencedFileNames(in db: Database, columns: [ExternalDataColumn]) throws -> Bool {
        try db.execute(
            sql: #"CREATE TEMP TABLE "stepwise_referenced" ("name" TEXT PRIMARY KEY) WITHOUT ROWID"#)
        for column in columns {
            let present = try Row.fetchAll(
                db, sql: "SELECT \"name\" FROM pragma_table_info(?) WHERE \"name\" = ? COLLATE NOCASE",
                arguments: [column.table, column.column])
            guard !present.isEmpty else {
                try db.execute(sql: #"DROP TABLE "temp"."stepwise_referenced""#)
                return false
            }
            let value = column.column.quotedSQLIdentifier
            // substr() counts bytes in a BLOB: the 36 after the marker are the UUID's text.
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO "temp"."stepwise_referenced" ("name")
                    SELECT CAST(substr(\(value), 2, 36) AS TEXT) FROM "main".\(column.table.quotedSQLIdentifier)
                    WHERE typeof(\(value)) = 'blob' AND substr(\(value), 1, 1) = x'02'
                    """)
        }
        return true
    }

    private static var readOnly: Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }

    /// The target's external-storage columns, for the cleanup after the swap
    /// (``removeUnreferenced(columns:)``); nil when neither the store's version nor the target
    /// has an external-storage attribute: then the upgrade leaves the folder alone.
    static func columns(of plan: UpgradePlan) throws -> [ExternalDataColumn]? {
        guard let first = plan.steps.first, let last = plan.steps.last else { return nil }
        let target = try StoreLayout(model: last.destination)
        let sourceColumns = try StoreLayout(model: first.source).externalDataColumns
        let columns = target.externalDataColumns
        return columns.isEmpty && sourceColumns.isEmpty ? nil : columns
    }
}
