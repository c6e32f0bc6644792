import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

/// A SwiftData app's store, as Stepwise meets it (issue 43): no model file for the version that
/// wrote it, only the store's own model cache, whose `SDFolder.folderType` is a Codable enum
/// stored as a composite (``SwiftDataFolders``). The app's new schema adds a case to the enum
/// (an element) and an attribute; the store is identified by its cache and upgraded with every
/// value of the enum kept.
@Suite("Upgrading a SwiftData store whose model has an enum")
struct SwiftDataStoreUpgradeTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory(prefix: "stepwise-swiftdata")
    }

    /// The app's new schema: `FolderType` gains `systemFavorites`, `SDFolder` gains `sortIndex`.
    static let newSchema: ObjectModel = {
        var model = SwiftDataFolders.model(elements: SwiftDataFolders.folderTypeElements + ["systemFavorites"])
        model.name = "Recipes 2"
        model.entities = model.entities.map { entity in
            var entity = entity
            if entity.name == "SDFolder" { entity.attributes.append(Attribute("sortIndex", .integer64)) }
            return entity
        }
        return model
    }()

    /// Three folders, one per case, with their cache as SwiftData leaves it.
    func seed() throws -> URL {
        let url = directory.path("default.store")
        var cache = SwiftDataFolders.model()
        cache.name = ModelCache.modelName(forStoreAt: url.path)
        try StoreCreator.createStore(at: url, model: cache)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: cache))
            for (index, element) in ["systemAll", "user", "systemRecentlyDeleted"].enumerated() {
                _ = try objects.insert(
                    "SDFolder",
                    [
                        "id": Data(repeating: UInt8(index), count: 16), "name": "Folder \(index)",
                        "folderType.\(element)": element == "user" ? "Desserts" : "",
                    ])
            }
            try ModelCacheArchive.write(cache, into: db)
        }
        return url
    }

    @Test func theCacheHoldsTheEnumAsTheStoreRecordsIt() throws {
        let store = try seed()
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        let (cached, metadata) = try queue.read { db in
            (try ModelCache.model(in: db, path: store.path), try StoreMetadata.read(from: db, path: store.path))
        }
        let folderType = try #require(cached?[entity: "SDFolder"]?.attribute(named: "folderType"))
        #expect(folderType.type == .composite)
        #expect(folderType.elements.map(\.name) == SwiftDataFolders.folderTypeElements)
        #expect(metadata.versionHashes["SDFolder"]?.base64EncodedString() == SwiftDataFolders.folderHash)
        #expect(cached?.entityVersionHashes == metadata.versionHashes)
    }

    @Test func theStoreUpgradesFromItsCacheKeepingEveryCase() throws {
        let store = try seed()
        let upgrader = try Upgrader(history: VersionHistory([Self.newSchema]), options: UpgradeOptions(strict: true))
        let prepared = try upgrader.plan(forStoreAt: store)
        #expect(prepared.identification.matchedBy == .modelCache)
        #expect(prepared.drops.joined().isEmpty)

        let report = try upgrader.upgradeIfNeededSynchronously(storeAt: store)
        #expect(report.to == "Recipes 2")
        let queue = try DatabaseQueue(path: store.path)
        defer { try? queue.close() }
        let (rows, columns, metadata) = try queue.read { db in
            (
                try Row.fetchAll(
                    db,
                    sql: #"""
                        SELECT "ZNAME", "ZSYSTEMALL", "ZSYSTEMSTANDARD", "ZSYSTEMRECENTLYDELETED", "ZUSER",
                            "ZSYSTEMFAVORITES", "ZSORTINDEX" FROM "ZSDFOLDER" ORDER BY "Z_PK"
                        """#
                ).map { "\($0)" },
                try Row.fetchAll(db, sql: #"PRAGMA table_info("ZSDFOLDER")"#).map { $0["name"] as String },
                try StoreMetadata.read(from: db, path: store.path)
            )
        }
        #expect(
            rows == [
                #"[ZNAME:"Folder 0" ZSYSTEMALL:"" ZSYSTEMSTANDARD:NULL ZSYSTEMRECENTLYDELETED:NULL ZUSER:NULL ZSYSTEMFAVORITES:NULL ZSORTINDEX:NULL]"#,
                #"[ZNAME:"Folder 1" ZSYSTEMALL:NULL ZSYSTEMSTANDARD:NULL ZSYSTEMRECENTLYDELETED:NULL ZUSER:"Desserts" ZSYSTEMFAVORITES:NULL ZSORTINDEX:NULL]"#,
                #"[ZNAME:"Folder 2" ZSYSTEMALL:NULL ZSYSTEMSTANDARD:NULL ZSYSTEMRECENTLYDELETED:"" ZUSER:NULL ZSYSTEMFAVORITES:NULL ZSORTINDEX:NULL]"#,
            ])
        // The step runs in place, as Core Data's lightweight migration does: new columns are
        // added at the end of the table (`ALTER TABLE … ADD COLUMN`), where a new store has them
        // at their place in the column order.
        #expect(
            columns == [
                "Z_PK", "Z_ENT", "Z_OPT", "ZPARENTFOLDER", "ZSYSTEMALL", "ZSYSTEMSTANDARD", "ZSYSTEMRECENTLYDELETED",
                "ZUSER", "ZNAME", "ZID", "ZIMAGEDATA", "ZSORTINDEX", "ZSYSTEMFAVORITES",
            ])
        #expect(report.steps.map(\.strategy) == [.inPlace])
        #expect(metadata.versionHashes == Self.newSchema.entityVersionHashes)
    }

    /// The launch call as the porting article shows it: the app's new schema compiled to one
    /// `.mom` (`NSManagedObjectModel.makeManagedObjectModel(for:)` archived; here the same
    /// keyed archive, written by `ModelCacheArchive`), and the store's own cache for the old.
    @Test func theLaunchCallTakesTheNewSchemasCompiledModelAlone() throws {
        let store = try seed()
        let mom = directory.path("Recipes 2.mom")
        try ModelCacheArchive.archive(of: Self.newSchema).write(to: mom)
        let report = try Upgrader.upgradeIfNeededSynchronously(storeAt: store, bundleAt: mom)
        #expect(report.from == "default.store's model cache")
        #expect(report.to == "Recipes 2")
        let user = try DatabaseQueue(path: store.path).read { db in
            try String.fetchOne(db, sql: #"SELECT "ZUSER" FROM "ZSDFOLDER" WHERE "ZUSER" IS NOT NULL"#)
        }
        #expect(user == "Desserts")
        #expect(try Upgrader.upgradeIfNeededSynchronously(storeAt: store, bundleAt: mom).upToDate)
    }
}
