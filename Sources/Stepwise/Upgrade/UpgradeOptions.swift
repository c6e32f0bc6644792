import Logging

/// How ``Upgrader`` works. The defaults suit an app at launch.
public struct UpgradeOptions: Sendable {
    /// How thoroughly the store is checked before the first step (a damaged store is refused),
    /// and the upgraded store before it replaces the original.
    public enum Verification: String, Sendable, CaseIterable, Codable {
        /// On the copy path, `PRAGMA quick_check` of every page the steps read: page structure
        /// and constraints, in about the time of a scan. In one transaction on the store
        /// (``UpgradePath/oneTransaction``), the pages the transaction loads, checked by SQLite
        /// as it loads them (`cell_size_check`): the cost of the change, not of the store.
        /// Then what the steps could have broken.
        case quick
        /// `PRAGMA integrity_check` of every page on either path, every index against its
        /// table, and every key of the upgraded store. Slower: it reads the whole store.
        case full
    }

    /// The version to upgrade to; nil means the newest in the history.
    public var targetVersion: String?
    /// Keep the store as it was before the upgrade (with its `-wal` and `-shm`) in
    /// `<store>.stepwise-backup/`, for ``Upgrader/rollback(storeAt:options:)``.
    public var keepBackup: Bool
    /// The check run on the store before the first step, and on the upgraded store before the
    /// swap or the commit (``Verification``). The metadata and the schema of the upgraded store
    /// are checked at either level.
    public var verification: Verification
    /// How long to wait for another process's upgrade of the same store, or for processes
    /// holding the store open, before giving up with the store unchanged. One minute by default.
    public var lockTimeout: Duration
    /// Refuse any step that would drop data no mapping declared: an inferred step's removed
    /// entity or attribute that holds values, or an entity an explicit mapping left out
    /// (``/StepwiseMapping/DroppedData``). The refusal comes before step 1 wherever the drop can be counted
    /// in the store up front, else when the step has run (before the swap); either way the
    /// store is not changed. Off by default, like Core Data: drops are then recorded in
    /// ``/StepwiseMapping/StepReport/drops`` and logged as warnings.
    public var strict: Bool
    /// Drop the entities of the store that no version of the given models has, with their
    /// rows. Off by default: such entities most often belong to another model the app merges
    /// into the same store, and the upgrade refuses them by name
    /// (``UpgradeError/Kind/unknownEntities(entities:tables:)``) rather than lose them. An entity
    /// that some version of the history had, and a later one removed, is dropped and named
    /// either way, as Core Data's migration drops it.
    public var dropsUnknownEntities: Bool = false
    /// The model configuration the store holds (`NSPersistentStoreDescription.configuration`),
    /// nil for Core Data's default one, every entity. Each version is then the configuration's
    /// entities only (``ModelHistory/restricted(toConfiguration:)``), numbered among themselves
    /// as Core Data numbers them. Applied by ``Upgrader/init(bundleAt:mappingsAt:policies:stages:options:)``
    /// and ``Upgrader/init(bundlesAt:policies:stages:options:)``; restrict a history given in
    /// code yourself.
    public var configuration: String?
    /// Receives ``UpgradeEvent``s as the upgrade runs, on the upgrading thread.
    public var progress: (@Sendable (UpgradeEvent) -> Void)?
    /// Where the upgrade logs. Silent by default: a library must not print.
    public var logger: Logger
    /// The file-system seam, replaced by fault-injection tests and by `Scripts/power-loss`,
    /// which records through it.
    package var fileSystem = FileSystem()

    public init(
        targetVersion: String? = nil, keepBackup: Bool = false, verification: Verification = .quick,
        lockTimeout: Duration = .seconds(60), strict: Bool = false, progress: (@Sendable (UpgradeEvent) -> Void)? = nil,
        logger: Logger = SilentLogger.logger
    ) {
        self.targetVersion = targetVersion
        self.keepBackup = keepBackup
        self.verification = verification
        self.lockTimeout = lockTimeout
        self.strict = strict
        self.progress = progress
        self.logger = logger
    }

    /// ``lockTimeout`` in seconds, as the lock waits count it.
    var lockTimeoutSeconds: Double { lockTimeout.nonNegativeSeconds }
}
