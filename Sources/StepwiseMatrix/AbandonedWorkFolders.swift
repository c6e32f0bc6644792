import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The matrix's work folders under the system's temporary directory, named after the process
/// that made them (`stepwise-matrix-p<pid>-<UUID>`), so that a later matrix removes those whose
/// process is gone: a matrix killed mid-run (a CI job cancelled, `kill -9`) can't remove its own.
///
/// A folder of a live process is left alone, whatever its age: two matrices may run at once.
/// A pid reused by an unrelated process keeps its folder until that process ends too, which
/// only delays the removal.
package enum AbandonedWorkFolders {
    /// The prefixes of the matrix's folders: the session's, then each pair's.
    package static let prefixes = ["stepwise-matrix", "stepwise-matrix-pair"]

    /// A new folder's name for `prefix`: the prefix, this process's id, a UUID.
    package static func name(prefix: String) -> String {
        "\(prefix)-p\(getpid())-\(UUID().uuidString)"
    }

    /// The process that made the folder `name` of `prefix`, or nil when the name isn't one of
    /// ``name(prefix:)``'s.
    package static func owner(of name: String, prefix: String) -> Int32? {
        guard name.hasPrefix(prefix + "-p") else { return nil }
        let digits = name.dropFirst(prefix.count + 2).prefix { $0.isNumber }
        guard !digits.isEmpty, name.dropFirst(prefix.count + 2 + digits.count).hasPrefix("-") else { return nil }
        return Int32(digits)
    }

    /// Whether the process `pid` exists: `kill(pid, 0)` succeeds, or fails only for lack of
    /// permission to signal it.
    package static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    /// Removes the folders of ``prefixes`` in `directory` (the system's temporary directory by
    /// default) whose process is gone. Returns how many it removed.
    @discardableResult
    package static func removeAbandoned(in directory: URL = FileManager.default.temporaryDirectory) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return 0 }
        var removed = 0
        for name in names {
            guard let pid = prefixes.lazy.compactMap({ owner(of: name, prefix: $0) }).first,
                pid != getpid(), !isRunning(pid)
            else { continue }
            if (try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))) != nil {
                removed += 1
            }
        }
        return removed
    }
}
