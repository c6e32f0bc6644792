import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Every file, folder and symbolic link under a folder, with each file's bytes: what a
/// bad-input case compares before and after an entry point runs.
///
/// Symbolic links are recorded, never followed (a case may hold a link loop). A file that
/// can't be read (a case made it unreadable) is recorded by size and modification time.
struct FileTree: Equatable, CustomStringConvertible {
    enum Entry: Equatable, CustomStringConvertible {
        case file(Data)
        case unreadableFile(size: Int64, modified: Date?)
        case directory
        case symbolicLink(to: String)
        case other

        var description: String {
            switch self {
            case .file(let data): "\(data.count) bytes"
            case .unreadableFile(let size, _): "\(size) bytes, unreadable"
            case .directory: "folder"
            case .symbolicLink(let target): "link to \(target)"
            case .other: "special file"
            }
        }
    }

    /// Relative path → entry.
    var entries: [String: Entry]

    init(entries: [String: Entry]) {
        self.entries = entries
    }

    init(of root: URL) {
        var entries: [String: Entry] = [:]
        func visit(_ url: URL, relative: String) {
            let children = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            for name in children {
                let child = url.appendingPathComponent(name)
                let path = relative.isEmpty ? name : "\(relative)/\(name)"
                var status = stat()
                guard lstat(child.path, &status) == 0 else { continue }
                switch status.st_mode & S_IFMT {
                case S_IFDIR:
                    entries[path] = .directory
                    visit(child, relative: path)
                case S_IFLNK:
                    entries[path] = .symbolicLink(
                        to: (try? FileManager.default.destinationOfSymbolicLink(atPath: child.path)) ?? "?")
                case S_IFREG:
                    if let data = try? Data(contentsOf: child) {
                        entries[path] = .file(data)
                    } else {
                        let attributes = try? FileManager.default.attributesOfItem(atPath: child.path)
                        entries[path] = .unreadableFile(
                            size: Int64(status.st_size), modified: attributes?[.modificationDate] as? Date)
                    }
                default:
                    entries[path] = .other
                }
            }
        }
        visit(root, relative: "")
        self.entries = entries
    }

    /// The entries whose path passes `isIncluded`.
    func filter(_ isIncluded: (String) -> Bool) -> FileTree {
        FileTree(entries: entries.filter { isIncluded($0.key) })
    }

    /// What changed from `before` to this tree, one line per path, for failure messages.
    func changes(since before: FileTree) -> [String] {
        Set(before.entries.keys).union(entries.keys).sorted().compactMap { path in
            switch (before.entries[path], entries[path]) {
            case (nil, let now?): "added \(path) (\(now))"
            case (let was?, nil): "removed \(path) (\(was))"
            case (let was?, let now?) where was != now: "changed \(path) (\(was) → \(now))"
            default: nil
            }
        }
    }

    var description: String {
        entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "\n")
    }
}
