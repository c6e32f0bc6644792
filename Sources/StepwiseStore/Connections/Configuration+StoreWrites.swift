import GRDB

extension Configuration {
    /// The one configuration of every connection through which Stepwise writes a store file
    /// while it upgrades or creates it: a step's destination (`Configuration.forMigrationStep`
    /// builds on it), a step's source copy that `willMigrate` changes, the checkpoint of the
    /// run's copy of the store, and ``StoreCreator``.
    ///
    /// It registers Core Data's trigger functions (``withCoreDataTriggerFunctions``) and, on
    /// Apple's platforms, turns on `PRAGMA fullfsync` and `PRAGMA checkpoint_fullfsync`, so
    /// that each sync SQLite makes is `fcntl(F_FULLFSYNC)` rather than an `fsync` the drive may
    /// reorder (Darwin's fsync(2) says why, see ``SyncKind``). A full sync "only make[s] a
    /// difference on Mac OSX for the default SQLite code"
    /// (<https://www.sqlite.org/c3ref/c_sync_dataonly.html>), so elsewhere both pragmas are
    /// left at their defaults (off), and the cost on Linux is unchanged.
    package static var forStoreWrites: Configuration {
        var configuration = Configuration.withCoreDataTriggerFunctions
        #if canImport(Darwin)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA fullfsync = ON")
                try db.execute(sql: "PRAGMA checkpoint_fullfsync = ON")
            }
        #endif
        return configuration
    }

    /// Whether ``forStoreWrites`` turns on `fullfsync` and `checkpoint_fullfsync`: on Apple's
    /// platforms, where SQLite honours them.
    package static var storeWritesUseFullSync: Bool {
        #if canImport(Darwin)
            true
        #else
            false
        #endif
    }
}
