import Foundation
import GRDB
import StepwiseStore
import StepwiseTesting
import Testing

@testable import StepwiseMapping

/// A step's write connection (`Configuration.forMigrationStep`) builds on the one home of
/// store-writing connections, so it has SQLite's full syncs exactly where that home does.
@Suite("Configuration.forMigrationStep: SQLite's full syncs as every store-writing connection")
struct MigrationStepConfigurationTests {
    @Test("fullfsync and checkpoint_fullfsync: on on Apple's platforms, off elsewhere")
    func fullSyncPragmas() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-step-configuration")
        let queue = try DatabaseQueue(path: directory.path("Step.sqlite").path, configuration: .forMigrationStep)
        defer { try? queue.close() }
        let values = try queue.read { db in
            [try Int.fetchOne(db, sql: "PRAGMA fullfsync"), try Int.fetchOne(db, sql: "PRAGMA checkpoint_fullfsync")]
        }
        #if canImport(Darwin)
            #expect(values == [1, 1])
        #else
            #expect(values == [0, 0])
        #endif
        #expect(values == (Configuration.storeWritesUseFullSync ? [1, 1] : [0, 0]))
    }
}
