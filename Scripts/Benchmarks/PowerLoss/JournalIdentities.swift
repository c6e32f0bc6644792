import Foundation

/// Carries the file identities a journal recorded over to a written crash state.
///
/// A journal's checkpoints name each file by device, inode and modification time as well as
/// by size and a hash of its head and tail, and the journal fingerprints the original store by
/// its sizes and modification times. A power loss keeps a file's inode and its synced times,
/// but a state written afresh by this tool has new ones: left as they are, every checkpoint
/// would read as changed and every recovery would start over, and the resume and forward-swap
/// paths would never be tried. So where a recorded file exists in the state with the recorded
/// size, its device, inode and time are set to the written file's; the size and hash, which
/// say whether its bytes are the ones recorded, are left for the recovery to check.
enum JournalIdentities {
    /// Rewrites `workDirectory/journal.json`, if there is one that parses.
    static func carryOver(workDirectory: URL, store: URL) throws {
        let journalFile = workDirectory.appendingPathComponent("journal.json")
        guard let data = try? Data(contentsOf: journalFile),
            var journal = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return }
        if let copy = journal["copy"] as? [String: Any] {
            journal["copy"] = carried(copy, in: workDirectory)
        }
        if let final = journal["final"] as? [String: Any] {
            // Once moved in, the verified store is the store's main file: a rename keeps its
            // identity, and recovery proves the store is the new one by it (InterruptedSwapCheck).
            journal["final"] = carried(final, in: workDirectory, orAt: store)
        }
        if let completed = journal["completed"] as? [[String: Any]] {
            journal["completed"] = completed.map { step in
                var step = step
                if let output = step["output"] as? [String: Any] { step["output"] = carried(output, in: workDirectory) }
                return step
            }
        }
        if var original = journal["original"] as? [String: Any] {
            for (file, bytesKey, modifiedKey) in [
                (store, "bytes", "modified"), (URL(fileURLWithPath: store.path + "-wal"), "walBytes", "walModified"),
            ] {
                // As the fingerprint reads it (UpgradeJournal.Fingerprint): FileManager's date.
                if let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
                    (original[bytesKey] as? NSNumber)?.int64Value == (attributes[.size] as? NSNumber)?.int64Value,
                    let modified = attributes[.modificationDate] as? Date
                {
                    original[modifiedKey] = modified.timeIntervalSince1970
                }
            }
            journal["original"] = original
        }
        try JSONSerialization.data(withJSONObject: journal).write(to: journalFile)
    }

    /// The checkpoint with the identity of the file it names, or where that is missing, of
    /// `fallback`.
    private static func carried(
        _ checkpoint: [String: Any], in workDirectory: URL, orAt fallback: URL? = nil
    ) -> [String: Any] {
        guard let file = checkpoint["file"] as? String, var identity = checkpoint["identity"] as? [String: Any],
            let status = status(of: workDirectory.appendingPathComponent(file)) ?? fallback.flatMap(status(of:)),
            (identity["size"] as? NSNumber)?.int64Value == status.size
        else { return checkpoint }
        identity["device"] = status.device
        identity["inode"] = status.inode
        identity["modifiedNanoseconds"] = status.modifiedNanoseconds
        var carried = checkpoint
        carried["identity"] = identity
        return carried
    }

    private struct Status {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedNanoseconds: Int64
    }

    private static func status(of url: URL) -> Status? {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        #if canImport(Darwin)
            let time = status.st_mtimespec
        #else
            let time = status.st_mtim
        #endif
        return Status(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modifiedNanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }
}
