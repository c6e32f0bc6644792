import Crypto
import Foundation

/// SHA-256 of a file, read in 1 MB chunks so memory stays flat whatever the store's size.
enum FileChecksum {
    static func sha256(of url: URL) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw UpgradeError(
                .fileSystem(operation: "read", path: url.path, reason: "can't open the file to checksum it"),
                site: "checksum.open")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 20)
            } catch {
                throw UpgradeError(
                    .fileSystem(operation: "read", path: url.path, reason: error.localizedDescription),
                    site: "checksum.read")
            }
            guard let chunk, !chunk.isEmpty else { break }
            hasher.update(data: chunk)
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// A checkpoint for a file inside the work directory.
    static func checkpoint(_ url: URL, in workDirectory: URL) throws -> UpgradeJournal.Checkpoint {
        let relative = String(url.path.dropFirst(workDirectory.path.count + 1))
        let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
        return UpgradeJournal.Checkpoint(file: relative, sha256: try sha256(of: url), bytes: bytes)
    }

    /// Whether the checkpoint's file is still there with the same bytes.
    static func verify(_ checkpoint: UpgradeJournal.Checkpoint, in workDirectory: URL) -> Bool {
        let url = workDirectory.appendingPathComponent(checkpoint.file)
        guard let sha = try? sha256(of: url) else { return false }
        return sha == checkpoint.sha256
    }
}
