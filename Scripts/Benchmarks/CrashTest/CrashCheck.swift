import Foundation
import GRDB
import Stepwise

/// What a killed upgrade must leave: the store at the old version with every original
/// byte, or at the new version with every migrated row; and an `upgradeIfNeeded` that then
/// completes with the right content.
struct CrashCheck {
    var rows: Int
    /// The store every trial starts from: a main file, and for the WAL variant a `-wal`.
    var original: URL
    /// The WAL variant's note, written only in the original's `-wal`: the migrated store must
    /// have it as one item's remark.
    var walMarker: String?
    /// Whole items written only in the original's `-wal` (Scripts/power-loss): the migrated
    /// store must have every one.
    var walItems: WALOnlyItems?
    /// The version `original` is at: "Bench", or "Bench 2" for the one-transaction trials.
    var oldVersion = "Bench"

    enum State: String {
        case old, new
    }

    /// The state found at `store` right after the kill. Throws a ``BenchError`` otherwise.
    func stateAfterKill(_ store: URL) throws -> State {
        guard FileManager.default.fileExists(atPath: store.path) else {
            throw BenchError("no store at the path after the kill")
        }
        let version = try VersionRegistry(history: CrashHistory.history).identify(storeAt: store).version?.name
        switch version {
        case oldVersion:
            for suffix in walMarker == nil ? [""] : ["", "-wal"] {
                var file = URL(fileURLWithPath: store.path + suffix)
                if suffix == "-wal", !FileManager.default.fileExists(atPath: file.path) {
                    // Past the swap's commit point the old generation's companions wait in
                    // outgoing/ (the main file stays in place until the new one is renamed
                    // over it): the -wal must be there, whole, for the recovery to go on from.
                    file = StoreFiles(store: store).workDirectory
                        .appendingPathComponent("outgoing/\(store.lastPathComponent)-wal")
                }
                guard try Data(contentsOf: file) == Data(contentsOf: URL(fileURLWithPath: original.path + suffix))
                else {
                    throw BenchError(
                        "the store is at the old version but the bytes of its \(suffix.isEmpty ? "main file" : suffix) changed"
                    )
                }
            }
            return .old
        case "Bench 3":
            try checkMigrated(store)
            return .new
        default:
            throw BenchError("the store reads as \(version ?? "an inconsistent store"), neither old nor new")
        }
    }

    /// Runs the recovery an app's next launch would, and checks the result.
    /// - parameter progress: Receives the recovery's events (Scripts/power-loss counts how each recovered).
    func recover(_ store: URL, progress: (@Sendable (UpgradeEvent) -> Void)? = nil) throws {
        let report = try CrashHistory.upgrader(progress: progress).upgradeIfNeededSynchronously(storeAt: store)
        guard report.to == "Bench 3" else { throw BenchError("recovery ended at \(report.to)") }
        let version = try VersionRegistry(history: CrashHistory.history).identify(storeAt: store).version?.name
        guard version == "Bench 3" else { throw BenchError("after recovery the store reads as \(version ?? "?")") }
        try checkMigrated(store)
        let work = StoreFiles(store: store).workDirectory
        if FileManager.default.fileExists(atPath: work.path) { throw BenchError("the work directory was left") }
    }

    /// Every item, its amount (the old value, `7 × key`), its remark (the old note) and its tag;
    /// the history and CloudKit records (``CrashPrivateTables``).
    private func checkMigrated(_ store: URL) throws {
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        try snapshot.database.read { db in try CrashPrivateTables.check(db, rows: rows, withWAL: walMarker != nil) }
        let (count, amounts, remarks, tagged, tags, marked) = try snapshot.database.read { db in
            (
                try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "ZITEM""#) ?? -1,
                try Int64.fetchOne(db, sql: #"SELECT SUM("ZAMOUNT") FROM "ZITEM""#) ?? -1,
                try Int.fetchOne(db, sql: #"SELECT COUNT("ZREMARK") FROM "ZITEM""#) ?? -1,
                try Int.fetchOne(db, sql: #"SELECT COUNT("ZTAG") FROM "ZITEM""#) ?? -1,
                try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "ZTAG""#) ?? -1,
                try Int.fetchOne(db, sql: #"SELECT COUNT(*) FROM "ZITEM" WHERE "ZREMARK" = ?"#, arguments: [walMarker])
                    ?? -1
            )
        }
        let walKeys = walItems?.keys ?? []
        if let walItems {
            let present = try snapshot.database.read { db in try walItems.countPresent(db, noteColumn: "ZREMARK") }
            guard present == walKeys.count else {
                throw BenchError(
                    "\(present) of the \(walKeys.count) items written only in the -wal are in the upgraded store, whole"
                )
            }
        }
        if let walMarker, marked != 1 {
            throw BenchError("the note written in the -wal (\(walMarker)) is on \(marked) items, not 1")
        }
        let expectedAmounts = Int64(7) * Int64(rows) * Int64(rows + 1) / 2 + 7 * Int64(walKeys.reduce(0, +))
        let items = rows + walKeys.count
        guard count == items, amounts == expectedAmounts, remarks == items, tagged == items,
            tags == BenchModel.tagCount
        else {
            throw BenchError(
                "migrated content is wrong: \(count) items (want \(items)), amounts \(amounts) (want \(expectedAmounts)), \(remarks) remarks, \(tagged) tagged, \(tags) tags"
            )
        }
    }
}
