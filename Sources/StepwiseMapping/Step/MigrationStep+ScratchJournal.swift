import GRDB

// The journal of a file a step alters in a copy of its source (in place, or partly rebuilt).
extension MigrationStep {
    /// Switches the step's file to the scratch journal `mode` (`OFF`, `MEMORY`, `DELETE`) with
    /// `synchronous = OFF`, and returns the mode it had, for ``restoreJournal(of:to:)``. The
    /// file is private and deleted on any failure, so durability only matters at the end.
    func useScratchJournal(_ mode: String, on queue: DatabaseQueue) throws -> String {
        try queue.writeWithoutTransaction { db in
            let previous = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "delete"
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = \(mode)")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            return previous
        }
    }

    /// Puts back the source's journal mode (a Core Data store is in WAL mode), which is
    /// recorded in the file's header; an unknown one becomes `DELETE`.
    func restoreJournal(of queue: DatabaseQueue, to previous: String) throws {
        let known = ["delete", "truncate", "persist", "memory", "wal"]
        let restored = known.contains(previous.lowercased()) ? previous.uppercased() : "DELETE"
        try queue.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = \(restored)")
        }
    }

    /// Removes the free pages of the step's file (``FreePages/removeAll(in:)``) with the journal
    /// off: the file is still scratch, deleted if this fails or the process dies.
    func removeFreePages(of queue: DatabaseQueue) throws {
        try queue.writeWithoutTransaction { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = OFF")
            try FreePages.removeAll(in: db)
        }
    }
}
