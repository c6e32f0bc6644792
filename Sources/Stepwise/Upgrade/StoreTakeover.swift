import Foundation

/// What every job that may replace a store's files starts with (an upgrade, a rollback, a
/// discard): the upgrade lock, so that one such job runs at a time; then the access lock,
/// exclusively, so that no ``StoreAccess`` holder reads or writes across the swap; then the
/// recovery of whatever an interrupted job left.
///
/// The order matters: the upgrade lock first, so jobs queue on it and only the one running
/// waits for the store's holders; recovery last, because finishing an interrupted swap is
/// itself a swap. Both locks are held until the takeover is released (it goes out of scope).
final class StoreTakeover {
    private let upgradeLock: UpgradeLock
    private let accessLock: AccessLock
    /// What recovery found, and did.
    let recovered: UpgradeRecovery.Outcome

    /// Takes both locks, waiting up to ``UpgradeOptions/lockTimeout`` for each, and recovers.
    ///
    /// - throws: ``UpgradeError`` for a lock timeout, a store held too long, or a failed
    ///   file-system call while recovering.
    init(_ files: StoreFiles, options: UpgradeOptions) throws {
        let timeout = options.lockTimeoutSeconds
        upgradeLock = try UpgradeLock(files: files, timeout: timeout, fileSystem: options.fileSystem)
        accessLock = try StoreAccessGate.exclusive(
            files, timeout: timeout, fileSystem: options.fileSystem, emit: { options.progress?($0) })
        recovered = try UpgradeRecovery(files: files, fileSystem: options.fileSystem, logger: options.logger).recover()
    }
}
