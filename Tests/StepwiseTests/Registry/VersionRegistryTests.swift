import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTestSupport
import StepwiseTesting
import Testing

@testable import Stepwise

@Suite("Version registry")
struct VersionRegistryTests {
    let directory: TemporaryDirectory
    let history = RecipesHistory.history

    init() throws {
        directory = try TemporaryDirectory()
    }

    func createStore(_ model: ObjectModel, name: String = "Store.sqlite") throws -> URL {
        let url = directory.path(name)
        _ = try StoreCreator.createStore(at: url, model: model)
        return url
    }

    /// Rewrites a store's metadata in place (test stores only).
    func editMetadata(_ url: URL, _ change: (inout StoreMetadata) -> Void) throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            var metadata = try StoreMetadata.read(from: db, path: url.path)
            change(&metadata)
            try metadata.write(to: db, path: url.path)
        }
        try queue.close()
    }

    func bytes(_ url: URL) -> [Data?] {
        ["", "-wal", "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: url.path + $0)) }
    }

    @Test(arguments: ["Recipes", "Recipes 2", "Recipes 3", "Recipes 4"])
    func aStoreIsIdentifiedByHashAsTheVersionThatCreatedIt(versionName: String) throws {
        let model = try #require(history.version(named: versionName))
        let url = try createStore(model)
        let before = bytes(url)
        let identification = try VersionRegistry(history: history).identify(storeAt: url)
        #expect(identification.version?.name == versionName)
        #expect(identification.matchedBy == .hash)
        #expect(identification.isConsistent)
        #expect(identification.problem == nil)
        #expect(bytes(url) == before)
    }

    /// Two versions that differ only where Core Data doesn't hash (a class name here) share every
    /// hash: a store of either is compatible with both, as in Core Data. The one the store's
    /// `NSStoreModelVersionIdentifiers` name is taken; without identifiers, the newest.
    @Test func amongVersionsWithEqualHashesTheStoresIdentifiersChoose() throws {
        var first = ObjectModel("Notes", versionIdentifiers: ["1.0"]) {
            Entity("Note") { Attribute("title", .string) }
        }
        var second = first
        second.name = "Notes 2"
        second.versionIdentifiers = ["1.1"]
        second.entities[0].className = "NoteObject"
        let third = ObjectModel("Notes 3") { Entity("Note") { Attribute("title", .string).required() } }
        let history = VersionHistory([first, second, third])
        #expect(first.entityVersionHashes == second.entityVersionHashes)

        let url = try createStore(first)
        let identification = try VersionRegistry(history: history).identify(storeAt: url)
        #expect(identification.version?.name == "Notes")
        #expect(identification.matchedBy == .hash)
        #expect(
            identification.notes == [
                "versions 'Notes', 'Notes 2' have identical hashes, so their stores are interchangeable; the store's NSStoreModelVersionIdentifiers name 'Notes'"
            ])

        first.versionIdentifiers = []
        second.versionIdentifiers = []
        let anonymous = try createStore(first, name: "Anonymous.sqlite")
        let newest = try VersionRegistry(history: VersionHistory([first, second, third])).identify(storeAt: anonymous)
        #expect(newest.version?.name == "Notes 2")
        #expect(newest.notes.first?.hasSuffix("took the newest") == true)
    }

    @Test func whenNoHashesMatchTheTablesIdentifyTheVersion() throws {
        let url = try createStore(RecipesHistory.v2)
        try editMetadata(url) { metadata in
            metadata.versionHashes = metadata.versionHashes.mapValues { _ in Data(repeating: 7, count: 32) }
        }
        let identification = try VersionRegistry(history: history).identify(storeAt: url)
        #expect(identification.version?.name == "Recipes 2")
        #expect(identification.matchedBy == .schema)
        #expect(identification.notes.contains { $0.contains("matched by comparing tables") })
    }

    @Test func hashesOfOneVersionOverTablesOfAnotherAreInconsistent() throws {
        let url = try createStore(RecipesHistory.v1)
        try editMetadata(url) { metadata in
            metadata.versionHashes = RecipesHistory.v2.entityVersionHashes
        }
        let identification = try VersionRegistry(history: history).identify(storeAt: url)
        #expect(identification.version == nil)
        #expect(identification.matchedBy == nil)
        #expect(!identification.isConsistent)
        guard case .inconsistent(let hashVersion, let schemaVersion, let differences) = identification.match else {
            Issue.record("expected an inconsistent match")
            return
        }
        #expect(hashVersion == "Recipes 2")
        #expect(schemaVersion == "Recipes")
        #expect(!differences.isEmpty)
        #expect(identification.problem?.contains("'Recipes 2'") == true)
    }

    @Test func aStoreNamingAnUnknownVersionIsNewerThanTheHistory() throws {
        let url = try createStore(RecipesHistory.v3)
        let before = bytes(url)
        let olderHistory = VersionHistory([RecipesHistory.v1, RecipesHistory.v2])
        let error = try #require(throws: UpgradeError.self) {
            try VersionRegistry(history: olderHistory).identify(storeAt: url)
        }
        guard case .newerThanKnownVersions(let name, let latest, _) = error.kind else {
            Issue.record("expected newerThanKnownVersions, got \(error)")
            return
        }
        #expect(name == "Recipes 3")
        #expect(latest == "Recipes 2")
        #expect(error.description.contains("newer than the latest known, 'Recipes 2'"))
        #expect(bytes(url) == before)
    }

    @Test func aStoreWithOnlyExtraColumnsOverTheLatestIsNewer() throws {
        let url = try createStore(RecipesHistory.v4)
        try editMetadata(url) { $0.modelVersionName = nil }
        let olderHistory = VersionHistory([RecipesHistory.v1, RecipesHistory.v2, RecipesHistory.v3])
        let error = try #require(throws: UpgradeError.self) {
            try VersionRegistry(history: olderHistory).identify(storeAt: url)
        }
        guard case .newerThanKnownVersions(nil, "Recipes 3", let differences) = error.kind else {
            Issue.record("expected newerThanKnownVersions, got \(error)")
            return
        }
        #expect(differences.map(\.description).contains { $0.contains("ZNOTES") })
    }

    @Test func aStoreOfAnotherModelMatchesNoVersionAndNamesTheClosest() throws {
        let other = ObjectModel("Other") {
            Entity("Chef") { Attribute("nickname", .string) }
        }
        let url = try createStore(other)
        let before = bytes(url)
        let error = try #require(throws: UpgradeError.self) {
            try VersionRegistry(history: history).identify(storeAt: url)
        }
        guard case .noMatchingVersion(let closest, let differences) = error.kind else {
            Issue.record("expected noMatchingVersion, got \(error)")
            return
        }
        #expect(closest != nil)
        #expect(!differences.isEmpty)
        #expect(error.description.contains("The closest is"))
        #expect(bytes(url) == before)
    }

    // MARK: Bad input: each gets its own typed error, and the file stays byte-identical.

    @Test func aNonSQLiteFileIsRejected() throws {
        let url = directory.path("text.sqlite")
        try Data(String(repeating: "not a database. ", count: 20).utf8).write(to: url)
        try expectStoreError(.notSQLite, at: url)
    }

    @Test func aZeroLengthFileIsRejected() throws {
        let url = directory.path("zero.sqlite")
        try Data().write(to: url)
        try expectStoreError(.emptyFile, at: url)
    }

    @Test func aTruncatedStoreIsRejected() throws {
        let whole = try createStore(RecipesHistory.v1)
        let url = directory.path("cut.sqlite")
        try Data(contentsOf: whole).prefix(4096).write(to: url)
        let before = bytes(url)
        let error = try #require(throws: StoreError.self) {
            try VersionRegistry(history: history).identify(storeAt: url)
        }
        guard case .truncated(let expected, 4096) = error.kind else {
            Issue.record("expected truncated, got \(error)")
            return
        }
        #expect(expected > 4096)
        #expect(bytes(url) == before)
    }

    @Test func aDirectoryIsRejected() throws {
        let url = directory.path("Store.sqlite")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try expectStoreError(.isDirectory, at: url)
    }

    @Test func anSQLiteFileWithoutZMetadataIsRejected() throws {
        let url = directory.path("plain.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)") }
        try queue.close()
        try expectStoreError(.missingMetadataTable, at: url)
    }

    @Test func garbageInZPlistIsRejected() throws {
        let url = try createStore(RecipesHistory.v1)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [Data("garbage, not a plist".utf8)])
        }
        try queue.close()
        let before = bytes(url)
        let error = try #require(throws: StoreError.self) {
            try VersionRegistry(history: history).identify(storeAt: url)
        }
        guard case .invalidMetadata = error.kind else {
            Issue.record("expected invalidMetadata, got \(error)")
            return
        }
        #expect(bytes(url) == before)
    }

    func expectStoreError(_ expected: StoreError.Kind, at url: URL) throws {
        let before = bytes(url)
        let error = try #require(throws: StoreError.self) {
            try VersionRegistry(history: history).identify(storeAt: url)
        }
        #expect(error.kind == expected)
        #expect(error.description.contains(url.lastPathComponent))
        #expect(bytes(url) == before)
    }
}
