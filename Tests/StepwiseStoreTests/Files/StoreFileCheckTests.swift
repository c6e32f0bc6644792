import Foundation
import GRDB
import StepwiseTesting
import Testing

@testable import StepwiseStore

@Suite("Store file checks")
struct StoreFileCheckTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// A real one-table SQLite file, in rollback-journal mode.
    func makeDatabase(_ name: String = "db.sqlite") throws -> URL {
        let url = directory.path(name)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        }
        try queue.close()
        return url
    }

    @Test func aWholeDatabasePassesAndReportsItsHeader() throws {
        let url = try makeDatabase()
        let header = try StoreFileCheck.check(url)
        #expect(header.pageSize == 4096)
        #expect(header.pageCount == 2)
        #expect(header.isWAL == false)
    }

    @Test func aMissingFileIsNotFound() {
        #expect(kind { try StoreFileCheck.check(directory.path("nope.sqlite")) } == .notFound)
    }

    @Test func aDirectoryIsRejectedAsADirectory() {
        #expect(kind { try StoreFileCheck.check(directory.url) } == .isDirectory)
    }

    @Test func aZeroLengthFileIsEmpty() throws {
        let url = directory.path("empty.sqlite")
        try Data().write(to: url)
        #expect(kind { try StoreFileCheck.check(url) } == .emptyFile)
        #expect(try Data(contentsOf: url).isEmpty)
    }

    @Test func aTextFileIsNotSQLite() throws {
        let url = directory.path("notes.sqlite")
        try Data("hello, this is not a database at all, just some text".utf8).write(to: url)
        #expect(kind { try StoreFileCheck.check(url) } == .notSQLite)
    }

    @Test func aFileCutAfterTheFirstPageIsTruncated() throws {
        let url = try makeDatabase()
        let whole = try Data(contentsOf: url)
        let cut = directory.path("cut.sqlite")
        try whole.prefix(4096).write(to: cut)
        #expect(kind { try StoreFileCheck.check(cut) } == .truncated(expectedBytes: 8192, actualBytes: 4096))
    }

    @Test func aFileCutInsideItsHeaderIsTruncated() throws {
        let url = try makeDatabase()
        let cut = directory.path("cut.sqlite")
        try Data(contentsOf: url).prefix(60).write(to: cut)
        #expect(kind { try StoreFileCheck.check(cut) } == .truncated(expectedBytes: 100, actualBytes: 60))
    }

    @Test func aSnapshotReadsRowsThatLiveOnlyInTheWAL() throws {
        // Build a WAL database whose rows are not yet checkpointed into the main file.
        let url = directory.path("wal.sqlite")
        let writer = try DatabaseQueue(path: url.path)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode=WAL")
            try db.execute(sql: "PRAGMA wal_autocheckpoint=0")
            try db.execute(sql: "CREATE TABLE t (x INTEGER)")
            try db.execute(sql: "INSERT INTO t VALUES (1), (2), (3), (4)")
        }
        let before = try fileBytes(url)
        let snapshot = try StoreSnapshot(of: url)
        let count = try snapshot.database.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        #expect(count == 4)
        #expect(snapshot.hadWAL)
        #expect(snapshot.header.isWAL)
        snapshot.close()
        #expect(try fileBytes(url) == before)
        #expect(!FileManager.default.fileExists(atPath: snapshot.copyURL.path))
        try writer.close()
    }

    /// The main file, -wal and -shm bytes, for byte-identity assertions.
    func fileBytes(_ url: URL) throws -> [Data?] {
        ["", "-wal", "-shm"].map { try? Data(contentsOf: URL(fileURLWithPath: url.path + $0)) }
    }

    func kind(_ body: () throws -> StoreFileCheck.Header) -> StoreError.Kind? {
        do {
            _ = try body()
            return nil
        } catch let error as StoreError {
            return error.kind
        } catch {
            return .io("unexpected \(error)")
        }
    }
}
