import Foundation
import GRDB
import StepwiseStore

/// Cheap facts about a migrated store (row counts, links, sums), compared between the
/// Stepwise run and its baseline after every trial, so a fast but wrong result fails the bench.
///
/// Each fact is one SQL query returning one integer. Queries use the destination layout's
/// names, never primary keys: a migration may renumber rows.
struct StoreFacts {
    var queries: [(name: String, sql: String)]

    /// One `count(*)` per entity table of `layout`, plus `extra`.
    init(counting layout: StoreLayout, extra: [(name: String, sql: String)] = []) {
        queries =
            layout.entities.filter(\.isRoot).map { entity in
                ("\(entity.name) rows", "SELECT count(*) FROM \(entity.tableName.quotedSQLIdentifier)")
            } + extra
    }

    /// The facts of the store at `url`.
    func read(_ url: URL) throws -> [String: Int] {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in
            var facts: [String: Int] = [:]
            for (name, sql) in queries {
                facts[name] = try Int.fetchOne(db, sql: sql) ?? -1
            }
            return facts
        }
    }
}
