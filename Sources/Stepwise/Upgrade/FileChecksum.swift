import Crypto
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checkpoints of the journal: what makes a file in the work directory trusted again
/// after a crash, and what the swap checks before the incoming store moves in.
///
/// **What a checkpoint must catch, and why a whole-file hash isn't needed for it.**
/// 1. *A file that was never finished.* The journal records a checkpoint only after the file
///    is complete and synced (the order is in `UpgradeRun+Steps`), so a half-written step
///    has no checkpoint at all. The check's job is only to tell whether the file at the
///    recorded path is still the one recorded.
/// 2. *A file changed after its checkpoint.* Every change goes through the file system and
///    changes the file's identity: writes change its modification time (and usually its size);
///    a replacement or a copy is another inode; Stepwise's own in-place step first *moves* the
///    file it alters, so the recorded path is left empty. The identity (device, inode, size,
///    modification time to the nanosecond) is compared exactly, and a SHA-256 of the file's
///    first and last 64 KB (SQLite's header page, with its change counter and schema cookie,
///    and the last pages written) catches a change on a file system whose times are coarse.
///
/// Hashing every byte would read the whole store three times per upgrade (the copy, each
/// step's output, the swap), which costs more than the step itself for an in-place step. What
/// it alone could catch is media corruption in the seconds between two reads, which SQLite,
/// with no checksums of its own, wouldn't see anywhere else either.
enum FileChecksum {
    /// Bytes hashed at each end of the file.
    static let sampledBytes = 64 * 1024

    /// SHA-256 of the file's first and last ``sampledBytes``, and its size.
    static func sampledSHA256(of url: URL, size: Int64) throws -> String {
        try hash(url) { handle, hasher in
            withUnsafeBytes(of: size.littleEndian) { hasher.update(bufferPointer: $0) }
            if let head = try handle.read(upToCount: sampledBytes) { hasher.update(data: head) }
            let tailStart = max(Int64(sampledBytes), size - Int64(sampledBytes))
            if tailStart < size {
                try handle.seek(toOffset: UInt64(tailStart))
                if let tail = try handle.read(upToCount: sampledBytes) { hasher.update(data: tail) }
            }
        }
    }

    private static func hash(_ url: URL, _ body: (FileHandle, inout SHA256) throws -> Void) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw UpgradeError(
                .fileSystem(operation: "read", path: url.path, reason: "can't open the file to checksum it"),
                site: "checksum.open")
        }
        defer { try? handle.close() }
        var hasher = SHA256()
        do {
            try body(handle, &hasher)
        } catch {
            throw UpgradeError(
                .fileSystem(operation: "read", path: url.path, reason: error.localizedDescription),
                site: "checksum.read")
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// A checkpoint for a file inside the work directory.
    static func checkpoint(_ url: URL, in workDirectory: URL) throws -> UpgradeJournal.Checkpoint {
        let relative = String(url.path.dropFirst(workDirectory.path.count + 1))
        guard let identity = UpgradeJournal.FileIdentity(of: url) else {
            throw UpgradeError(
                .fileSystem(operation: "read", path: url.path, reason: "can't read the file's status to checksum it"),
                site: "checksum.open")
        }
        return UpgradeJournal.Checkpoint(
            file: relative, sha256: try sampledSHA256(of: url, size: identity.size), bytes: identity.size,
            identity: identity)
    }

    /// Whether the checkpoint's file is still there, the same file with the same bytes.
    static func verify(_ checkpoint: UpgradeJournal.Checkpoint, in workDirectory: URL) -> Bool {
        verify(checkpoint, at: workDirectory.appendingPathComponent(checkpoint.file))
    }

    /// Whether the file at `url` is the checkpoint's file, with the same bytes: where a rename
    /// took it (a rename keeps the identity).
    static func verify(_ checkpoint: UpgradeJournal.Checkpoint, at url: URL) -> Bool {
        guard UpgradeJournal.FileIdentity(of: url) == checkpoint.identity else { return false }
        return (try? sampledSHA256(of: url, size: checkpoint.identity.size)) == checkpoint.sha256
    }
}

extension UpgradeJournal.FileIdentity {
    /// The identity of the file at `url` (following no symbolic link), nil if it can't be read.
    init?(of url: URL) {
        var status = stat()
        guard lstat(url.path, &status) == 0 else { return nil }
        #if canImport(Darwin)
            let modified = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
        #else
            let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        #endif
        self.init(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modifiedNanoseconds: modified)
    }
}
