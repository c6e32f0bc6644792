import Foundation
import GRDB
import StepwiseModel
import StepwiseStore
import StepwiseTesting
import Testing

@Suite("StoreGeneration")
struct StoreGenerationTests {
    static let model = ObjectModel("Notes") { Entity("Note") { Attribute("text", .string) } }

    /// A store with two notes in its main file and three more only in its `-wal`.
    private func storeWithRowsInWAL(in directory: TemporaryDirectory) throws -> StoreGeneration {
        let url = directory.path("Notes.sqlite")
        try StoreCreator.createStore(at: url, model: Self.model)
        let layout = try StoreLayout(model: Self.model)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            for text in ["one", "two"] { _ = try ObjectContext(db, layout: layout).insert("Note", ["text": text]) }
        }
        try queue.close()
        try WALWriter.write(to: url) { db in
            for text in ["three", "four", "five"] {
                _ = try ObjectContext(db, layout: layout).insert("Note", ["text": text])
            }
        }
        let generation = StoreGeneration(mainFile: url)
        #expect(FileSystem().size(of: generation.file(.wal)) > 0)
        return generation
    }

    /// The notes SQLite sees in `generation` opened as it is (main file and `-wal`).
    private func notes(in generation: StoreGeneration) throws -> Int {
        let queue = try DatabaseQueue(path: generation.mainFile.path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZNOTE") } ?? -1
    }

    /// The notes in `generation`'s main file alone: read from a copy of that one file.
    private func notesInMainFileAlone(of generation: StoreGeneration) throws -> Int {
        let directory = try TemporaryDirectory()
        let alone = StoreGeneration(mainFile: directory.path("Alone.sqlite"))
        try FileManager.default.copyItem(at: generation.mainFile, to: alone.mainFile)
        return try notes(in: alone)
    }

    /// The bytes of every file of `generation` that exists, by suffix.
    private func bytes(of generation: StoreGeneration) -> [String: Data] {
        var bytes: [String: Data] = [:]
        for companion in StoreGeneration.outgoingOrder {
            bytes[StoreGeneration.suffix(companion)] = FileManager.default.contents(
                atPath: generation.file(companion).path)
        }
        return bytes
    }

    @Test("companions move out before the main file and in after it; the -shm carries no data")
    func order() {
        #expect(StoreGeneration.outgoingOrder == [.shm, .wal, .journal, nil])
        #expect(StoreGeneration.incomingOrder == [nil, .journal, .wal, .shm])
        #expect(StoreGeneration.dataFiles == [nil, .wal, .journal])
        let generation = StoreGeneration(mainFile: URL(fileURLWithPath: "/data/Store.sqlite"))
        #expect(generation.file(nil).path == "/data/Store.sqlite")
        #expect(
            StoreGeneration.Companion.allCases.map { generation.file($0).path } == [
                "/data/Store.sqlite-wal", "/data/Store.sqlite-shm", "/data/Store.sqlite-journal",
            ])
    }

    @Test("a checkpointed copy holds the rows that were only in the -wal in its main file; the original is untouched")
    func checkpointedCopy() throws {
        let directory = try TemporaryDirectory()
        let original = try storeWithRowsInWAL(in: directory)
        let before = bytes(of: original)
        #expect(try notesInMainFileAlone(of: original) == 2)

        let copy = StoreGeneration(mainFile: directory.path("Copy.sqlite"))
        try original.copy(
            to: copy, checkpointing: .init(file: "test.sync", directory: "test.sync-directory"), syncing: .ordering,
            fileSystem: FileSystem(), site: "test.copy")

        #expect(try notesInMainFileAlone(of: copy) == 5)
        #expect(FileSystem().size(of: copy.file(.wal)) == 0)
        #expect(bytes(of: original) == before)
    }

    @Test("a copy without checkpoint has the same files, -wal included and -shm left out")
    func copyWithoutCheckpoint() throws {
        let directory = try TemporaryDirectory()
        let original = try storeWithRowsInWAL(in: directory)
        let copy = StoreGeneration(mainFile: directory.path("Copy.sqlite"))
        let recorder = SiteRecorder()
        try original.copy(
            to: copy, checkpointing: nil, syncing: nil, fileSystem: recorder.fileSystem, site: "test.copy")

        #expect(recorder.sites == ["test.copy", "test.copy-wal"])
        #expect(try Data(contentsOf: copy.mainFile) == Data(contentsOf: original.mainFile))
        #expect(try Data(contentsOf: copy.file(.wal)) == Data(contentsOf: original.file(.wal)))
        #expect(!FileManager.default.fileExists(atPath: copy.file(.shm).path))
        #expect(try notesInMainFileAlone(of: copy) == 2)
        #expect(try notes(in: copy) == 5)
    }

    @Test("removal takes every file there and ignores the missing ones; an existing companion is refused")
    func removal() throws {
        let directory = try TemporaryDirectory()
        let generation = StoreGeneration(mainFile: directory.path("Gone.sqlite"))
        try Data("main".utf8).write(to: generation.mainFile)
        try Data("wal".utf8).write(to: generation.file(.wal))
        #expect(generation.exists)
        let refusal = try #require(throws: StoreError.self) { try generation.refuseExisting() }
        #expect(refusal.path == generation.mainFile.path)
        #expect(refusal.kind == .alreadyExists)

        try generation.remove(fileSystem: FileSystem(), site: "test.remove")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
        #expect(!generation.exists)
        try generation.remove(fileSystem: FileSystem(), site: "test.remove")
        try generation.refuseExisting()

        // A stray -journal alone is still part of the generation: refused, and removed.
        try Data("journal".utf8).write(to: generation.file(.journal))
        #expect(throws: StoreError.self) { try generation.refuseExisting() }
        #expect(!generation.hasNothingToFoldIn)
        try generation.remove(fileSystem: FileSystem(), site: "test.remove")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).isEmpty)
    }
}

/// A file system that records every site it is asked about, in order.
private final class SiteRecorder: @unchecked Sendable {
    // @unchecked: `recorded` is guarded by `lock`.
    private let lock = NSLock()
    private var recorded: [String] = []

    var sites: [String] { lock.withLock { recorded } }

    var fileSystem: FileSystem {
        FileSystem(inject: { [self] _, site in
            lock.withLock { recorded.append(site) }
            return nil
        })
    }
}
