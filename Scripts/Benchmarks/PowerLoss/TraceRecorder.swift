import CRecordingVFS
import Foundation
import StepwiseStore

/// One recorded event and the call that made it: a ``FileSystem`` site, or `sqlite.xWrite`…
struct RecordedEvent: Sendable {
    var event: FileEvent
    var site: String
}

/// Collects the trace of an upgrade: Stepwise's calls through ``FileSystem/record`` and
/// SQLite's through the recording VFS (CRecordingVFS), in the order they returned, keeping
/// only those under one folder.
final class TraceRecorder: @unchecked Sendable {
    /// The one recorder the VFS's C callback reaches (it can capture nothing).
    static let shared = TraceRecorder()

    private let lock = NSLock()
    private var events: [RecordedEvent] = []
    private var root = "/nowhere"

    /// Starts recording events under `folder`: installs the VFS as the process's default, so
    /// every connection opened from now on is recorded.
    func start(under folder: URL) throws {
        lock.withLock {
            events = []
            root = folder.path
        }
        let code = RecordingVFSInstall { kind, path, offset, bytes, length in
            guard let path else { return }
            let name = String(cString: path)
            let event: FileEvent
            switch kind {
            case RecordingVFSCreate: event = .create(name)
            case RecordingVFSWrite:
                let buffer = bytes.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
                event = .write(name, offset: offset, bytes: buffer)
            case RecordingVFSTruncate: event = .truncate(name, size: offset)
            case RecordingVFSSync: event = .sync(name)
            case RecordingVFSSyncDirectory: event = .syncDirectory(name)
            default: event = .unlink(name)
            }
            TraceRecorder.shared.add(event, site: "sqlite.\(TraceRecorder.siteName(kind))")
        }
        guard code == 0 else { throw BenchError("the recording VFS could not be installed (SQLite code \(code))") }
    }

    /// Stops recording and returns the trace.
    func stop() -> [RecordedEvent] {
        _ = RecordingVFSUninstall()
        return lock.withLock {
            root = "/nowhere"
            return events
        }
    }

    /// For ``FileSystem/record``.
    var fileSystemRecorder: FileEventRecorder {
        { event, site in TraceRecorder.shared.add(event, site: site) }
    }

    func add(_ event: FileEvent, site: String) {
        lock.withLock {
            guard event.paths.allSatisfy({ $0 == root || $0.hasPrefix(root + "/") }) else { return }
            events.append(RecordedEvent(event: event, site: site))
        }
    }

    static func siteName(_ kind: RecordingVFSEventKind) -> String {
        switch kind {
        case RecordingVFSCreate: "xOpen"
        case RecordingVFSWrite: "xWrite"
        case RecordingVFSTruncate: "xTruncate"
        case RecordingVFSSync: "xSync"
        case RecordingVFSSyncDirectory: "xSync.directory"
        default: "xDelete"
        }
    }
}

extension FileEvent {
    /// Every path the event names.
    var paths: [String] {
        switch self {
        case .create(let path), .write(let path, _, _), .truncate(let path, _), .sync(let path),
            .syncDirectory(let path), .mkdir(let path), .unlink(let path):
            [path]
        case .rename(let from, let to), .link(let from, let to): [from, to]
        }
    }

    /// True for a sync: where a power loss is tried.
    var isSyncPoint: Bool {
        switch self {
        case .sync, .syncDirectory: true
        default: false
        }
    }

    /// A short description for failure reports: the kind and the path's last components.
    var summary: String {
        func short(_ path: String) -> String { path.split(separator: "/").suffix(2).joined(separator: "/") }
        return switch self {
        case .create(let path): "create \(short(path))"
        case .write(let path, let offset, let bytes): "write \(short(path)) @\(offset) (\(bytes.count) bytes)"
        case .truncate(let path, let size): "truncate \(short(path)) to \(size)"
        case .sync(let path): "fsync \(short(path))"
        case .syncDirectory(let path): "fsync directory \(short(path))"
        case .mkdir(let path): "mkdir \(short(path))"
        case .rename(let from, let to): "rename \(short(from)) → \(short(to))"
        case .link(let from, let to): "link \(short(from)) → \(short(to))"
        case .unlink(let path): "unlink \(short(path))"
        }
    }
}
