import Foundation
import GRDB
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import StepwiseMatrix

/// A stepped store is checked against the direct store that just passed: when SQLite finds
/// their rows identical its key checks are skipped, and otherwise they run and fail as
/// before.
@Suite("UpgradeMatrix: a result's checks beside a checked store")
struct UpgradeMatrixResultCheckTests {
    /// Two copies of a store seeded at Recipes' newest version, and the matrix.
    func stores() throws -> (matrix: UpgradeMatrix, directory: TemporaryDirectory, checked: URL, other: URL) {
        let matrix = try UpgradeMatrix(
            bundleAt: Corpus.packageRoot.appendingPathComponent("Versions/Recipes.xcdatamodeld"),
            policies: SamplePolicies.registry)
        let directory = try TemporaryDirectory(prefix: "stepwise-result-check")
        let checked = directory.path("Checked.sqlite")
        let version = try #require(matrix.history.versions.last)
        try SeededStore.create(at: checked, model: version, seed: 3, rows: 12)
        let other = directory.path("Other.sqlite")
        try FileManager.default.copyItem(at: checked, to: other)
        return (matrix, directory, checked, other)
    }

    /// Points every row's first plain to-one key of the newest version at a row that
    /// doesn't exist.
    func breakAKey(in url: URL, layout: StoreLayout) throws -> String {
        let (entity, column) = try #require(
            layout.entities.lazy.compactMap { entity in
                entity.relationships.lazy.compactMap { relationship -> (EntityLayout, String)? in
                    guard case .foreignKey(let column, nil, _) = relationship.storage else { return nil }
                    return (entity, column)
                }.first
            }.first)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            let table = entity.tableName.quotedDatabaseIdentifier
            try db.execute(sql: "UPDATE \(table) SET \(column.quotedDatabaseIdentifier) = 999999")
        }
        try queue.close()
        return entity.name
    }

    @Test func identicalRowsAreReportedAndPass() throws {
        let (matrix, directory, checked, other) = try stores()
        let version = try #require(matrix.history.versions.last)
        let layout = try StoreLayout(model: version)
        let pair = UpgradeMatrix.Pair(from: matrix.history.names[0], to: version.name)
        #expect(
            try matrix.checkResult(other, target: version, layout: layout, pair: pair, path: "p", checked: checked))
        #expect(try !matrix.checkResult(other, target: version, layout: layout, pair: pair, path: "p"))
        withExtendedLifetime(directory) {}
    }

    @Test func aStoreThatDiffersHasItsKeysChecked() throws {
        let (matrix, directory, checked, other) = try stores()
        let version = try #require(matrix.history.versions.last)
        let layout = try StoreLayout(model: version)
        let entity = try breakAKey(in: other, layout: layout)
        let pair = UpgradeMatrix.Pair(from: matrix.history.names[0], to: version.name)
        let failure = try #require(throws: UpgradeMatrixFailure.self) {
            try matrix.checkResult(other, target: version, layout: layout, pair: pair, path: "p", checked: checked)
        }
        #expect(failure.check == .consistency)
        #expect(failure.entity == entity)
        withExtendedLifetime(directory) {}
    }
}
