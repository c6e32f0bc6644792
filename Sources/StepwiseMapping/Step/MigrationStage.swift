import GRDB
import StepwiseModel
import StepwiseStore

/// Custom work around a step, like Core Data's staged migration (`NSCustomMigrationStage`).
///
/// `willMigrate` runs on the step's private copy of the source, at the source version,
/// before pass 1; `didMigrate` runs on the destination, at the destination version, after
/// pass 2 and before validation (so what it writes is validated too). Both receive the
/// store as a GRDB `Database` and through Stepwise's object access.
public struct MigrationStage: Sendable {
    /// Work on one store: its connection and its objects.
    public typealias Handler = @Sendable (_ db: Database, _ objects: ObjectContext) throws -> Void

    public var willMigrate: Handler?
    public var didMigrate: Handler?

    public init(willMigrate: Handler? = nil, didMigrate: Handler? = nil) {
        self.willMigrate = willMigrate
        self.didMigrate = didMigrate
    }
}
