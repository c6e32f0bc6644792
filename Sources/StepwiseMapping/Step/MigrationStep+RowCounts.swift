import Foundation
import GRDB
import Logging
import StepwiseModel
import StepwiseStore

extension MigrationStep {
    /// The rows of each entity (by `Z_ENT`), one query per entity table: `COUNT(*)` where the
    /// table holds one entity (SQLite answers it from the table's narrowest index, without
    /// reading its rows), else grouped by `Z_ENT` (Core Data indexes `Z_ENT` in such tables).
    static func rowCounts(in db: Database, layout: StoreLayout) throws -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for table in layout.tables {
            guard case .entity = table.kind, !table.entityNumbers.isEmpty else { continue }
            let name = table.name.quotedSQLIdentifier
            if table.entityNumbers.count == 1 {
                counts[table.entityNumbers[0]] = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(name)") ?? 0
                continue
            }
            for row in try Row.fetchAll(db, sql: "SELECT \"Z_ENT\", COUNT(*) FROM \(name) GROUP BY \"Z_ENT\"") {
                let number: Int = row[0] ?? 0
                counts[number, default: 0] += row[1] ?? 0
            }
        }
        return counts
    }

    /// The rows of every entity table of a store, every entity together.
    static func objectCount(in db: Database, layout: StoreLayout) throws -> Int {
        try rowCounts(in: db, layout: layout).values.reduce(0, +)
    }
}
