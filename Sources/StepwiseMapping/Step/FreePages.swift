import GRDB

/// The pages a step frees in the copy it alters (a partial rebuild drops the tables it
/// replaces), and how the run's last step leaves none of them in the upgraded store.
///
/// SQLite as Debian builds it zeroes every page it frees (`SECURE_DELETE`), so that old rows
/// can't be read back from the file's free pages. In a run of explicit steps that each
/// replace one table, that writes each replaced table a second time, and for nothing: the next
/// step's new table is built in those same free pages (SQLite allocates from the free list
/// first), which overwrites them anyway. So a step that replaces tables frees them with
/// `secure_delete = FAST` (``freeWithoutZeroing(in:)``): SQLite still zeroes deleted content
/// on every page it writes, and writes no page only to zero it.
///
/// What is left on the free list when the run ends is removed from the file by the last step
/// (``removeAll(in:)``): `PRAGMA incremental_vacuum` moves the pages at the end of the file
/// into the free slots and truncates it, so the upgraded store holds no free page, zeroed or
/// not. Core Data reclaims free pages the same way: every store in `shared/corpus` (apptentive,
/// wibosco, Wire's 41, the Photos, Notes, Screen Time and CartKit stores) has
/// `auto_vacuum = INCREMENTAL`, and none has more than 34 free pages.
///
/// Both apply only to a store whose `auto_vacuum` is incremental, as every Core Data store's
/// is: in any other, free pages can't be removed without rewriting the whole file, so a step
/// keeps the system's `secure_delete`.
package enum FreePages {
    /// Whether the file can shed its free pages (`auto_vacuum = INCREMENTAL`).
    static func areRemovable(in db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "PRAGMA \"main\".auto_vacuum") == 2
    }

    /// Makes the tables and rows this connection deletes go to the free list as they are,
    /// where a removable file is concerned (``areRemovable(in:)``); otherwise leaves the
    /// system's `secure_delete`. Call outside a transaction.
    static func freeWithoutZeroing(in db: Database) throws {
        guard try areRemovable(in: db) else { return }
        _ = try Int.fetchOne(db, sql: "PRAGMA \"main\".secure_delete = FAST")
    }

    /// Removes every free page from a removable file, and returns how many there were. Call
    /// outside a transaction, with the journal off: the file is a step's private scratch,
    /// deleted if this fails or the process dies (a rollback journal would hold a copy of
    /// every page moved, as much as the largest table replaced).
    @discardableResult
    package static func removeAll(in db: Database) throws -> Int {
        guard try areRemovable(in: db) else { return 0 }
        let free = try Int.fetchOne(db, sql: "PRAGMA \"main\".freelist_count") ?? 0
        if free > 0 {
            try db.execute(sql: "PRAGMA \"main\".incremental_vacuum")
        }
        return free
    }
}
