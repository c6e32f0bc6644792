import Foundation
import GRDB
import StepwiseStore

/// Leaves a store as a killed app would: its newest rows only in its `-wal`, beside its `-shm`.
package enum WALWriter {
    /// Writes `body` in one transaction through a connection with automatic checkpoints off,
    /// on a scratch copy, then puts the main file, `-wal` and `-shm` back at `store` while that
    /// connection is still open (closing it would checkpoint the rows into the main file).
    package static func write(to store: URL, _ body: (Database) throws -> Void) throws {
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("stepwise-wal-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let working = scratch.appendingPathComponent(store.lastPathComponent)
        try FileManager.default.copyItem(at: store, to: working)
        let queue = try DatabaseQueue(path: working.path, configuration: .withCoreDataTriggerFunctions)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.inTransaction {
                try body(db)
                return .commit
            }
        }
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: store.path + suffix)
            try FileManager.default.copyItem(atPath: working.path + suffix, toPath: store.path + suffix)
        }
        try queue.close()
    }
}
