import Foundation
import Stepwise
import StepwiseMatrix
import StepwiseStore

/// The store every power-loss state starts from: ``CrashHistory``'s Bench store with Core
/// Data's private tables, and whole new items (``WALOnlyItems``), one item's note and one
/// history change only in its `-wal`, as a killed app leaves it (WALWriter keeps the
/// connection open while the files are copied, so nothing is checkpointed).
enum PowerLossStore {
    /// The note written only in the `-wal`: the upgraded store must have it.
    static let walMarker = "written in the -wal"

    /// How many items are written only in the `-wal`.
    static let walItemCount = 24

    /// The items written only in the `-wal` of a store of `rows` items.
    static func walItems(rows: Int) -> WALOnlyItems { WALOnlyItems(count: walItemCount, rows: rows) }

    /// Seeds the store with `rows` items at `folder/Bench.sqlite`, its `-wal` holding the
    /// marker and ``walItems(rows:)``, and checks that they are in the `-wal` alone.
    static func make(rows: Int, in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("Bench.sqlite")
        try BenchStore.seed(rows: rows, at: store)
        try CrashPrivateTables.add(to: store, rows: rows)
        try WALWriter.write(to: store) { db in
            try db.execute(sql: #"UPDATE "ZITEM" SET "ZNOTE" = ? WHERE "Z_PK" = 1"#, arguments: [walMarker])
            try CrashPrivateTables.addInWAL(db)
            try walItems(rows: rows).insert(db)
        }
        try walItems(rows: rows).checkOnlyInWAL(of: store)
        return store
    }

    /// Seeds the store with `rows` items and Core Data's private tables at `folder/Bench.sqlite`,
    /// then upgrades it to Bench 2 (``CrashHistory``): a main file with nothing in a `-wal`, whose
    /// one step to Bench 3 changes only the schema (`--one-transaction`).
    static func makeAtBench2(rows: Int, in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("Bench.sqlite")
        try BenchStore.seed(rows: rows, at: store)
        try CrashPrivateTables.add(to: store, rows: rows)
        let report = try CrashHistory.upgrader(to: "Bench 2").upgradeIfNeededSynchronously(storeAt: store)
        guard report.to == "Bench 2", StoreGeneration(mainFile: store).hasNothingToFoldIn else {
            throw BenchError("the store at Bench 2 has something to fold in")
        }
        return store
    }

    /// Copies the store's main file, `-wal` and `-shm` into `folder` (created) under the same name.
    static func copy(_ store: URL, into folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent(store.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store.path + suffix) {
            try FileManager.default.copyItem(atPath: store.path + suffix, toPath: copy.path + suffix)
        }
        return copy
    }
}
