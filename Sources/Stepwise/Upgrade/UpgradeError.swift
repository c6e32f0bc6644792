import Foundation
import StepwiseMapping
import StepwiseModel

/// An upgrade that can't start or that stopped, a store that can't be opened while an upgrade
/// runs or is needed, or an accepted-findings file that can't be read. When an upgrade stops,
/// the store is exactly as it was before the call (or, when the error came after the swap's
/// commit point, fully upgraded): never half of each.
///
/// Switch on ``kind`` to tell the cases apart; ``description`` is the sentence to show.
/// Errors from reading the store (``/StepwiseStore/StoreError``), its models
/// (``/StepwiseModel/ModelError``) and its mappings (``/StepwiseMapping/MappingError``) are
/// thrown as they are.
public struct UpgradeError: Error, Sendable, LocalizedError, ReportableError {
    /// What went wrong.
    public enum Kind: Sendable {
        // Identifying the store (``VersionRegistry``).

        /// The store was written by a model newer than every version in the history,
        /// e.g. by a later app build. Downgrading is not supported.
        case newerThanKnownVersions(storeVersionName: String?, latest: String, differences: [SchemaDifference])
        /// Neither hashes nor tables match any version (see also ``UpgradeError/modelCacheNote``).
        case noMatchingVersion(closest: String?, differences: [SchemaDifference])
        /// The metadata and the tables disagree (see ``StoreIdentification/problem``).
        case inconsistent(problem: String)
        /// The history has no versions.
        case emptyHistory

        // Planning the upgrade, before any step runs.

        /// A version name the history doesn't have.
        case unknownVersion(String, available: [String])
        /// No chain of mappings leads from `from` to `to`. `gap` is the first consecutive pair
        /// on the way that has neither a mapping file nor an inferable mapping, with the
        /// reasons inference gave.
        case noPath(from: String, to: String, gap: (from: String, to: String)?, problems: [InferenceProblem])
        /// The store is at a version later than the target, and no mapping leads back from it:
        /// a store written by a newer build is never migrated down by inference.
        case laterThanTarget(storeVersion: String, target: String)
        /// A mapping on the path names a policy the upgrader has no registration for: found
        /// while planning, before any step runs.
        case unregisteredPolicy(name: String, mappingModel: String, entityMapping: String)
        /// Two ``/StepwiseMapping/MigrationStage``s were given for the same step.
        case duplicateStage(from: String, to: String)
        /// The store holds entities that no version of the given models has (`entities`, kept in
        /// `tables`): most often the entities of another model the app merges into the same
        /// store. Dropping them takes ``UpgradeOptions/dropsUnknownEntities``; nothing was changed.
        case unknownEntities(entities: [String], tables: [String])

        // Opening the store (``StoreAccess``, ``Upgrader/openDatabasePool(storeAt:configuration:)``).

        /// An upgrade or rollback of the store ran for longer than the timeout.
        case upgradeRunning(seconds: Double)
        /// The store is at an older version than the upgrader's target: call
        /// ``Upgrader/upgradeIfNeeded(storeAt:)`` first (in the app), or show "Open the
        /// app to finish updating" (in an extension).
        case needsUpgrade(target: String)
        /// The store's access lock file couldn't be opened or locked.
        case accessLockFailed(reason: String)

        // Reading an accepted-findings file (``AcceptedFindings``).

        /// The file at `path` can't be read (missing, unreadable).
        case unreadableAcceptedFindings(path: String, reason: String)
        /// The file at `path` isn't an accepted-findings file: bad JSON, an unknown kind, a key
        /// missing, an empty reason. `reason` names the entry and the key.
        case malformedAcceptedFindings(path: String, reason: String)

        // Running the upgrade.

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
        /// An interrupted upgrade or rollback was past its commit point (the journal in
        /// `state`: `swappingOut`, `swappingIn` or `swapped`), but a file its swap needs is not
        /// where the journal says (`missing`), and the store's path doesn't hold the verified
        /// new store either. Recovery stopped without changing a file: going on could delete
        /// the only complete copy of the data. `workDirectory` keeps what is left (the old
        /// store's files in `outgoing/`, the new store in `incoming/`); don't delete it.
        /// Running the upgrade again fails the same way until a person restores the store.
        case interruptedSwapMissingFile(state: String, missing: URL, workDirectory: URL)
    }

    public var kind: Kind
    /// The store concerned, when known.
    public var storePath: String?
    /// The internal call site of a file-system error ("swap.out.rename"), for bug reports.
    package var site: String?
    /// Why the store's own model cache (``StoreIdentification/MatchKind/modelCache``) wasn't
    /// used instead, for a store no version matches (``Kind/noMatchingVersion(closest:differences:)``):
    /// it has none, its hashes differ from the metadata, or it can't be read. Added to
    /// ``description``.
    public var modelCacheNote: String?
    /// The work folder beside the store that the failed upgrade kept, with the checkpoints
    /// of its completed steps, so that the next call resumes after them. It takes about the
    /// store's size; ``Upgrader/discardInterruptedUpgrade(storeAt:options:)`` deletes it.
    /// Nil when nothing was kept.
    public var leftoverWorkDirectory: URL?
    /// The size of ``leftoverWorkDirectory`` when the error was made.
    public var leftoverBytes: Int64?

    /// An error of `kind` about the store at `storePath`, if any.
    public init(_ kind: Kind, storePath: String? = nil) {
        self.kind = kind
        self.storePath = storePath
    }

    /// An error with the internal call site of a file-system error, for bug reports.
    package init(_ kind: Kind, storePath: String? = nil, site: String?) {
        self.kind = kind
        self.storePath = storePath
        self.site = site
    }

    /// An error of `kind` about the store at `path`.
    package init(path: String, kind: Kind) {
        self.init(kind, storePath: path)
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
}

extension UpgradeError {
    /// The kind's case name (`lockTimeout`), for tools (the names the folded types had:
    /// `fileSystem` for ``Kind/accessLockFailed(reason:)``, `unreadable` and `malformed` for an
    /// accepted-findings file): `{"kind": …}` in the CLI's JSON.
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
        case .interruptedSwapMissingFile: "interruptedSwapMissingFile"
        case .newerThanKnownVersions: "newerThanKnownVersions"
        case .noMatchingVersion: "noMatchingVersion"
        case .inconsistent: "inconsistent"
        case .emptyHistory: "emptyHistory"
        case .unknownVersion: "unknownVersion"
        case .noPath: "noPath"
        case .laterThanTarget: "laterThanTarget"
        case .unregisteredPolicy: "unregisteredPolicy"
        case .duplicateStage: "duplicateStage"
        case .unknownEntities: "unknownEntities"
        case .upgradeRunning: "upgradeRunning"
        case .needsUpgrade: "needsUpgrade"
        case .accessLockFailed: "fileSystem"
        case .unreadableAcceptedFindings: "unreadable"
        case .malformedAcceptedFindings: "malformed"
        }
    }

    public var errorDescription: String? { description }

    /// The file the error is about: the accepted-findings file, else the store.
    package var subjectPath: String? {
        switch kind {
        case .unreadableAcceptedFindings(let path, _), .malformedAcceptedFindings(let path, _): path
        default: storePath
        }
    }

    /// Whether the upgrade itself stopped (a lock, space, a step, verification, the file
    /// system, a rollback), as opposed to being refused before it started (identifying,
    /// planning) or the store not being opened: only such a failure can leave a work folder.
    package var isRunFailure: Bool {
        switch kind {
        case .lockTimeout, .storeInUse, .storeChangedDuringUpgrade, .insufficientSpace, .stepFailed, .dropsData,
            .verificationFailed, .fileSystem, .noBackup:
            true
        default:
            false
        }
    }
}
