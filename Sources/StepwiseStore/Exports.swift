// Stepwise's public API is GRDB-shaped on purpose: an `ObjectContext` works inside a GRDB
// `Database`, a `MigrationStage`'s closures are handed one, and `Upgrader.openDatabasePool`
// returns a `DatabasePool`. So GRDB is re-exported: `import Stepwise` (which re-exports this
// module) is all an app needs, with no second import that could name another GRDB.
@_exported import GRDB
