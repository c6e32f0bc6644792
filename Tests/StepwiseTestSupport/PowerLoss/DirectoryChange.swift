import Foundation
import StepwiseStore

/// A change to directory entries (create, mkdir, rename, link, unlink), durable once every
/// directory it touched has been synced.
struct DirectoryChange: Sendable, Hashable {
    var event: FileEvent
    /// For a create: the new file's inode.
    var inode: Int?
    /// The directories not synced since: the change may be undone by a power loss while any is left.
    var unsyncedParents: Set<String>

    var isDurable: Bool { unsyncedParents.isEmpty }

    static func parent(of path: String) -> String {
        (path as NSString).deletingLastPathComponent
    }
}

/// Directory entries: which name holds which inode, and which directories exist.
struct Namespace: Sendable, Hashable {
    var names: [String: Int] = [:]
    var directories: Set<String> = []

    /// Applies `change`; one whose source is gone (its create was undone) is skipped, as it
    /// could never have reached the disk without it.
    mutating func apply(_ change: DirectoryChange) {
        switch change.event {
        case .create(let path):
            if let inode = change.inode { names[path] = inode }
        case .mkdir(let path):
            directories.insert(path)
        case .rename(let from, let to):
            if let inode = names.removeValue(forKey: from) {
                names[to] = inode
            } else if directories.contains(from) {
                directories.remove(from)
                directories.insert(to)
                let prefix = from + "/"
                for (name, inode) in names where name.hasPrefix(prefix) {
                    names[name] = nil
                    names[to + "/" + name.dropFirst(prefix.count)] = inode
                }
            }
        case .link(let from, let to):
            if let inode = names[from] { names[to] = inode }
        case .unlink(let path):
            names[path] = nil
            directories.remove(path)
        case .write, .truncate, .sync, .syncDirectory:
            break
        }
    }

    /// The state, with every name under a directory that doesn't exist dropped (its mkdir was
    /// undone) and each file's bytes from `content`. `root` always exists.
    func state(root: String, content: (Int) -> [UInt8]) -> CrashState {
        var surviving: Set<String> = [root]
        for directory in directories.sorted(by: { $0.count < $1.count })
        where surviving.contains(DirectoryChange.parent(of: directory)) {
            surviving.insert(directory)
        }
        var state = CrashState(directories: surviving)
        for (name, inode) in names where surviving.contains(DirectoryChange.parent(of: name)) {
            state.files[name] = content(inode)
        }
        return state
    }
}
