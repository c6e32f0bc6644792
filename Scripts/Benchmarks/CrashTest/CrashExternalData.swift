import Foundation
import GRDB
import Stepwise
import StepwiseStore

/// The crash test's store with external files (``ExternalDataFolder``): Photo rows whose
/// image and thumbnail Core Data keeps in `.Photos_SUPPORT/_EXTERNAL_DATA/` (every odd row's
/// image inline instead), upgraded Photos → Photos 2, which drops `thumbnail`, keeping a
/// backup. After any kill every reference of the store in place must resolve to a file; after
/// the recovery the folder must hold exactly the images' files and the backup every file.
enum CrashExternalData {
    static let version1 = ObjectModel("Photos") {
        Entity("Photo") {
            Attribute("name", .string)
            Attribute("image", .binary).externalStorage()
            Attribute("thumbnail", .binary).externalStorage()
        }
    }
    static let version2 = ObjectModel("Photos 2") {
        Entity("Photo") {
            Attribute("name", .string)
            Attribute("image", .binary).externalStorage()
            Attribute("caption", .string)
        }
    }
    static let history = VersionHistory([version1, version2])

    static func upgrader(progress: (@Sendable (UpgradeEvent) -> Void)? = nil) throws -> Upgrader {
        try Upgrader(
            history: history, options: UpgradeOptions(keepBackup: true, lockTimeout: .seconds(120), progress: progress))
    }

    /// The file of row `key`'s image (even rows) or thumbnail: a UUID made from the key.
    static func fileName(_ key: Int, thumbnail: Bool) -> String {
        String(format: "%08X-0000-4000-8000-%012X", thumbnail ? 2 : 1, key)
    }

    /// Seeds `photos` rows at `store` (a new file) with their files beside it.
    static func seed(photos: Int, at store: URL) throws {
        try StoreCreator.createStore(at: store, model: version1)
        let folder = ExternalDataFolder(store: store)
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: version1))
            for key in 1...photos {
                let id = try objects.insert(
                    "Photo", ["name": "photo \(key)", "image": key % 2 == 1 ? Data("inline \(key)".utf8) : nil])
                var assignments = [#""ZTHUMBNAIL" = ?"#]
                var arguments: [DatabaseValue] = [
                    ExternalBinaryValue.externalColumnValue(fileName: fileName(key, thumbnail: true)).databaseValue
                ]
                if key % 2 == 0 {
                    assignments.append(#""ZIMAGE" = ?"#)
                    arguments.append(
                        ExternalBinaryValue.externalColumnValue(fileName: fileName(key, thumbnail: false)).databaseValue
                    )
                    try Data(repeating: UInt8(key % 251), count: 4_096).write(
                        to: folder.file(named: fileName(key, thumbnail: false)))
                }
                try Data(repeating: UInt8(key % 251), count: 512).write(
                    to: folder.file(named: fileName(key, thumbnail: true)))
                try db.execute(
                    sql: "UPDATE \"ZPHOTO\" SET \(assignments.joined(separator: ", ")) WHERE \"Z_PK\" = ?",
                    arguments: StatementArguments(arguments + [id.primaryKey.databaseValue]))
            }
        }
    }

    /// Copies a seeded store and its `.Photos_SUPPORT` folder into `folder`.
    static func copy(_ store: URL, into folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent(store.lastPathComponent)
        try FileManager.default.copyItem(at: store, to: copy)
        try FileManager.default.copyItem(
            at: ExternalDataFolder(store: store).supportDirectory, to: ExternalDataFolder(store: copy).supportDirectory)
        return copy
    }

    /// Right after a kill: the store reads as Photos or Photos 2, and each of its references
    /// names a file that is there. Returns the version. Throws a ``BenchError``.
    static func checkAfterKill(_ store: URL, photos: Int) throws -> String {
        let version = try VersionRegistry(history: history).identify(storeAt: store).version
        guard let version else { throw BenchError("the store reads as neither Photos nor Photos 2") }
        let dangling = try danglingReferences(store, model: version)
        guard dangling == 0 else {
            throw BenchError("\(dangling) external references of the store (\(version.name)) name no file")
        }
        return version.name
    }

    /// After the recovery: Photos 2, every reference resolving, only the images' files left,
    /// and the backup holding every file of the old store.
    static func checkRecovered(_ store: URL, photos: Int) throws {
        let report = try upgrader().upgradeIfNeededSynchronously(storeAt: store)
        guard report.to == "Photos 2" else { throw BenchError("recovery ended at \(report.to)") }
        guard try danglingReferences(store, model: version2) == 0 else {
            throw BenchError("after recovery an external reference names no file")
        }
        let images = (1...photos).filter { $0 % 2 == 0 }.map { fileName($0, thumbnail: false) }.sorted()
        let left = try ExternalDataFolder(store: store).fileNames()
        guard left == images else {
            throw BenchError("after recovery the folder holds \(left.count) files, not the \(images.count) images'")
        }
        let backup = StoreFiles(store: store).backupDirectory.appendingPathComponent("_EXTERNAL_DATA")
        let kept = try ExternalDataFolder(url: backup).fileNames()
        guard kept.count == images.count + photos else {
            throw BenchError("the backup keeps \(kept.count) files, not the old store's \(images.count + photos)")
        }
        if FileManager.default.fileExists(atPath: StoreFiles(store: store).workDirectory.path) {
            throw BenchError("the work directory was left")
        }
    }

    /// How many references of the store's external-storage columns name a missing file.
    private static func danglingReferences(_ store: URL, model: ObjectModel) throws -> Int {
        let folder = ExternalDataFolder(store: store)
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        var dangling = 0
        for column in try StoreLayout(model: model).externalDataColumns {
            try snapshot.database.read { db in
                let values = try Data.fetchCursor(
                    db,
                    sql:
                        "SELECT \(column.column.quotedDatabaseIdentifier) FROM \(column.table.quotedDatabaseIdentifier) WHERE substr(\(column.column.quotedDatabaseIdentifier), 1, 1) = x'02'"
                )
                while let value = try values.next() {
                    guard case .success(.external(let name)) = ExternalBinaryValue.parse(value) else {
                        dangling += 1
                        continue
                    }
                    if !FileManager.default.fileExists(atPath: folder.file(named: name).path) { dangling += 1 }
                }
            }
        }
        return dangling
    }
}
