import Foundation

/// One generation of a store's files: its main file and SQLite's companions beside it
/// (`-wal`, `-shm`, `-journal`).
///
/// The files of one generation belong together: a main file must never sit beside a `-wal` or
/// `-shm` of another, or SQLite would replay the stale WAL (or roll back the stale journal)
/// into it. So Stepwise copies, moves and removes them as one, through this type.
///
/// - The `-wal` holds committed rows not yet in the main file, and a hot `-journal` undoes a
///   torn write: both carry the store's data (`dataFiles`).
/// - The `-shm` is only an index of the `-wal`, which SQLite rebuilds: it is never copied.
package struct StoreGeneration: Sendable, Hashable {
    /// A file SQLite keeps beside a store's main file, named by its suffix.
    package enum Companion: String, Sendable, Hashable, CaseIterable {
        case wal = "-wal"
        case shm = "-shm"
        case journal = "-journal"
    }

    /// The order a generation is moved *out* of a store's path: companions before the main
    /// file (which the upgrade's swap, `GenerationSwap`, normally only links, leaving it in
    /// place), so a companion
    /// never sits at the store's path without its main file: anyone opening the store then
    /// would create a new main file beside it, and SQLite would replay the stale WAL or
    /// journal into that. `nil` is the main file. Removal follows it too.
    package static let outgoingOrder: [Companion?] = [.shm, .wal, .journal, nil]
    /// The order a generation is moved *in*: the main file first, then its companions, for
    /// the same reason.
    package static let incomingOrder: [Companion?] = [nil, .journal, .wal, .shm]
    /// The files that carry committed rows: the main file, the `-wal` and a hot `-journal`;
    /// never the `-shm`, an index SQLite rebuilds from the `-wal`.
    package static let dataFiles: [Companion?] = [nil, .wal, .journal]

    /// The store's main file.
    package var mainFile: URL

    /// - parameter mainFile: The store's main file, taken as given (no symbolic link resolved).
    package init(mainFile: URL) {
        self.mainFile = mainFile
    }

    /// The main file (`nil`) or a companion: `Store.sqlite-wal` for `.wal`.
    package func file(_ companion: Companion?) -> URL {
        guard let companion else { return mainFile }
        return URL(fileURLWithPath: mainFile.path + companion.rawValue)
    }

    /// `""` for the main file, else the companion's suffix: how fault-injection sites name a file.
    package static func suffix(_ companion: Companion?) -> String {
        companion?.rawValue ?? ""
    }

    /// Whether any file that carries data is there: the main file (even a dangling symbolic
    /// link), a `-wal` or a `-journal`.
    package var exists: Bool {
        Self.dataFiles.contains { companion in
            // lstat, not stat: a symbolic link to a deleted store is there, and broken.
            (try? FileManager.default.attributesOfItem(atPath: file(companion).path)) != nil
        }
    }

    /// Whether the main file holds the whole store: its `-wal` and `-journal` are absent or
    /// empty, so there is nothing for SQLite to fold in (``ImmutableStore`` reads such a store
    /// in place).
    package var hasNothingToFoldIn: Bool {
        [Companion.wal, .journal].allSatisfy { companion in
            let attributes = try? FileManager.default.attributesOfItem(atPath: file(companion).path)
            return ((attributes?[.size] as? NSNumber)?.int64Value ?? 0) == 0
        }
    }

    /// The bytes of the files that carry data (``dataFiles``): what a copy of the generation
    /// costs.
    package func dataBytes(fileSystem: FileSystem) -> Int64 {
        Self.dataFiles.reduce(0) { $0 + fileSystem.size(of: file($1)) }
    }
}
