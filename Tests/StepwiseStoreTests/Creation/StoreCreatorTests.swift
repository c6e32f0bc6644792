import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@Suite("StoreCreator")
struct StoreCreatorTests {
    /// Creates a store in a fresh directory and returns what is needed to inspect it.
    private func create(_ model: ObjectModel, uuid: String = UUID().uuidString, release: CoreDataRelease? = nil) throws
        -> (TemporaryDirectory, URL, StoreMetadata)
    {
        let directory = try TemporaryDirectory()
        let url = directory.path("\(model.name).sqlite")
        guard let release else {
            return (directory, url, try StoreCreator.createStore(at: url, model: model, uuid: uuid))
        }
        let metadata = StoreMetadata(model: model, uuid: uuid)
        try StoreCreator.createStore(at: url, layout: StoreLayout(model: model, release: release), metadata: metadata)
        return (directory, url, metadata)
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"), arguments: CorpusStore.onePerVersion)
    func createdStoreHasTheSchemaCoreDataWrote(_ store: CorpusStore) throws {
        let corpus = try Corpus.required()
        let model = try corpus.model(of: store)
        let coreDataMetadata = try store.metadata(in: corpus)
        // In the forms of the release that wrote the store (the corpus's are 419 to 847).
        let (directory, url, metadata) = try create(model, release: coreDataMetadata.release)
        _ = directory
        let (oracle, oracleKeys) = try store.schemaAndPrimaryKeys(in: corpus)

        let dbQueue = try DatabaseQueue(path: url.path)
        defer { try? dbQueue.close() }
        let (schema, primaryKeys, reread) = try dbQueue.read { db in
            (
                try SQLiteSchema.read(from: db), try PrimaryKeyRow.readAll(from: db),
                try StoreMetadata.read(from: db, path: url.path)
            )
        }
        #expect(schema.differences(from: oracle, ignoringTables: StoreLayout.optionalTableNames) == [])
        #expect(primaryKeys == oracleKeys.map(\.ignoringMaximum))
        #expect(reread == metadata)
        // Stepwise's hashes are the ones Core Data wrote for this version.
        #expect(reread.versionHashes == coreDataMetadata.versionHashes)
        #expect(reread.versionHashes.count == model.entities.count)
    }

    @Test func storeIsCompleteInOneFileWithCoreDataPragmas() throws {
        let model = ObjectModel("Notes") {
            Entity("Note") {
                Attribute("text", .string)
                Relationship("tags", to: "Tag", inverse: "notes").toMany()
            }
            Entity("Tag") { Relationship("notes", to: "Note", inverse: "tags").toMany() }
        }
        let (directory, url, metadata) = try create(model, uuid: "6F9619FF-8B86-D011-B42D-00C04FC964FF")
        _ = directory
        // Checkpointed and closed: no -wal or -shm left behind.
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: url.path + "-shm"))
        let header = try Data(contentsOf: url)
        #expect(header.prefix(16) == Data("SQLite format 3\0".utf8))
        // Bytes 18-19: file format versions 2/2 = WAL.
        #expect(header[18] == 2 && header[19] == 2)

        let dbQueue = try DatabaseQueue(path: url.path)
        defer { try? dbQueue.close() }
        try dbQueue.read { db in
            #expect(try Int.fetchOne(db, sql: "PRAGMA page_size") == 4096)
            #expect(try Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 2)
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try String.fetchOne(db, sql: "PRAGMA encoding") == "UTF-8")
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
            #expect(
                try PrimaryKeyRow.readAll(from: db) == [
                    PrimaryKeyRow(entityNumber: 1, name: "Note", superNumber: 0),
                    PrimaryKeyRow(entityNumber: 2, name: "Tag", superNumber: 0),
                ])
            #expect(try db.tableExists("Z_1TAGS"))
            #expect(try !db.tableExists("Z_MODELCACHE"))
            let stored = try StoreMetadata.read(from: db, path: url.path)
            #expect(stored == metadata)
            #expect(stored.storeUUID == "6F9619FF-8B86-D011-B42D-00C04FC964FF")
            #expect(stored.modelVersionName == "Notes")
            #expect(stored.additionalEntries["_NSAutoVacuumLevel"] == "2")
        }
    }

    @Test func refusesToOverwriteAnExistingFile() throws {
        let model = ObjectModel("One") { Entity("Item") {} }
        let directory = try TemporaryDirectory()
        let url = directory.path("Existing.sqlite")
        try Data("keep me".utf8).write(to: url)
        let error = try #require(throws: StoreError.self) { try StoreCreator.createStore(at: url, model: model) }
        #expect(error.kind == .alreadyExists)
        #expect(try Data(contentsOf: url) == Data("keep me".utf8))

        // A stray -wal would be replayed into the new store: refuse too, and leave it alone.
        let other = directory.path("Other.sqlite")
        try Data("wal".utf8).write(to: URL(fileURLWithPath: other.path + "-wal"))
        let walError = try #require(throws: StoreError.self) { try StoreCreator.createStore(at: other, model: model) }
        #expect(walError.kind == .alreadyExists)
        #expect(!FileManager.default.fileExists(atPath: other.path))
    }

    @Test func missingFolderIsAnIOError() throws {
        let model = ObjectModel("One") { Entity("Item") {} }
        let directory = try TemporaryDirectory()
        let url = directory.path("missing/Store.sqlite")
        let error = try #require(throws: StoreError.self) { try StoreCreator.createStore(at: url, model: model) }
        guard case .io(let reason) = error.kind else {
            Issue.record("unexpected \(error)")
            return
        }
        #expect(reason.contains("does not exist"))
    }

    @Test func unsupportedModelLeavesNoFile() throws {
        let model = ObjectModel("Bad") {
            Entity("Folder") {
                Relationship("items", to: "Folder").toMany()
                Unique("items")
            }
        }
        let directory = try TemporaryDirectory()
        let url = directory.path("Bad.sqlite")
        #expect(throws: StoreError.self) { try StoreCreator.createStore(at: url, model: model) }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test(.enabled(if: Corpus.shouldRunTests, "needs ../shared/corpus"))
    func createsTheVersionWithoutAStore() throws {
        let corpus = try Corpus.required()
        let model = try corpus.modelBundle(.moody).version(named: "Moody 6")
        let (directory, url, _) = try create(model)
        _ = directory
        let dbQueue = try DatabaseQueue(path: url.path)
        defer { try? dbQueue.close() }
        let schema = try dbQueue.read { db in try SQLiteSchema.read(from: db) }
        #expect(schema.differences(from: try SQLiteSchema(expectedFor: StoreLayout(model: model))) == [])
        #expect(schema.table(named: "ZCONTINENT")?.column(named: "ZNUMERICISO3166CODE")?.type == "INTEGER")
        #expect(schema.table(named: "ZCOUNTRY")?.column(named: "ZCONTINENT")?.type == "INTEGER")
        #expect(schema.index(named: "ZCOUNTRY_ZCONTINENT_INDEX")?.columns == ["ZCONTINENT"])
    }
}
