import GRDB

/// SQLite's own check of a store's pages (b-trees, free list, `NOT NULL` and `CHECK`
/// constraints): `quick_check`, or `integrity_check` when `full`. SQLite keeps no checksums,
/// so this is how a damaged store is found before anything trusts it.
package enum PageCheck {
    /// The pragma's name, for messages.
    package static func pragma(full: Bool) -> String {
        full ? "integrity_check" : "quick_check"
    }

    /// The first problems the check reports (three at most), or none when the pages are sound.
    ///
    /// - parameter table: Checks only this table and its indexes; the whole file when nil.
    package static func problems(in db: Database, full: Bool, table: String? = nil) throws -> [String] {
        let argument = table.map { "(\($0.quotedSQLIdentifier))" } ?? ""
        let results = try String.fetchAll(db, sql: "PRAGMA \(pragma(full: full))\(argument)")
        return results == ["ok"] ? [] : Array(results.prefix(3))
    }
}
