import Foundation
import GRDB

extension Configuration {
    /// A configuration that registers Core Data's trigger functions on every connection it
    /// opens (``CoreDataSQLFunctions``), so that a write to a store with Core Data's triggers
    /// doesn't fail with "no such function".
    ///
    /// Stepwise opens every connection it writes a store through with it; an app opening an
    /// upgraded store gets it from `Upgrader.openDatabasePool(storeAt:configuration:)`.
    ///
    /// - parameter now: The clock `NSCoreDataNow()` reads; tests and seeded stores pass a fixed one.
    /// - returns: This configuration, with the functions added to its `prepareDatabase`.
    package func registeringCoreDataTriggerFunctions(
        now: @escaping @Sendable () -> Date = { Date() }
    ) -> Configuration {
        var configuration = self
        configuration.prepareDatabase { db in CoreDataSQLFunctions.register(in: db, now: now) }
        return configuration
    }

    /// A default configuration with Core Data's trigger functions registered
    /// (``registeringCoreDataTriggerFunctions(now:)``).
    package static var withCoreDataTriggerFunctions: Configuration {
        Configuration().registeringCoreDataTriggerFunctions()
    }
}
