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
public struct StoreFiles: Sendable, Hashable {
    /// SQLite's companion suffixes, in the order a generation is moved *out*: companions
    /// before the main file (which ``GenerationSwap`` normally only links, leaving it in
    /// place), so a companion never sits at the store's path without its main file: anyone
    /// opening the store then would create a new main file beside it, and SQLite would replay
    /// the stale WAL or journal into that.
    static let outgoingOrder = ["-shm", "-wal", "-journal", ""]
    /// The order a generation is moved *in*: the main file first, then its companions, for
    /// the same reason.
    static let incomingOrder = ["", "-journal", "-wal", "-shm"]

    /// The store's main file.
    public var store: URL

    /// - parameter store: The store's main file. A symbolic link is resolved, so the swap
    ///   replaces the real file rather than the link.
    public init(store: URL) {
        self.store = store.standardizedFileURL.resolvingSymlinksInPath()
    }

    /// The directory holding the store.
    public var directory: URL { store.deletingLastPathComponent() }
    var name: String { store.lastPathComponent }

    /// The main file (`""`) or a companion (`"-wal"`).
    func file(_ suffix: String) -> URL {
        URL(fileURLWithPath: store.path + suffix)
    }

    /// `.<store>.stepwise/`: an upgrade's work directory.
    public var workDirectory: URL {
        directory.appendingPathComponent(".\(name).stepwise", isDirectory: true)
    }

    /// Whether nothing is at the store's path: no main file (not even a dangling symbolic
    /// link), `-wal` or `-journal`, and no work directory (with one, a crash may have left the
    /// store mid-swap, and recovery must run). An app's first launch.
    public var isMissing: Bool {
        func exists(_ url: URL) -> Bool {
            // lstat, not stat: a symbolic link to a deleted store is there, and broken.
            (try? FileManager.default.attributesOfItem(atPath: url.path)) != nil
        }
        return !["", "-wal", "-journal"].contains { exists(file($0)) } && !exists(workDirectory)
    }

    /// `.<store>.stepwise-access`: the file ``StoreAccess`` holders lock shared, and an
    /// upgrade or rollback exclusively (see ``StoreAccess`` for why it isn't the lock file).
    public var accessLockFile: URL {
        directory.appendingPathComponent(".\(name).stepwise-access")
    }

    /// `.<store>.stepwise-lock`: the file the cross-process lock is taken on.
    public var lockFile: URL {
        directory.appendingPathComponent(".\(name).stepwise-lock")
    }

    /// `<store>.stepwise-backup/`: the store before the last upgrade, when kept.
    public var backupDirectory: URL {
        directory.appendingPathComponent("\(name).stepwise-backup", isDirectory: true)
    }
}
