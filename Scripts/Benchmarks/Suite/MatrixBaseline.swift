import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting

/// The floor of `matrix`'s work, which no way of checking every pair can go below:
///
/// - read the history once;
/// - seed each version once (``SeededStore``, as the matrix does: the seeded data is what the
///   matrix is for, so seeding is part of the floor, not overhead);
/// - for each pair, copy the seeded store of its first version and move its rows into a store
///   laid out for the second: `StoreCreator` makes the empty store, then one transaction of
///   `INSERT INTO … SELECT` per table both versions have, over the columns both have.
///
/// That is one direct upgrade per pair at the speed of SQLite itself, with no planning, no
/// crash safety, no second path and no checks. The matrix does all of those besides, so it
/// can't reach this floor; the ratio says how much it pays for them.
enum MatrixBaseline {
    /// Core Data's private tables, which the new store already holds.
    private static let privateTables: Set<String> = ["Z_METADATA", "Z_MODELCACHE", "Z_PRIMARYKEY"]

    /// Runs the floor for the bundle's history at `rows` rows per entity; returns the pairs
    /// it upgraded.
    static func run(bundle: URL, rows: Int, in folder: URL) throws -> Int {
        let history = try ModelBundle(contentsOf: bundle).history
        var seeded: [URL] = []
        for (index, version) in history.versions.enumerated() {
            let url = folder.appendingPathComponent("seed-\(index).sqlite")
            try SeededStore.create(
                at: url, model: version, seed: UpgradeMatrix.defaultSeed, rows: RowCounts(default: rows))
            seeded.append(url)
        }
        var pairs = 0
        for (first, source) in seeded.enumerated() {
            for second in history.versions.indices.dropFirst(first + 1) {
                let pair = folder.appendingPathComponent("pair", isDirectory: true)
                try? FileManager.default.removeItem(at: pair)
                try FileManager.default.createDirectory(at: pair, withIntermediateDirectories: true)
                let copy = pair.appendingPathComponent("Seeded.sqlite")
                try FileManager.default.copyItem(at: source, to: copy)
                let upgraded = pair.appendingPathComponent("Upgraded.sqlite")
                try StoreCreator.createStore(at: upgraded, model: history.versions[second])
                try copyRows(from: copy, into: upgraded)
                pairs += 1
            }
        }
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("pair"))
        return pairs
    }

    /// `INSERT INTO … SELECT` of every table `target` shares with `source`, over their
    /// shared columns, in one transaction.
    private static func copyRows(from source: URL, into target: URL) throws {
        let queue = try DatabaseQueue(path: target.path)
        defer { try? queue.close() }
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS \"source\"", arguments: [source.path])
            try db.inTransaction {
                for table in try tables(db, schema: "main") {
                    let sourceColumns = Set(try columns(db, table: table, schema: "source"))
                    guard !sourceColumns.isEmpty else { continue }
                    let shared = try columns(db, table: table, schema: "main").filter(sourceColumns.contains)
                    guard !shared.isEmpty else { continue }
                    let list = shared.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
                    // OR IGNORE: a uniqueness constraint a later version adds may refuse a
                    // seeded duplicate; the floor moves rows, it doesn't judge them.
                    try db.execute(
                        sql: """
                            INSERT OR IGNORE INTO "main".\(table.quotedDatabaseIdentifier) (\(list))
                            SELECT \(list) FROM "source".\(table.quotedDatabaseIdentifier)
                            """)
                }
                return .commit
            }
            try db.execute(sql: "DETACH DATABASE \"source\"")
        }
    }

    private static func tables(_ db: Database, schema: String) throws -> [String] {
        try String.fetchAll(
            db,
            sql:
                "SELECT \"name\" FROM \(schema.quotedDatabaseIdentifier).\"sqlite_master\" WHERE \"type\" = 'table' ORDER BY \"name\""
        ).filter { !privateTables.contains($0) && !$0.hasPrefix("sqlite_") }
    }

    private static func columns(_ db: Database, table: String, schema: String) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT \"name\" FROM pragma_table_info(?, ?)", arguments: [table, schema])
    }
}
