import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import Testing

@testable import Stepwise

/// Store files that can't be upgraded: not a store, a damaged one, or one of an unknown or
/// later version. Each is refused with its `StoreError` or `UpgradeError`, byte-identical.
extension BadInputCatalogue {
    static let stores: [BadInputCase] = [
        BadInputCase(
            .store, "a store cut off after its first page",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                let whole = try Data(contentsOf: workspace.store)
                workspace.record("wholeBytes", Int64(whole.count))
                try whole.prefix(4096).write(to: workspace.store)
            },
            act: { try $0.upgradeStore() },
            expect: .storeError(at: "Store.sqlite") {
                .truncated(expectedBytes: $0.fact("wholeBytes"), actualBytes: 4096)
            }
        ),
        BadInputCase(
            .store, "a file of random bytes",
            arrange: { workspace in
                try workspace.writeSamples()
                try randomBytes(count: 8192).write(to: workspace.store)
            },
            act: { try $0.upgradeStore() },
            expect: .storeError(.notSQLite, at: "Store.sqlite")
        ),
        BadInputCase(
            .store, "a zero-length file",
            arrange: { workspace in
                try workspace.writeSamples()
                try Data().write(to: workspace.store)
            },
            act: { try $0.upgradeStore() },
            expect: .storeError(.emptyFile, at: "Store.sqlite")
        ),
        BadInputCase(
            .store, "a directory where the store should be",
            arrange: { workspace in
                try FileManager.default.createDirectory(at: workspace.store, withIntermediateDirectories: false)
                try Data("a file inside".utf8).write(to: workspace.store.appendingPathComponent("inside.txt"))
            },
            act: { try $0.identifyStore() },
            expect: .storeError(.isDirectory, at: "Store.sqlite")
        ),
        BadInputCase(
            .store, "a symbolic link loop",
            arrange: { workspace in
                try workspace.writeSamples()
                try FileManager.default.createSymbolicLink(
                    atPath: workspace.store.path, withDestinationPath: "Other.sqlite")
                try FileManager.default.createSymbolicLink(
                    atPath: workspace.path("Other.sqlite").path, withDestinationPath: "Store.sqlite")
            },
            act: { try $0.upgradeStore() },
            expect: .storeError(brokenLink(to: "Other.sqlite", errno: ELOOP), at: "Store.sqlite")
        ),
        BadInputCase(
            .store, "a symbolic link to a store that was deleted",
            arrange: { workspace in
                try workspace.writeSamples()
                try FileManager.default.createSymbolicLink(
                    atPath: workspace.store.path, withDestinationPath: "Deleted.sqlite")
            },
            act: { try $0.upgradeStore() },
            expect: .storeError(brokenLink(to: "Deleted.sqlite", errno: ENOENT), at: "Store.sqlite")
        ),
        BadInputCase(
            // upgradeIfNeeded reports a first launch (no store) as nothing to upgrade.
            .store, "no file at the store's path, identified",
            arrange: { try $0.writeSamples() },
            act: { try $0.identifyStore() },
            expect: .storeError(.notFound, at: "Store.sqlite")
        ),
        unreadableStore,
        BadInputCase(
            // Most often another model the app merges into the store, not given.
            .store, "a store holding an entity no version of the history has",
            arrange: { workspace in
                try workspace.writeSamples()
                let stranger = ObjectModel("Stranger") { Entity("Stranger") { Attribute("name", .string) } }
                try StoreCreator.createStore(
                    at: workspace.store, model: ObjectModel.merging([RecipesHistory.v1, stranger]))
            },
            act: { try $0.upgradeStore() },
            expect: .unknownEntities(at: "Store.sqlite", entities: ["Stranger"], tables: ["ZSTRANGER"]),
            leaves: .lockFile
        ),
        BadInputCase(
            .store, "a configuration no version of the model has",
            arrange: { try $0.writeRecipesStore() },
            act: { workspace in
                var options = UpgradeOptions()
                options.configuration = "Cloud"
                return try Upgrader(bundleAt: workspace.bundle, options: options).upgradeIfNeededSynchronously(
                    storeAt: workspace.store)
            },
            expect: .modelError(containing: "no version of the model has a configuration named 'Cloud'")
        ),
        BadInputCase(
            .store, "merged models with an entity of the same name",
            arrange: { try $0.writeRecipesStore() },
            act: { workspace in
                let clash = try ModelHistory(versions: VersionHistory([ObjectModel("Other") { Entity("Chef") {} }]))
                return try Upgrader(merging: [try ModelHistory(versions: RecipesHistory.history), clash])
                    .upgradeIfNeededSynchronously(
                        storeAt: workspace.store)
            },
            expect: .modelError(containing: "both have an entity named 'Chef'")
        ),
        BadInputCase(
            .store, "an SQLite database without Z_METADATA",
            arrange: { workspace in
                try workspace.writeSamples()
                try workspace.execute("CREATE TABLE ZCHEF (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR)")
            },
            act: { try $0.upgradeStore() },
            expect: .storeError(.missingMetadataTable, at: "Store.sqlite"), leaves: .lockFile
        ),
        BadInputCase(
            .store, "garbage in Z_PLIST",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                try workspace.execute(
                    "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [Data("bplist00, or so it claims".utf8)])
            },
            act: { try $0.identifyStore() },
            expect: .storeError(.invalidMetadata("Z_PLIST is not a property list"), at: "Store.sqlite")
        ),
        BadInputCase(
            .store, "a Z_PLIST without the entity version hashes",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                let plist = try PropertyListSerialization.data(
                    fromPropertyList: ["NSStoreType": "SQLite"], format: .binary, options: 0)
                try workspace.execute("UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [plist])
            },
            act: { try $0.upgradeStore() },
            expect: .storeError(.invalidMetadata("NSStoreModelVersionHashes is missing"), at: "Store.sqlite"),
            leaves: .lockFile
        ),
        BadInputCase(
            .store, "Z_METADATA without its row",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                try workspace.execute("DELETE FROM Z_METADATA")
            },
            act: { try $0.upgradeStore() },
            expect: .storeError(.invalidMetadata("Z_METADATA has no row for version 1"), at: "Store.sqlite"),
            leaves: .lockFile
        ),
        BadInputCase(
            .store, "garbage pages behind a valid header",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                try workspace.overwritePagesAfterTheFirst()
            },
            act: { try $0.upgradeStore() },
            expect: .storeError(.sqlite(code: 11, message: "database disk image is malformed"), at: "Store.sqlite"),
            leaves: .lockFile
        ),
        BadInputCase(
            .store, "hashes and tables of no known version",
            arrange: { workspace in
                try workspace.writeSamples()
                try StoreCreator.createStore(at: workspace.store, model: pantry)
            },
            act: { try $0.upgradeStore() },
            expect: .registryError(
                at: "Store.sqlite",
                .noMatchingVersion(
                    closest: "Recipes",
                    differences: [
                        "table ZCHEF is missing", "table ZINGREDIENT is missing", "table ZJAR is not expected",
                        "table ZRECIPE is missing",
                    ])),
            leaves: .lockFile
        ),
        BadInputCase(
            .store, "hashes of no known version over tables with a column no version has",
            arrange: { workspace in
                try workspace.writeRecipesStore()
                try workspace.execute("ALTER TABLE ZCHEF ADD COLUMN ZNICKNAME VARCHAR")
                try workspace.editMetadata { metadata in
                    metadata.versionHashes = metadata.versionHashes.mapValues { _ in Data(repeating: 7, count: 32) }
                }
            },
            act: { try $0.identifyStore() },
            expect: .registryError(
                at: "Store.sqlite",
                .noMatchingVersion(closest: "Recipes", differences: ["table ZCHEF has an unexpected column ZNICKNAME"]))
        ),
        BadInputCase(
            .store, "a store written by a version newer than the bundle's current one",
            arrange: { workspace in
                try workspace.writeSamples()
                try workspace.writeRecipesBundle(upTo: "Recipes 3")
                try StoreCreator.createStore(at: workspace.store, model: RecipesHistory.v4)
            },
            act: { try $0.upgradeStore() },
            expect: .registryError(
                at: "Store.sqlite",
                .newerThanKnownVersions(
                    storeVersionName: "Recipes 4", latest: "Recipes 3",
                    differences: [
                        "table ZCHEF has an unexpected column ZEMAIL",
                        "table ZRECIPE has an unexpected column ZPREPMINUTES",
                        "table ZRECIPE has an unexpected column ZNOTES",
                    ])),
            leaves: .lockFile
        ),
        BadInputCase(
            .store, "the inconsistent corpus store 2C", requires: .corpus,
            arrange: { try $0.copyCorpusStore(CorpusStore.corrupt) },
            act: { workspace in
                try workspace.upgrader(
                    bundle: workspace.path("ATDataModel.xcdatamodeld"), mappings: workspace.path("ATDataModel.mappings")
                ).upgradeIfNeededSynchronously(storeAt: workspace.path("ATDataModel.sqlite"))
            },
            expect: .registryError(
                at: "ATDataModel.sqlite",
                .inconsistent(
                    problemPrefix: "its metadata hashes say 'ATDataModel 3' but the tables are 'ATDataModel 2''s (")),
            leaves: .lockFile(store: "ATDataModel.sqlite")
        ),
        BadInputCase(
            .store, "the inconsistent corpus store 2C, identified", requires: .corpus,
            arrange: { try $0.copyCorpusStore(CorpusStore.corrupt) },
            act: { workspace in
                try VersionRegistry(
                    history: ModelBundle(contentsOf: workspace.path("ATDataModel.xcdatamodeld")).history
                )
                .identify(storeAt: workspace.path("ATDataModel.sqlite"))
            },
            expect: .identifiedAsInconsistent(hashVersion: "ATDataModel 3", schemaVersion: "ATDataModel 2")
        ),
    ]

    /// A store nobody may read. As root `chmod 000` doesn't stop reads, so the read error is
    /// injected where the upgrade first reads the whole store: its copy into the work folder.
    static var unreadableStore: BadInputCase {
        guard BadInputWorkspace.isRoot else {
            return BadInputCase(
                .store, "a store that can't be read (chmod 000)",
                arrange: { workspace in
                    try workspace.writeRecipesStore()
                    try workspace.makeUnreadable(workspace.store)
                },
                act: { try $0.upgradeStore() },
                expect: .storeIOError(at: "Store.sqlite", reasonPrefix: "can't read: ")
            )
        }
        return BadInputCase(
            .store,
            "a store with rows in its -wal that can't be read (running as root: EACCES injected at the copy, where chmod 000 can't)",
            arrange: { try $0.writeRecipesStoreWithRowsInWAL() },
            act: { try $0.upgradeStore(fileSystem: .failing(at: "copy.file", with: EACCES)) },
            expect: .upgradeError(storePath: "Store.sqlite", site: "copy.file") { _ in
                .fileSystem(operation: "copy", path: ".Store.sqlite.stepwise/step-0/store.sqlite", errno: EACCES)
            },
            leaves: .lockFile
        )
    }

    /// What a symbolic link that can't be followed is reported as.
    static func brokenLink(to destination: String, errno code: Int32) -> StoreError.Kind {
        .io(
            "it is a symbolic link to \(destination) that can't be followed (\(String(cString: strerror(code)))); point it at the store file"
        )
    }

    /// A model that shares nothing with the Recipes history.
    static let pantry = ObjectModel("Pantry") {
        Entity("Jar") {
            Attribute("label", .string)
        }
    }

    /// Bytes that look random but are the same on every run.
    static func randomBytes(count: Int) -> Data {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return Data(
            (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 33)
            })
    }
}

extension FileSystem {
    /// A file system whose call at `site` fails with `code`.
    static func failing(at site: String, with code: Int32) -> FileSystem {
        FileSystem { _, reached in reached == site ? .error(code) : nil }
    }
}

extension BadInputWorkspace {
    /// Rewrites the Recipes bundle with its versions up to `last` only (and the history file
    /// to match), as an older app build would ship it.
    func writeRecipesBundle(upTo last: String) throws {
        let versions = RecipesHistory.history.versions
        guard let end = versions.firstIndex(where: { $0.name == last }) else {
            throw BadInputSetupError.textNotFound(last, file: "RecipesHistory")
        }
        try FileManager.default.removeItem(at: bundle)
        try XcodeModelWriter.writeBundle(Array(versions[...end]), current: last, to: bundle)
        let names = versions[...end].map(\.name).joined(separator: "\n")
        try Data("\(names)\n".utf8).write(to: path("Recipes.history"))
    }

    /// Replaces every page of the store but the first (the header and the schema) with
    /// random bytes: SQLite opens it, then finds it malformed.
    func overwritePagesAfterTheFirst() throws {
        var bytes = try Data(contentsOf: store)
        bytes.replaceSubrange(
            4096..<bytes.count, with: BadInputCatalogue.randomBytes(count: bytes.count - 4096))
        try bytes.write(to: store)
    }

    /// Copies a corpus store with the Apptentive bundle and the mapping models beside it into
    /// the workspace, so the corpus itself is never opened.
    func copyCorpusStore(_ store: CorpusStore) throws {
        guard let corpus = try Corpus.locate() else { throw BadInputSetupError.missingCorpus }
        _ = try corpus.copyStore(store, to: url)
        try copyTree(corpus.url(store.bundle), to: path("ATDataModel.xcdatamodeld"))
        for mappingModel in try corpus.mappingModels(store.bundle) {
            try copyTree(mappingModel, to: path(mappingModel.lastPathComponent))
        }
    }

    /// Copies a folder's files with this process's default permissions: the corpus's
    /// folders are read-only, and a copy that kept that couldn't be filled or removed.
    private func copyTree(_ source: URL, to destination: URL) throws {
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            let item = source.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: item.path, isDirectory: &isDirectory)
            if isDirectory.boolValue {
                try copyTree(item, to: destination.appendingPathComponent(name))
            } else {
                try Data(contentsOf: item).write(to: destination.appendingPathComponent(name))
            }
        }
    }
}
