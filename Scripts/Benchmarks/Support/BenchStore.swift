import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Seeds a source store at ``BenchModel/version1`` quickly.
///
/// ``ObjectContext/insert(_:_:)`` compiles its statement and bumps `Z_PRIMARYKEY` per row,
/// which is right for apps and tests but slow for a million rows. The seeder writes the
/// same layout directly: one prepared statement per table, one transaction, and one
/// `Z_MAX` update per table at the end.
enum BenchStore {
    /// The cached source store for `rows` items in `directory`.
    static func sourceURL(rows: Int, in directory: URL) -> URL {
        directory.appendingPathComponent("bench-v1-\(rows).sqlite")
    }

    /// Creates the store with `rows` items (at least one) and ``BenchModel/tagCount`` tags.
    ///
    /// It is written under a temporary name and renamed at the end, so an interrupted seed
    /// never leaves a half-filled store that a later run would take as cached.
    static func seed(rows: Int, at url: URL) throws {
        let model = BenchModel.version1
        let layout = try StoreLayout(model: model)
        let partial = url.deletingLastPathComponent().appendingPathComponent(".partial-\(url.lastPathComponent)")
        removeStoreFiles(at: partial)
        try StoreCreator.createStore(at: partial, model: model)
        let item = try entity("Item", in: layout)
        let tag = try entity("Tag", in: layout)
        let queue = try DatabaseQueue(path: partial.path)
        try queue.write { db in
            let tags = try db.makeStatement(
                sql: insertSQL(table: tag.tableName, columns: [try column("label", of: tag)]))
            for key in 1...BenchModel.tagCount {
                try tags.execute(arguments: [key, tag.number, 1, "tag \(key)"])
            }
            let columns = try ["name", "value", "createdAt", "note", "tag"].map { try column($0, of: item) }
            let items = try db.makeStatement(sql: insertSQL(table: item.tableName, columns: columns))
            let start = Date(timeIntervalSinceReferenceDate: 700_000_000)
            for key in 1...rows {
                let name = "\(firstNames[key % firstNames.count]) \(lastNames[key % lastNames.count]) \(key)"
                let createdAt = start.addingTimeInterval(Double(key)).timeIntervalSinceReferenceDate
                let note = "note number \(key) about nothing in particular"
                try items.execute(arguments: [
                    key, item.number, 1, name, key * 7, createdAt, note, (key % BenchModel.tagCount) + 1,
                ])
            }
            for (entity, count) in [(item, rows), (tag, BenchModel.tagCount)] {
                try db.execute(
                    sql: "UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = ? WHERE \"Z_ENT\" = ?",
                    arguments: [count, entity.number])
            }
        }
        _ = try queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        try queue.close()
        removeStoreFiles(at: url)
        try FileManager.default.moveItem(at: partial, to: url)
        removeStoreFiles(at: partial)
    }

    /// Deletes a store and its `-wal`, `-shm` and `-journal`, ignoring missing files.
    static func removeStoreFiles(at url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }

    private static func insertSQL(table: String, columns: [String]) -> String {
        let names = (["Z_PK", "Z_ENT", "Z_OPT"] + columns).map(\.quotedSQLIdentifier)
        return
            "INSERT INTO \(table.quotedSQLIdentifier) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
    }

    private static func entity(_ name: String, in layout: StoreLayout) throws -> EntityLayout {
        guard let entity = layout.entity(named: name) else { throw BenchError("the bench model has no \(name)") }
        return entity
    }

    private static func column(_ property: String, of entity: EntityLayout) throws -> String {
        guard let column = entity.column(for: property) else {
            throw BenchError("\(entity.name).\(property) has no column")
        }
        return column
    }

    private static let firstNames = ["Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "John"]
    private static let lastNames = ["Lovelace", "Hopper", "Turing", "Dijkstra", "Liskov", "Knuth", "Allen", "Backus"]
}
