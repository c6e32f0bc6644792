import Foundation

/// The files that make up one store, and the ones Stepwise keeps beside it.
///
/// For `Library/Model.sqlite`:
/// - `Model.sqlite`, `Model.sqlite-wal`, `Model.sqlite-shm`, `Model.sqlite-journal`: the
///   store and SQLite's companions. They form one *generation*: a main file must never sit
///   beside a `-wal` or `-shm` of another, or SQLite would replay the stale WAL into it.
/// - `.Model.sqlite.stepwise/`: the work directory of an upgrade in progress (journal,
///   one subdirectory per step). Beside the store, so on the same file system: the swap is
///   a `rename`, never a copy.
/// - `.Model.sqlite.stepwise-lock`: the lock file. It is never deleted: deleting a lock
///   file lets two processes lock two different files.
/// - `.Model.sqlite.stepwise-access`: the access lock file (``StoreAccess``), never deleted
///   either.
/// - `Model.sqlite.stepwise-backup/`: the store before the last upgrade, when kept.
package struct StoreFiles: Sendable, Hashable {
    /// The store's main file and SQLite's companions beside it: the generation an upgrade
    /// replaces (`StoreGeneration`, which also says in what order its files move).
    package var generation: StoreGeneration

    /// The store's main file.
    package var store: URL {
        get { generation.mainFile }
        set { generation.mainFile = newValue }
    }

    /// - parameter store: The store's main file. A symbolic link is resolved, so the swap
    ///   replaces the real file rather than the link.
    package init(store: URL) {
        generation = StoreGeneration(mainFile: store.standardizedFileURL.resolvingSymlinksInPath())
    }

    /// The directory holding the store.
    package var directory: URL { store.deletingLastPathComponent() }
    var name: String { store.lastPathComponent }

    /// `.<store>.stepwise/`: an upgrade's work directory.
    package var workDirectory: URL {
        directory.appendingPathComponent(".\(name).stepwise", isDirectory: true)
    }

    /// Whether nothing is at the store's path: no main file (not even a dangling symbolic
    /// link), `-wal` or `-journal`, and no work directory (with one, a crash may have left the
    /// store mid-swap, and recovery must run). An app's first launch.
    package var isMissing: Bool {
        // lstat, not stat: a symbolic link to a deleted store is there, and broken.
        !generation.exists && (try? FileManager.default.attributesOfItem(atPath: workDirectory.path)) == nil
    }

    /// `.<store>.stepwise-access`: the file ``StoreAccess`` holders lock shared, and an
    /// upgrade or rollback exclusively (see ``StoreAccess`` for why it isn't the lock file).
    package var accessLockFile: URL {
        directory.appendingPathComponent(".\(name).stepwise-access")
    }

    /// `.<store>.stepwise-lock`: the file the cross-process lock is taken on.
    package var lockFile: URL {
        directory.appendingPathComponent(".\(name).stepwise-lock")
    }

    /// `<store>.stepwise-backup/`: the store before the last upgrade, when kept.
    package var backupDirectory: URL {
        directory.appendingPathComponent("\(name).stepwise-backup", isDirectory: true)
    }
}
