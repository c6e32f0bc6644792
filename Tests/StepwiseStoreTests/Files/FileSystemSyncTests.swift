import Foundation
import StepwiseStore
import StepwiseTesting
import Testing

/// ``FileSystem``'s syncs: each names its ``SyncKind``, which the fault hook sees, and each
/// kind syncs a file and a directory (on Linux both are `fsync`; on Darwin F_FULLFSYNC and
/// F_BARRIERFSYNC, falling back to `fsync` where the file system refuses them).
@Suite("FileSystem: the two kinds of sync")
struct FileSystemSyncTests {
    /// Records each call's operation and site.
    final class CallRecorder: @unchecked Sendable {
        // @unchecked: `calls` is guarded by `lock`.
        private let lock = NSLock()
        private var _calls: [String] = []
        var calls: [String] { lock.withLock { _calls } }

        func fileSystem(failing site: String? = nil) -> FileSystem {
            FileSystem { [self] operation, reached in
                lock.withLock { _calls.append("\(operation.rawValue) \(reached)") }
                return reached == site ? .error(EIO) : nil
            }
        }
    }

    @Test(
        "each kind syncs a file, a directory, a new file and a copy, and the hook sees the kind",
        arguments: SyncKind.allCases)
    func eachKindSyncs(kind: SyncKind) throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-sync")
        let file = directory.path("file")
        let recorder = CallRecorder()
        let fileSystem = recorder.fileSystem()
        try fileSystem.writeNewFile(Data("bytes".utf8), to: file, site: "test.write", sync: kind)
        try fileSystem.copyFile(file, to: directory.path("copy"), site: "test.copy", syncing: kind)
        try fileSystem.copyFile(file, to: directory.path("scratch"), site: "test.scratch", syncing: nil)
        try fileSystem.sync(file, kind, site: "test.sync-file")
        try fileSystem.sync(directory.url, kind, site: "test.sync-directory")

        let sync = FileSystem.Operation.sync(kind).rawValue
        #expect(
            recorder.calls == [
                "write test.write", "\(sync) test.write.fsync", "copy test.copy", "\(sync) test.copy.fsync",
                "copy test.scratch", "\(sync) test.sync-file", "\(sync) test.sync-directory",
            ])
        #expect(try Data(contentsOf: directory.path("copy")) == Data("bytes".utf8))
        #expect(FileSystem.Operation.sync(kind).syncKind == kind)
    }

    @Test("a failed sync of either kind names the call fsync, the path and the site", arguments: SyncKind.allCases)
    func failedSyncIsReported(kind: SyncKind) throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-sync")
        let fileSystem = CallRecorder().fileSystem(failing: "test.sync")
        let error = try #require(throws: FileSystemError.self) {
            try fileSystem.sync(directory.url, kind, site: "test.sync")
        }
        #expect(error.operation == "fsync")
        #expect(error.site == "test.sync")
        #expect(error.path == directory.url.path)
    }

    @Test("a sync of a missing file fails with the system's reason")
    func missingFile() throws {
        let directory = try TemporaryDirectory(prefix: "stepwise-sync")
        let error = try #require(throws: FileSystemError.self) {
            try FileSystem().sync(directory.path("missing"), .durable, site: "test.sync")
        }
        #expect(error.reason == String(cString: strerror(ENOENT)))
        #expect(error.operation == "fsync")
    }

    @Test("only syncs have a kind")
    func onlySyncsHaveAKind() {
        let kinds = FileSystem.Operation.allCases.compactMap(\.syncKind)
        #expect(kinds == [.durable, .ordering])
    }
}
