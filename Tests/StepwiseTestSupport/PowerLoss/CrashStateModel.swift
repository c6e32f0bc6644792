import StepwiseMatrix
import StepwiseStore

/// The file system as a power loss sees it after a trace of ``FileEvent``s (ALICE's approach,
/// OSDI '14): each file's durable bytes and its changes not yet synced, and the directory
/// changes not yet made durable by a sync of every directory they touched.
///
/// ```swift
/// let model = CrashStateModel(root: "/s", initial: before, events: trace.prefix(k))
/// let dropped = model.state()                            // every unsynced change lost
/// var random = SplitMix64(seed: 7)
/// let torn = model.state(random: &random)                // some sectors and entries kept
/// ```
///
/// A change is durable only by an explicit sync: `fsync` of a file for its bytes and size, of
/// a directory for its entries (a new file's name is not durable by the file's own `fsync`,
/// as POSIX promises nothing more).
package struct CrashStateModel: Sendable {
    /// The folder the trace works in: it exists in every state.
    package let root: String
    private var durableBytes: [Int: [UInt8]] = [:]
    private var pending: [Int: [PendingChange]] = [:]
    private var initialNamespace: Namespace
    /// The namespace after every event: writes find their file by it.
    private var current: Namespace
    private var changes: [DirectoryChange] = []
    private var nextInode = 0

    /// Replays `events` over `initial` (every byte and entry of which is durable).
    package init(root: String, initial: CrashState, events: some Sequence<FileEvent>) {
        self.root = root
        var namespace = Namespace(directories: initial.directories.union([root]))
        for (path, bytes) in initial.files.sorted(by: { $0.key < $1.key }) {
            namespace.names[path] = nextInode
            durableBytes[nextInode] = bytes
            nextInode += 1
        }
        initialNamespace = namespace
        current = namespace
        for event in events { append(event) }
    }

    /// Whether any change is still pending: a power loss here has more than one outcome.
    package var hasPendingChanges: Bool {
        pending.values.contains { !$0.isEmpty } || changes.contains { !$0.isDurable }
    }

    /// Extends the trace by one event.
    package mutating func append(_ event: FileEvent) {
        switch event {
        case .create(let path):
            let inode = nextInode
            nextInode += 1
            durableBytes[inode] = []
            record(DirectoryChange(event: event, inode: inode, unsyncedParents: [DirectoryChange.parent(of: path)]))
        case .mkdir(let path), .unlink(let path):
            record(DirectoryChange(event: event, unsyncedParents: [DirectoryChange.parent(of: path)]))
        case .rename(let from, let to), .link(let from, let to):
            record(
                DirectoryChange(
                    event: event, unsyncedParents: [DirectoryChange.parent(of: from), DirectoryChange.parent(of: to)]))
        case .write(let path, let offset, let bytes):
            if let inode = current.names[path] {
                pending[inode, default: []].append(.write(offset: offset, bytes: bytes))
            }
        case .truncate(let path, let size):
            if let inode = current.names[path] { pending[inode, default: []].append(.truncate(size: size)) }
        case .sync(let path):
            guard let inode = current.names[path] else { return }
            durableBytes[inode] = content(of: inode, keeping: pending[inode] ?? [])
            pending[inode] = nil
        case .syncDirectory(let path):
            for index in changes.indices { changes[index].unsyncedParents.remove(path) }
        }
    }

    private mutating func record(_ change: DirectoryChange) {
        current.apply(change)
        changes.append(change)
    }

    private func content(of inode: Int, keeping kept: [PendingChange]) -> [UInt8] {
        kept.reduce(durableBytes[inode] ?? []) { $1.applied(to: $0) }
    }

    /// The state with every unsynced change lost: only durable bytes and entries.
    package func state() -> CrashState {
        namespace(keeping: { _ in false }).state(root: root) { durableBytes[$0] ?? [] }
    }

    /// The state with every change kept, synced or not: what a killed process leaves.
    package func stateKeepingEverything() -> CrashState {
        current.state(root: root) { content(of: $0, keeping: pending[$0] ?? []) }
    }

    /// A state drawn from `random`: for each file, a random share of its unsynced writes'
    /// 512-byte sectors land, in a random order (a later write may land where an earlier one
    /// did not); the unsynced directory changes either all land or a random subset does.
    package func state(random: inout SplitMix64) -> CrashState {
        var bytes: [Int: [UInt8]] = [:]
        for (inode, changes) in pending.sorted(by: { $0.key < $1.key }) {
            let share = random.next(below: 5)  // 0/4 … 4/4 of the sectors land
            var landed = changes.flatMap(\.sectors).filter { _ in random.chance(share, in: 4) }
            for index in landed.indices.reversed() where index > 0 {
                landed.swapAt(index, random.next(below: index + 1))
            }
            bytes[inode] = content(of: inode, keeping: landed)
        }
        let keepsAll = random.chance(1, in: 2)
        var keptChanges: Set<Int> = []
        for index in changes.indices where !changes[index].isDurable && (keepsAll || random.chance(1, in: 2)) {
            keptChanges.insert(index)
        }
        return namespace(keeping: { keptChanges.contains($0) }).state(root: root) {
            bytes[$0] ?? durableBytes[$0] ?? []
        }
    }

    /// The initial namespace with every durable change replayed, and those unsynced ones
    /// `keeps` says landed, in their order.
    private func namespace(keeping keeps: (Int) -> Bool) -> Namespace {
        var namespace = initialNamespace
        for (index, change) in changes.enumerated() where change.isDurable || keeps(index) {
            namespace.apply(change)
        }
        return namespace
    }
}
