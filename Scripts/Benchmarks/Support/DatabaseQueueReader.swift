import Foundation
import GRDB
import StepwiseStore

/// Small reads the baselines make before they write.
enum DatabaseQueueReader {
    /// The store's UUID, which a rebuilt store keeps (as a migration does).
    static func uuid(of store: URL) throws -> String {
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        return try queue.read { db in try StoreMetadata.read(from: db, path: store.path).storeUUID }
    }
}
