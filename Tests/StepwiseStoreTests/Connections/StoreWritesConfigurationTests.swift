import Foundation
import GRDB
import StepwiseStore
import StepwiseTesting
import Testing

/// The connections Stepwise writes a store through (``Configuration/forStoreWrites``) turn on
/// SQLite's full syncs on Apple's platforms, and leave SQLite's defaults elsewhere.
@Suite("Configuration.forStoreWrites: SQLite's full syncs where they mean something")
struct StoreWritesConfigurationTests {
    /// `PRAGMA fullfsync` and `PRAGMA checkpoint_fullfsync` on a connection opened with
    /// `configuration`.
    static func fullSyncPragmas(_ configuration: Configuration) throws -> [Int] {
        let directory = try TemporaryDirectory(prefix: "stepwise-fullfsync")
        let queue = try DatabaseQueue(path: directory.path("Store.sqlite").path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            [
                try Int.fetchOne(db, sql: "PRAGMA fullfsync") ?? -1,
                try Int.fetchOne(db, sql: "PRAGMA checkpoint_fullfsync") ?? -1,
            ]
        }
    }

    @Test("fullfsync and checkpoint_fullfsync are on on Apple's platforms, SQLite's defaults (off) elsewhere")
    func pragmas() throws {
        #if canImport(Darwin)
            #expect(Configuration.storeWritesUseFullSync)
        #else
            #expect(!Configuration.storeWritesUseFullSync)
        #endif
        let expected = Configuration.storeWritesUseFullSync ? [1, 1] : [0, 0]
        #expect(try Self.fullSyncPragmas(.forStoreWrites) == expected)
        // A bare connection has the platform's SQLite defaults: both off in SQLite's own build;
        // Apple's system SQLite is built with checkpoint_fullfsync on
        // (SQLITE_DEFAULT_CKPTFULLFSYNC), which this expectation must not call wrong there.
        #if canImport(Darwin)
            #expect(try Self.fullSyncPragmas(Configuration())[1] == 1)
        #else
            #expect(try Self.fullSyncPragmas(Configuration()) == [0, 0])
        #endif
    }

    @Test("the configuration still registers Core Data's trigger functions")
    func triggerFunctions() throws {
        let queue = try DatabaseQueue(configuration: .forStoreWrites)
        let lowered = try queue.read { db in try String.fetchOne(db, sql: "SELECT NSCoreDataToLower('ÇA')") }
        #expect(lowered == "ça")
    }
}
