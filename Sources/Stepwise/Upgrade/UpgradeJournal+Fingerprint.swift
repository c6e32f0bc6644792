import Foundation

extension UpgradeJournal {
    /// What the original store looked like when the upgrade copied it. If it has changed
    /// since (somebody wrote to it between a crash and this run), the checkpoints are stale.
    struct Fingerprint: Codable, Sendable, Equatable {
        /// The main file's size and modification time (seconds since 1970).
        var bytes: Int64
        var modified: Double
        /// The `-wal`'s, zero when it is missing.
        var walBytes: Int64
        var walModified: Double

        /// The current fingerprint of a store's main file and `-wal`.
        init(of files: StoreFiles) {
            func attributes(_ url: URL) -> (Int64, Double) {
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else {
                    return (0, 0)
                }
                let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
                let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                return (size, modified)
            }
            (bytes, modified) = attributes(files.store)
            (walBytes, walModified) = attributes(files.generation.file(.wal))
        }
    }
}
