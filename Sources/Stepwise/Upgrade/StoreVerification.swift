import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// The checks an upgraded store passes before it may replace the original:
/// - SQLite's `quick_check` or `integrity_check` (``UpgradeOptions/Verification``);
/// - `foreign_key_check`, and every to-one foreign key pointing at an existing row;
/// - metadata whose entity hashes are the target version's;
/// - tables and columns equal to the target version's generated schema.
struct StoreVerification {
    var level: UpgradeOptions.Verification

    func verify(_ url: URL, model: ObjectModel) throws {
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            defer { try? queue.close() }
            try queue.read { db in
                let pragma = level == .full ? "integrity_check" : "quick_check"
                let results = try String.fetchAll(db, sql: "PRAGMA \(pragma)")
                guard results == ["ok"] else {
                    throw fail("\(pragma): \(results.prefix(3).joined(separator: "; "))")
                }
                if let row = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") {
                    throw fail("foreign_key_check: \(row)")
                }
                let layout = try StoreLayout(model: model)
                try checkToOneKeys(db, layout: layout)
                let metadata = try StoreMetadata.read(from: db, path: url.path)
                guard model.isCompatible(withEntityHashes: metadata.versionHashes) else {
                    throw fail("its metadata's entity hashes are not '\(model.name)''s")
                }
                let differences = try VersionRegistry.tableDifferences(
                    expected: model, actual: SQLiteSchema.read(from: db))
                if let first = differences.first {
                    throw fail("its tables differ from '\(model.name)''s: \(first)")
                }
            }
        } catch let error as UpgradeError {
            throw error
        } catch {
            throw fail("\(error)")
        }
    }

    /// Every non-null to-one key names an existing row of the destination's table.
    private func checkToOneKeys(_ db: Database, layout: StoreLayout) throws {
        for entity in layout.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                guard let column = relationship.foreignKeyColumn,
                    let target = layout.entity(named: relationship.destination)
                else { continue }
                let dangling =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM \(entity.tableName.quotedSQLIdentifier) AS "e"
                            WHERE "e".\(column.quotedSQLIdentifier) IS NOT NULL
                              AND NOT EXISTS (SELECT 1 FROM \(target.tableName.quotedSQLIdentifier) AS "t"
                                              WHERE "t"."Z_PK" = "e".\(column.quotedSQLIdentifier))
                            """) ?? 0
                if dangling > 0 {
                    throw fail("\(dangling) \(entity.name).\(relationship.name) keys point to no \(target.name)")
                }
            }
        }
    }

    private func fail(_ reason: String) -> UpgradeError {
        UpgradeError(.verificationFailed(reason))
    }
}
