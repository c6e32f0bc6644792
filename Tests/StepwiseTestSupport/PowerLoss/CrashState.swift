import Foundation

/// What a folder holds after a power loss: every file's bytes and every directory, by
/// absolute path. ``CrashStateModel`` builds them; `Scripts/power-loss` writes them to disk.
package struct CrashState: Sendable, Hashable {
    /// Each file's bytes, by absolute path.
    package var files: [String: [UInt8]]
    /// Each directory, by absolute path (the root folder included).
    package var directories: Set<String>

    package init(files: [String: [UInt8]] = [:], directories: Set<String> = []) {
        self.files = files
        self.directories = directories
    }

    /// The files and directories under `root` as they are now (the state before a trace).
    package static func reading(_ root: URL) throws -> CrashState {
        var state = CrashState(directories: [root.path])
        let children = try FileManager.default.contentsOfDirectory(atPath: root.path)
        for child in children {
            let url = root.appendingPathComponent(child)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                let inner = try reading(url)
                state.files.merge(inner.files) { $1 }
                state.directories.formUnion(inner.directories)
            } else {
                state.files[url.path] = [UInt8](try Data(contentsOf: url))
            }
        }
        return state
    }

    /// Replaces whatever is at `root` with this state: the folder wiped, then every directory
    /// and file written, at the same absolute paths the trace named (a journal may hold them).
    package func write(at root: URL) throws {
        try? FileManager.default.removeItem(at: root)
        for directory in directories.sorted(by: { $0.count < $1.count }) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        for (path, bytes) in files {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
    }
}
