/// How an upgrade wrote the new store: on the store itself in one transaction, or on a copy that
/// was then swapped in. ``UpgradeReport/path`` gives it, with ``UpgradeReport/copyReason``.
///
/// The raw values are what `--json` writes.
public enum UpgradePath: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Every step changed only the schema (columns, tables and indexes added, dropped or
    /// renamed, entities renumbered, metadata): they ran on the store itself in one SQLite
    /// transaction, as Core Data's own lightweight migration does. No copy, no work folder;
    /// SQLite's journal makes the transaction atomic, so a crash leaves the old store or the new.
    case oneTransaction
    /// The steps ran on a copy in the work folder beside the store, each checkpointed in the
    /// upgrade's journal, and the result was swapped in with its `-wal` and `-shm`. Taken when
    /// the upgrade keeps a backup, a step rewrites rows, the store has rows in its `-wal`, a
    /// step has a stage, or the store keeps values in external files.
    case copyAndSwap

    public var description: String {
        switch self {
        case .oneTransaction: "in one transaction on the store"
        case .copyAndSwap: "on a copy, then swapped in"
        }
    }
}
