import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@testable import Stepwise

/// A Photos store whose external-storage attributes keep values in files, as Core Data leaves
/// them: row 1's image and thumbnail in files A and B, row 2's image inline and its thumbnail
/// in file C, row 3 without either.
///
/// - v1 "Photos": Photo(name, image: external, thumbnail: external).
/// - v2 "Photos 2": thumbnail dropped (its files must go after the swap), caption added.
/// - v3 "Photos 3": image no longer external (its values converted inline, its files unreferenced).
struct ExternalDataFixture {
    static let v1 = ObjectModel("Photos") {
        Entity("Photo") {
            Attribute("name", .string)
            Attribute("image", .binary).externalStorage()
            Attribute("thumbnail", .binary).externalStorage()
        }
    }
    static let v2 = ObjectModel("Photos 2") {
        Entity("Photo") {
            Attribute("name", .string)
            Attribute("image", .binary).externalStorage()
            Attribute("caption", .string)
        }
    }
    static let v3 = ObjectModel("Photos 3") {
        Entity("Photo") {
            Attribute("name", .string)
            Attribute("image", .binary)
            Attribute("caption", .string)
        }
    }
    static let history = VersionHistory([v1, v2, v3])

    static let fileA = "0A6C3E2B-1111-4C1B-9F00-00000000000A"
    static let fileB = "0A6C3E2B-2222-4C1B-9F00-00000000000B"
    static let fileC = "0A6C3E2B-3333-4C1B-9F00-00000000000C"
    static let bytes = [
        fileA: Data(repeating: 0xA1, count: 3_000), fileB: Data(repeating: 0xB2, count: 1_500),
        fileC: Data(repeating: 0xC3, count: 700),
    ]
    static let inlineImage = Data("row 2's image, inline".utf8)

    let directory: TemporaryDirectory
    let store: URL
    var files: StoreFiles { StoreFiles(store: store) }
    var folder: ExternalDataFolder { ExternalDataFolder(store: store) }

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-external")
        store = directory.path("Photos.sqlite")
        try StoreCreator.createStore(at: store, model: Self.v1)
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: Self.v1))
            let one = try objects.insert("Photo", ["name": "one"])
            _ = try objects.insert("Photo", ["name": "two", "image": Self.inlineImage])
            let three = try objects.insert("Photo", ["name": "three"])
            let reference = ExternalBinaryValue.externalColumnValue
            try db.execute(
                sql: #"UPDATE "ZPHOTO" SET "ZIMAGE" = ?, "ZTHUMBNAIL" = ? WHERE "Z_PK" = ?"#,
                arguments: [reference(Self.fileA), reference(Self.fileB), one.primaryKey])
            try db.execute(
                sql: #"UPDATE "ZPHOTO" SET "ZTHUMBNAIL" = ? WHERE "Z_PK" = 2"#, arguments: [reference(Self.fileC)])
            _ = three
        }
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        for (name, data) in Self.bytes { try data.write(to: folder.file(named: name)) }
    }

    func upgrader(
        to target: String = "Photos 2", keepBackup: Bool = true, fileSystem: FileSystem = FileSystem()
    ) throws -> Upgrader {
        var options = UpgradeOptions(targetVersion: target, keepBackup: keepBackup, lockTimeout: .seconds(30))
        options.fileSystem = fileSystem
        return try Upgrader(history: Self.history, options: options)
    }

    /// The file names in the store's `_EXTERNAL_DATA` folder.
    func fileNames() throws -> [String] { try folder.fileNames() }

    /// The file names every external reference of the store in place names, and those of them
    /// that don't resolve to a file, read with the columns of the version it reads as.
    func references() throws -> (all: [String], dangling: [String]) {
        let version = try VersionRegistry(history: Self.history).identify(storeAt: store).version
        let model = try #require(version)
        let columns = try StoreLayout(model: model).externalDataColumns
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        var all: [String] = []
        try snapshot.database.read { db in
            for column in columns {
                let values = try Data.fetchAll(
                    db,
                    sql:
                        "SELECT \(column.column.quotedDatabaseIdentifier) FROM \(column.table.quotedDatabaseIdentifier) WHERE \(column.column.quotedDatabaseIdentifier) IS NOT NULL"
                )
                for value in values {
                    if case .external(let name) = try ExternalBinaryValue.parse(value).get() { all.append(name) }
                }
            }
        }
        let dangling = all.filter { !FileManager.default.fileExists(atPath: folder.file(named: $0).path) }
        return (all.sorted(), dangling.sorted())
    }

    /// One column's values by primary key, from a private copy.
    func column(_ name: String) throws -> [Data?] {
        let snapshot = try StoreSnapshot(of: store)
        defer { snapshot.close() }
        return try snapshot.database.read { db in
            try Data?.fetchAll(
                db, sql: "SELECT \(name.quotedDatabaseIdentifier) FROM \"ZPHOTO\" ORDER BY \"Z_PK\"")
        }
    }
}
