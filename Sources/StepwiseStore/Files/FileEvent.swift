import Foundation

/// One file-system operation that changes what a power loss could leave on disk: what
/// `Scripts/power-loss` records from Stepwise's ``FileSystem`` and from SQLite's VFS, and
/// replays to build crash states. Paths are absolute.
package enum FileEvent: Sendable, Hashable {
    /// A new, empty file (its directory entry pends until its directory is synced).
    case create(String)
    /// `bytes` written at `offset`: pending until the file is synced.
    case write(String, offset: Int64, bytes: [UInt8])
    /// The file cut (or extended with zeros) to `size`: pending until the file is synced.
    case truncate(String, size: Int64)
    /// `fsync` of a file: its data and size are durable.
    case sync(String)
    /// `fsync` of a directory: the entries created, renamed, linked or removed in it are durable.
    case syncDirectory(String)
    /// A new, empty directory.
    case mkdir(String)
    /// `rename(from, to)`, replacing `to`: pends in both directories.
    case rename(String, String)
    /// `link(from, to)`: a second name for the same file.
    case link(String, String)
    /// `unlink` of a file, or `rmdir` of a directory (emptied first).
    case unlink(String)
}

/// Receives each ``FileEvent`` after the call succeeded, with the ``FileSystem`` site that made
/// it (or SQLite's, e.g. `sqlite.xWrite`). Called on whichever thread made the call.
package typealias FileEventRecorder = @Sendable (_ event: FileEvent, _ site: String) -> Void
