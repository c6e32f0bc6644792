import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// What the step tests share: stores on disk, their bytes, their rows and their tables.
enum StepFixtures {
    /// A new store at `model`'s version, filled by `body` in one transaction.
    static func store(at url: URL, model: ObjectModel, _ body: (ObjectContext) throws -> Void = { _ in }) throws {
        try StoreCreator.createStore(at: url, model: model)
        try write(url, model, body)
    }

    /// Runs `body` in a write transaction on the store at `url`.
    static func write(_ url: URL, _ model: ObjectModel, _ body: (ObjectContext) throws -> Void) throws {
        let layout = try StoreLayout(model: model)
        // Tests read shared fixtures in parallel: when one connection closes as the last one,
        // SQLite takes an exclusive lock to checkpoint and delete the -wal, and a connection
        // opening at that moment would fail with SQLITE_BUSY instead of waiting.
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        try queue.write { db in try body(ObjectContext(db, layout: layout)) }
    }

    /// Reads the store at `url` through its objects.
    static func read<T>(_ url: URL, _ model: ObjectModel, _ body: (ObjectContext) throws -> T) throws -> T {
        let layout = try StoreLayout(model: model)
        // Tests read shared fixtures in parallel: when one connection closes as the last one,
        // SQLite takes an exclusive lock to checkpoint and delete the -wal, and a connection
        // opening at that moment would fail with SQLITE_BUSY instead of waiting.
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try body(ObjectContext(db, layout: layout)) }
    }

    /// The bytes of a store and its `-wal` and `-shm` (nil where a file is missing).
    static func bytes(_ url: URL) -> [Data?] {
        ["", "-wal", "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: $0.isEmpty ? url.path : url.path + $0)) }
    }

    /// The names of the files in a directory, sorted.
    static func files(in directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    /// `Z_PRIMARYKEY` as `name → Z_MAX`.
    static func maxima(_ url: URL) throws -> [String: Int] {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)  // shared fixtures, read in parallel: see `read`
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY").map {
                    ($0["Z_NAME"] as String, $0["Z_MAX"] as Int)
                })
        }
    }

    /// Every row of every data table, rendered as text and sorted, `Z_OPT` left out (Core Data's
    /// own migrations leave it anywhere from 1 to 4, corpus README §5): two stores with equal
    /// dumps hold the same objects under the same keys.
    static func dump(_ url: URL) throws -> [String: [String]] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            let tables = try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table'
                    AND name NOT LIKE 'sqlite_%' AND name NOT IN ('Z_METADATA', 'Z_MODELCACHE')
                    """)
            var result: [String: [String]] = [:]
            for table in tables {
                result[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)").map {
                    row in
                    row.columnNames.filter { $0 != "Z_OPT" }.map { "\($0)=\(row[$0] as DatabaseValue)" }
                        .joined(separator: " ")
                }.sorted()
            }
            return result
        }
    }

    /// Mapping models decoded from mapping-file texts.
    static func mappingModels(_ texts: [String], from source: ObjectModel, to destination: ObjectModel) throws
        -> [MappingModel]
    {
        try texts.map { try MappingFile.decode(Data($0.utf8), source: source, destination: destination) }
    }
}
