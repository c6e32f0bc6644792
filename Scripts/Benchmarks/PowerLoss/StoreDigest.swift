import Foundation
import GRDB
import StepwiseMatrix
import StepwiseStore

/// Every row of a store, by table: the count and an FNV-1a hash of the values in primary-key
/// order, so two stores' contents compare without holding either in memory.
struct StoreDigest: Hashable, CustomStringConvertible {
    var tables: [String: Table]

    struct Table: Hashable {
        var rows = 0
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    }

    /// The digest of the store at `store`, read from a snapshot (the store's files untouched).
    init(of store: URL) throws {
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        tables = try snapshot.database.read { db in
            // Z_METADATA and Z_MODELCACHE hold the model, checked by version; the rest are rows.
            let names = try String.fetchAll(
                db,
                sql: """
                    SELECT "name" FROM "sqlite_master" WHERE "type" = 'table' AND "name" NOT LIKE 'sqlite_%'
                    AND "name" NOT IN ('Z_METADATA', 'Z_MODELCACHE') ORDER BY "name"
                    """)
            var tables: [String: Table] = [:]
            for name in names {
                var table = Table()
                let quoted = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                // Every column in the order: a join table's first column is not unique.
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(quoted))").count
                let order = (1...max(1, columns)).map(String.init).joined(separator: ", ")
                let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM \(quoted) ORDER BY \(order)")
                while let row = try cursor.next() {
                    table.rows += 1
                    for byte in row.description.utf8 {
                        table.hash = (table.hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                    }
                }
                tables[name] = table
            }
            return tables
        }
    }

    /// The tables whose rows differ from `reference`'s, with both counts.
    func differences(from reference: StoreDigest) -> [String] {
        Set(tables.keys).union(reference.tables.keys).sorted().compactMap { name in
            let mine = tables[name]
            let theirs = reference.tables[name]
            guard mine != theirs else { return nil }
            return
                "\(name): \(mine?.rows ?? 0) rows (want \(theirs?.rows ?? 0))\(mine?.rows == theirs?.rows ? ", values differ" : "")"
        }
    }

    var description: String {
        tables.keys.sorted().map { "\($0) \(tables[$0]?.rows ?? 0)" }.joined(separator: ", ")
    }
}
