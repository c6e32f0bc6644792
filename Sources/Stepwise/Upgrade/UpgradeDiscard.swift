import Foundation

/// ``Upgrader/discardInterruptedUpgrade(storeAt:options:)``: deletes the checkpoints a failed
/// or cancelled upgrade kept beside the store.
///
/// Under the upgrade lock and the exclusive access lock, like an upgrade, so that it never
/// pulls a work folder from under a running upgrade. Recovery runs first
/// (``UpgradeRecovery``): an upgrade interrupted past its commit point is finished, never
/// undone, because the store may already be the new one. Only checkpoints from before the
/// commit point are discarded; the store itself is never touched by that.
struct UpgradeDiscard {
    var files: StoreFiles
    var options: UpgradeOptions

    func run() throws -> Upgrader.DiscardOutcome {
        let fileSystem = options.fileSystem
        guard fileSystem.exists(files.workDirectory) else { return .nothingToDiscard }
        let bytes = WorkDirectorySize.bytes(of: files.workDirectory)
        let takeover = try StoreTakeover(files, options: options)
        defer { withExtendedLifetime(takeover) {} }
        switch takeover.recovered {
        case .nothing:
            // Recovery found nothing worth keeping (no journal, or a store changed since) and
            // deleted what there was.
            return fileSystem.exists(files.workDirectory) ? .nothingToDiscard : .discarded(bytes: bytes)
        case .finishedSwap(let journal):
            return .finishedSwap(version: journal.to)
        case .resumable:
            try fileSystem.remove(files.workDirectory, site: "discard.remove-work-directory")
            options.logger.notice(
                "discarded an interrupted upgrade's checkpoints", metadata: ["store": "\(files.store.path)"])
            return .discarded(bytes: bytes)
        }
    }
}

/// The bytes of the files under a folder (for messages: best effort, 0 when unreadable).
enum WorkDirectorySize {
    static func bytes(of directory: URL) -> Int64 {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.fileSizeKey])
        else { return 0 }
        var total: Int64 = 0
        for case let url as URL in enumerator {
            total += Int64((try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        }
        return total
    }
}
