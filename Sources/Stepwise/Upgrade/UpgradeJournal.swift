import Foundation
import StepwiseStore

/// The record of an upgrade in progress, in `.<store>.stepwise/journal.json`: what the
/// upgrade plans, which steps are done (with a checksum of each output), and how far the
/// swap got. It is what lets the next `upgradeIfNeeded` after a crash resume instead of
/// starting over, and never trust a half-written step.
///
/// Every save is durable before it returns (``save(in:fileSystem:)``): the next step, or the
/// next swap phase, only starts once the journal says the previous one is done.
struct UpgradeJournal: Codable, Sendable, Equatable {
    /// How far the upgrade got.
    enum State: String, Codable, Sendable {
        /// Copying the store into the work directory; nothing is worth keeping yet.
        case copying
        /// Running steps; ``completed`` lists the ones that are done.
        case running
        /// A step or the verification failed; the completed checkpoints remain.
        case failed
        /// The final store passed verification; ``final`` records it.
        case verified
        /// Commit point. The store's files are being moved out of the way. From here on
        /// recovery finishes the swap instead of discarding the work.
        case swappingOut
        /// The old generation is out; the new store is being moved in.
        case swappingIn
        /// The new store is in place; only the cleanup is left.
        case swapped
        /// A rollback's commit point: the backup is being moved into the work directory's
        /// `incoming/`, to be swapped in like an upgrade's output. Recovery finishes it.
        case restoring
    }

    /// What the work directory is for.
    enum Purpose: String, Codable, Sendable {
        case upgrade, rollback
    }

    /// A store file the journal vouches for: where it is, in the work directory, and what
    /// its bytes hash to.
    /// A file the journal trusts (see ``FileChecksum`` for how it is checked).
    struct Checkpoint: Codable, Sendable, Equatable {
        /// The path relative to the work directory.
        var file: String
        /// SHA-256 of the file's size, head and tail (``FileChecksum``).
        var sha256: String
        var bytes: Int64
        var identity: FileIdentity

        /// The same file, recorded under the path it was renamed to (a rename keeps the
        /// inode and the modification time).
        func renamed(to file: String) -> Checkpoint {
            var moved = self
            moved.file = file
            return moved
        }
    }

    /// Which file a checkpoint recorded, and its last modification.
    struct FileIdentity: Codable, Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedNanoseconds: Int64
    }

    /// One finished step: its report, as it ran, and its output's checkpoint.
    struct CompletedStep: Codable, Sendable, Equatable {
        /// 1-based.
        var index: Int
        var report: StepReport
        var output: Checkpoint
    }

    static let fileName = "journal.json"
    static let formatVersion = 1

    var format = formatVersion
    var purpose = Purpose.upgrade
    var state: State
    var original: Fingerprint
    var from: String?
    var to: String?
    /// Each planned step's fingerprint (``PlannedStep/fingerprint(policies:)``): a resumed
    /// upgrade must follow the same plan, with the same mappings and policy versions.
    var plan: [String] = []
    /// The checkpointed copy of the original (step 0); nil when step 1 reads the original.
    var copy: Checkpoint?
    /// Whether step 1 reads the original itself, read-only (``ImmutableStore``), because it had
    /// nothing in a `-wal` or `-journal` to fold in.
    var readsOriginal = false
    var completed: [CompletedStep] = []
    /// The verified final store, before the swap moves it.
    var final: Checkpoint?
    /// Whether the old generation is kept as a backup after the swap.
    var keepBackup: Bool = false
    /// Why the upgrade failed, when it did.
    var failure: String?
    /// The target version's external-storage columns, whose references decide which files
    /// the swap leaves unreferenced (``ExternalDataCleanup``); nil when neither the store's
    /// version nor the target has external storage, and the folder is left alone.
    var externalDataColumns: [ExternalDataColumn]?

    /// Reads the journal of a work directory; nil when there is none or it can't be decoded
    /// (a crash before its first save, or a format this build doesn't know).
    static func load(from workDirectory: URL) -> UpgradeJournal? {
        let url = workDirectory.appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: url),
            let journal = try? JSONDecoder().decode(UpgradeJournal.self, from: data),
            journal.format == formatVersion
        else { return nil }
        return journal
    }

    /// Saves durably: write a temporary file and sync it, rename it over the journal, then
    /// sync the directory so the rename itself survives power loss. A crash at any point
    /// leaves either the old journal or the new one, never a torn one.
    func save(in workDirectory: URL, fileSystem: FileSystem) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw UpgradeError(
                .fileSystem(operation: "write", path: workDirectory.path, reason: "can't encode the journal: \(error)"),
                site: "journal.encode")
        }
        let temporary = workDirectory.appendingPathComponent(Self.fileName + ".tmp")
        // Ordering, both syncs: the new journal's bytes reach the disk before its rename does,
        // and the rename before anything the new state allows (deleting a checkpoint, moving
        // the store's files). A save lost to power loss is a kill before it, which recovery
        // handles; the hand-off to the app is made durable once, at the end of the cleanup.
        try fileSystem.writeNewFile(data, to: temporary, site: "journal.write", sync: .ordering)
        try fileSystem.rename(
            temporary, to: workDirectory.appendingPathComponent(Self.fileName), site: "journal.rename")
        try fileSystem.sync(workDirectory, .ordering, site: "journal.sync-directory")
    }
}
