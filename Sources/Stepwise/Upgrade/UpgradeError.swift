import Foundation
import StepwiseMapping
import StepwiseModel

/// An upgrade that stopped. The store is then exactly as it was before the call (or, when
/// the error came after the swap's commit point, fully upgraded): never half of each.
///
/// Errors from reading the store (``/StepwiseStore/StoreError``), identifying it (``RegistryError``) and
/// planning (``PlanningError``) are thrown as they are; this type covers the rest.
public struct UpgradeError: Error, Sendable, ReportableError {
    /// What went wrong.
    public enum Kind: Sendable {
        /// Another process (or another upgrader in this one) held the store's upgrade lock
        /// for longer than ``UpgradeOptions/lockTimeout``.
        case lockTimeout(seconds: Double)
        /// The store stayed in use for longer than ``UpgradeOptions/lockTimeout``: processes
        /// holding it open through ``StoreAccess`` (`bareConnection` false), or, at the swap,
        /// a WAL-mode SQLite connection that doesn't follow that protocol (`bareConnection`
        /// true). `processIDs` names them where the platform can. The store was not changed.
        case storeInUse(processIDs: [Int32], seconds: Double, bareConnection: Bool)
        /// The store changed on disk while it was being upgraded (a process wrote to it
        /// without ``StoreAccess``): the upgraded copy would lose those writes, so it was
        /// discarded.
        case storeChangedDuringUpgrade
        /// The store's file system has less free space than the upgrade needs.
        case insufficientSpace(neededBytes: Int64, availableBytes: Int64)
        /// A step failed; the underlying error names the mapping, entity and source row.
        case stepFailed(index: Int, count: Int, from: String, to: String, underlying: any Error & Sendable)
        /// Strict mode (``UpgradeOptions/strict``) refused a step that drops data no mapping
        /// declared; `drops` lists each with its count (nil when it couldn't be counted
        /// before the step ran).
        case dropsData(index: Int, count: Int, from: String, to: String, drops: [DroppedData])
        /// The upgraded store failed a check before the swap; it was discarded.
        case verificationFailed(String)
        /// A file-system call failed (`site` names the call).
        case fileSystem(operation: String, path: String, reason: String)
        /// `rollback` found no backup beside the store.
        case noBackup(backupDirectory: URL)
    }

    public var kind: Kind
    /// The store concerned, when known.
    public var storePath: String?
    /// The internal call site of a file-system error ("swap.out.rename"), for bug reports.
    public var site: String?
    /// The work folder beside the store that the failed upgrade kept, with the checkpoints
    /// of its completed steps, so that the next call resumes after them. It takes about the
    /// store's size; ``Upgrader/discardInterruptedUpgrade(storeAt:options:)`` deletes it.
    /// Nil when nothing was kept.
    public var leftoverWorkDirectory: URL?
    /// The size of ``leftoverWorkDirectory`` when the error was made.
    public var leftoverBytes: Int64?

    public init(_ kind: Kind, storePath: String? = nil, site: String? = nil) {
        self.kind = kind
        self.storePath = storePath
        self.site = site
    }

    /// A failed file-system call, reported against the store.
    package init(_ error: FileSystemError, storePath: String?) {
        self.init(
            .fileSystem(operation: error.operation, path: error.path, reason: error.reason), storePath: storePath,
            site: error.site)
    }

    /// Runs `body`, reporting a failed file-system call it makes as an ``UpgradeError`` about
    /// the store at `files`: the one translation every entry point (upgrade, check, rollback,
    /// discard) makes.
    static func reportingFileSystemErrors<Value>(of files: StoreFiles, _ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let error as FileSystemError {
            throw UpgradeError(error, storePath: files.store.path)
        }
    }

    /// The underlying ``/StepwiseMapping/MappingError`` of a failed step, with its mapping, entity and row.
    public var mappingError: MappingError? {
        if case .stepFailed(_, _, _, _, let underlying) = kind { return underlying as? MappingError }
        return nil
    }

    public var description: String {
        guard let leftoverWorkDirectory else { return kindDescription }
        let size = leftoverBytes.map { " (\(Self.megabytes($0)))" } ?? ""
        return """
            \(kindDescription) What the upgrade did so far is kept in \(leftoverWorkDirectory.path)\(size), so that \
            the next upgrade resumes from there; Upgrader.discardInterruptedUpgrade(storeAt:) deletes it.
            """
    }

    private var kindDescription: String {
        let store = storePath.map { "\($0): " } ?? ""
        switch kind {
        case .lockTimeout(let seconds):
            return
                "\(store)another upgrade of this store is running and didn't finish within \(Self.format(seconds)) s. Wait for it, or raise the lock timeout (UpgradeOptions.lockTimeout)."
        case .storeInUse(let pids, let seconds, let bare):
            let who =
                pids.isEmpty
                ? "another process"
                : "\(pids.count == 1 ? "process" : "processes") \(pids.map(String.init).joined(separator: ", "))"
            if bare {
                return
                    "\(store)the store is open in \(who) through a SQLite connection that doesn't hold StoreAccess, and it didn't close within \(Self.format(seconds)) s: swapping the store under it would leave it reading and writing a file that is no longer the store. The store was not changed. Close that connection, open the store through StoreAccess (Upgrader.openDatabasePool), and run the upgrade again."
            }
            return
                "\(store)the store is in use by \(who) (holding StoreAccess), which didn't close it within \(Self.format(seconds)) s. The store was not changed. Close the store in those processes (an app extension or helper), or raise the lock timeout (UpgradeOptions.lockTimeout), and run the upgrade again."
        case .storeChangedDuringUpgrade:
            return
                "\(store)the store changed while it was being upgraded: a process wrote to it without holding StoreAccess, and the upgraded copy would have lost those writes. It was discarded and the store was not changed. Open the store only through StoreAccess, then run the upgrade again."
        case .insufficientSpace(let needed, let available):
            return
                "\(store)the upgrade needs about \(Self.megabytes(needed)) free beside the store but only \(Self.megabytes(available)) is available. Free some space and try again; the store was not changed."
        case .stepFailed(let index, let count, let from, let to, let underlying):
            return
                "\(store)step \(index) of \(count) ('\(from)' → '\(to)') failed: \(underlying). The store was not changed; "
                + (failsTheSameWayAgain
                    ? "the step fails the same way on every run, so fix the mapping, the policy or the data first, then run the upgrade again."
                    : "run the upgrade again.")
        case .dropsData(let index, let count, let from, let to, let drops):
            let list = drops.map(\.description).joined(separator: "; ")
            return
                "\(store)step \(index) of \(count) ('\(from)' → '\(to)') would drop data no mapping declares: \(list). Strict mode refused the upgrade; the store was not changed. To keep the data, write an explicit mapping for this step that carries it (the inferred mapping, MappingInference, shows what the step does now). To drop it on purpose, leave the attribute out of that explicit mapping, or give the entity an entity mapping with no destination. Or turn strict mode off (UpgradeOptions.strict) to let the step drop it."
        case .verificationFailed(let reason):
            return
                "\(store)the upgraded store failed verification (\(reason)); it was discarded and the store was not changed. Please report this with the store's model versions."
        case .fileSystem(let operation, let path, let reason):
            return
                "\(store)\(operation) failed on \(path): \(reason). Check permissions and free space, then run the upgrade again: it resumes where it stopped."
        case .noBackup(let backupDirectory):
            return
                "\(store)there is no backup to roll back to (looked for \(backupDirectory.path)). Backups are kept only when the upgrade ran with UpgradeOptions.keepBackup."
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
    }

    private static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

extension UpgradeError {
    /// The kind's case name (`lockTimeout`), for tools: `{"kind": …}` in the CLI's JSON.
    package var caseName: String {
        switch kind {
        case .lockTimeout: "lockTimeout"
        case .storeInUse: "storeInUse"
        case .storeChangedDuringUpgrade: "storeChangedDuringUpgrade"
        case .insufficientSpace: "insufficientSpace"
        case .stepFailed: "stepFailed"
        case .dropsData: "dropsData"
        case .verificationFailed: "verificationFailed"
        case .fileSystem: "fileSystem"
        case .noBackup: "noBackup"
        }
    }

    public var errorDescription: String? { description }

    /// The file the error is about.
    package var subjectPath: String? { storePath }
}
