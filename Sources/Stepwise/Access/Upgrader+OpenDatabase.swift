import Foundation
import GRDB
import StepwiseStore

extension Upgrader {
    /// Opens the store as a GRDB `DatabasePool` that holds a ``StoreAccess`` for its whole
    /// lifetime, once the store is at this upgrader's target: the one line an app or an
    /// extension opens its store with.
    ///
    /// ```swift
    /// // The app, at launch:
    /// try upgrader.upgradeIfNeeded(storeAt: storeURL)
    /// let dbPool = try upgrader.openDatabasePool(storeAt: storeURL)
    ///
    /// // A widget or extension:
    /// guard try !upgrader.needsUpgrade(storeAt: storeURL) else { return .openAppToFinishUpdating }
    /// let dbPool = try upgrader.openDatabasePool(storeAt: storeURL)
    /// ```
    ///
    /// The claim is taken first, then the store's version is checked: no upgrade can start in
    /// between. A store that doesn't exist yet (a first launch) is created, empty, at the
    /// target version, as Core Data creates a store it is asked to add. It is released when the pool is deallocated (GRDB keeps the configuration, and
    /// with it the claim, as long as the pool lives). Until then every upgrade of the store
    /// waits, then fails with ``UpgradeError/Kind/storeInUse(processIDs:seconds:bareConnection:)``.
    ///
    /// With `configuration.observesSuspensionNotifications` set, GRDB's
    /// `Database.suspendNotification` and `Database.resumeNotification` suspend and resume the
    /// claim along with the pool's connections (``StoreAccess``, "Suspension"), so a suspended
    /// app holds no lock on the store.
    ///
    /// - parameters:
    ///   - url: The store.
    ///   - configuration: GRDB's configuration for the pool.
    /// - throws: ``UpgradeError``: ``UpgradeError/Kind/needsUpgrade(target:)`` when
    ///   the store is older than the target, ``UpgradeError/Kind/upgradeRunning(seconds:)``
    ///   when an upgrade held it for longer than ``UpgradeOptions/lockTimeout``; GRDB's errors
    ///   when the pool can't open.
    public func openDatabasePool(storeAt url: URL, configuration: Configuration = Configuration()) throws
        -> DatabasePool
    {
        let (access, configuration) = try claim(url, configuration)
        defer { withExtendedLifetime(access) {} }
        return try DatabasePool(path: url.path, configuration: configuration)
    }

    /// Opens the store as a GRDB `DatabaseQueue` that holds a ``StoreAccess`` for its whole
    /// lifetime, once the store is at this upgrader's target. See
    /// ``openDatabasePool(storeAt:configuration:)``.
    public func openDatabaseQueue(storeAt url: URL, configuration: Configuration = Configuration()) throws
        -> DatabaseQueue
    {
        let (access, configuration) = try claim(url, configuration)
        defer { withExtendedLifetime(access) {} }
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    /// Creates an empty store at the target version when there is none, under the upgrade
    /// lock so that two processes launching at once don't both create it.
    private func createIfMissing(_ url: URL) throws {
        let files = StoreFiles(store: url)
        guard files.isMissing else { return }
        let lock = try UpgradeLock(files: files, timeout: options.lockTimeoutSeconds, fileSystem: options.fileSystem)
        defer { withExtendedLifetime(lock) {} }
        guard files.isMissing, let target = targetVersion, let model = history.version(named: target) else { return }
        _ = try StoreCreator.createStore(at: url, model: model)
    }

    /// Takes the claim, refuses an outdated store, and ties the claim to `configuration`.
    private func claim(_ url: URL, _ configuration: Configuration) throws -> (StoreAccess, Configuration) {
        // The claim follows the connections: suspended and resumed by the same notifications.
        let access = try StoreAccess(
            storeAt: url, timeout: options.lockTimeout,
            observesSuspensionNotifications: configuration.observesSuspensionNotifications)
        try createIfMissing(url)
        if try needsUpgrade(storeAt: url) {
            access.close()
            throw UpgradeError(
                .needsUpgrade(target: targetVersion ?? history.versions.names.last ?? "?"), storePath: url.path)
        }
        var configuration = configuration.registeringCoreDataTriggerFunctions()
        // The closure keeps `access` alive for as long as the database keeps its configuration.
        configuration.prepareDatabase { _ in withExtendedLifetime(access) {} }
        return (access, configuration)
    }
}
