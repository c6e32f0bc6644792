import GRDB
import StepwiseModel
import StepwiseStore

/// Custom work around one step, like Core Data's staged migration (`NSCustomMigrationStage`),
/// carrying the versions it was written for.
///
/// ```swift
/// let untitled = MigrationStage(from: "Notes 2", to: "Notes 3", didMigrate: { db, objects in
///     try db.execute(sql: #"UPDATE "ZNOTE" SET "ZTITLE" = 'Untitled' WHERE "ZTITLE" = ''"#)
/// })
/// let upgrader = try Upgrader(bundleAt: modelURL, stages: [untitled])
/// ```
///
/// The upgrader never merges a staged step with its neighbours, so its handlers always see
/// exactly the `from` and `to` versions. `willMigrate` runs on the step's private copy of the source, at the source version,
/// before pass 1; `didMigrate` runs on the destination, at the destination version, after
/// pass 2 and before validation (so what it writes is validated too). Both receive the
/// store as a GRDB `Database` and through Stepwise's object access.
public struct MigrationStage: Sendable {
    /// Work on one store: its connection and its objects.
    public typealias Handler = @Sendable (_ db: Database, _ objects: ObjectContext) throws -> Void

    /// The name of the version the step starts from.
    public var from: String
    /// The name of the version the step goes to.
    public var to: String
    /// Runs on the step's private copy of the source, at `from`, before pass 1.
    public var willMigrate: Handler?
    /// Runs on the destination, at `to`, after pass 2 and before validation.
    public var didMigrate: Handler?

    /// A stage for the step from the version named `from` to the one named `to`.
    public init(from: String, to: String, willMigrate: Handler? = nil, didMigrate: Handler? = nil) {
        self.from = from
        self.to = to
        self.willMigrate = willMigrate
        self.didMigrate = didMigrate
    }

    /// The step the stage belongs to, as mappings and plans key steps.
    package var step: MappingDirectory.StepKey { MappingDirectory.StepKey(from, to) }
}
