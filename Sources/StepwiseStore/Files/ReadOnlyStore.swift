import Foundation
import GRDB

/// A read-only connection to a store file no other process writes: a private copy, a step's
/// checkpoint, an upgraded store before its swap. Unlike ``ImmutableStore`` it reads the
/// file's `-wal` as SQLite normally does; for the original store, use ``ImmutableStore``.
package enum ReadOnlyStore {
    package static func openQueue(at url: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    /// The original store through ``ImmutableStore`` when `immutable`, else ``openQueue(at:)``.
    package static func openQueue(at url: URL, immutable: Bool) throws -> DatabaseQueue {
        immutable ? try ImmutableStore.openQueue(at: url) : try openQueue(at: url)
    }
}
