import GRDB
import StepwiseStore

extension Configuration {
    /// The connection a step writes its destination through, on every path (rebuild, in place,
    /// partial rebuild): Core Data's trigger functions, which the destination's derived-attribute
    /// triggers call, and the functions compiled expressions call
    /// (`SQLExpressionCompiler.registerFunctions(in:)`), and on Apple's platforms SQLite's full
    /// syncs (``Configuration/forStoreWrites``, which it builds on). One home, so the paths
    /// can't drift apart.
    static var forMigrationStep: Configuration {
        var configuration = Configuration.forStoreWrites
        configuration.prepareDatabase { db in SQLExpressionCompiler.registerFunctions(in: db) }
        return configuration
    }
}
