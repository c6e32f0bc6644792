import Foundation

/// Replaces one generation of a store's files (main file, `-wal`, `-shm`, `-journal`) with
/// another, so that a crash at any point is recoverable and a main file never sits beside a
/// `-wal` or `-shm` of another generation (SQLite would replay the stale WAL into it).
///
/// The incoming generation waits in `<work>/incoming/`, named like the store; the outgoing
/// one is moved to `<work>/outgoing/`. Both directories are beside the store, on its file
/// system, so every move is a `rename`: atomic, no bytes copied, no partial files.
///
/// ## The order, and why
///
/// The caller has already made the incoming files durable (synced, and their directory
/// synced) and saved the journal in state `swappingOut`: that save is the commit point.
/// Then:
///
/// 1. **Out**: the store's main file gets a second name, `outgoing/<name>` (a hard link), so
///    its bytes are kept for the backup while it stays in place; then its `-shm`, `-wal` and
///    `-journal` are renamed into `outgoing/`. The store's path thus always holds a main file,
///    and never a companion of another generation. Meanwhile an old main file whose rows were
///    partly in its `-wal` shows an older, consistent snapshot until step 3. (Where the file
///    system has no hard links, the main file is renamed out last instead.) Then the store's
///    directory and `outgoing/` are synced, so the new names are durable.
/// 2. The journal is saved in state `swappingIn` (synced).
/// 3. **In**: first any companion found at the store's path (some other process opened the
///    store meanwhile) is moved out, so it can't meet the new main file; then
///    `incoming/<name>` is renamed over the store's main file: one atomic `rename`, after
///    which the path holds the new store. Then its companions, if any (an upgrade's output
///    has none; a restored backup may). Then the store's directory is synced.
/// 4. The journal is saved in state `swapped`; the caller keeps or deletes `outgoing/`.
///
/// Each phase moves only the files still where the phase starts, so replaying a phase after
/// a crash finishes it: recovery replays from the journal's state. Before step 3 the store's
/// path holds the old main file, after it the new one; the journal says which way is forward.
struct GenerationSwap {
    var files: StoreFiles
    var workDirectory: URL
    var fileSystem: FileSystem

    var incoming: URL { workDirectory.appendingPathComponent("incoming", isDirectory: true) }
    var outgoing: URL { workDirectory.appendingPathComponent("outgoing", isDirectory: true) }

    /// The generation waiting in `incoming/`, named like the store.
    var incomingGeneration: StoreGeneration {
        StoreGeneration(mainFile: incoming.appendingPathComponent(files.name))
    }

    /// The generation moved out to `outgoing/`, named like the store.
    var outgoingGeneration: StoreGeneration {
        StoreGeneration(mainFile: outgoing.appendingPathComponent(files.name))
    }

    func incomingFile(_ companion: StoreGeneration.Companion?) -> URL {
        incomingGeneration.file(companion)
    }

    func outgoingFile(_ companion: StoreGeneration.Companion?) -> URL {
        outgoingGeneration.file(companion)
    }

    /// Whether the incoming main file is still waiting (the swap hasn't finished moving in).
    var incomingMainFileIsWaiting: Bool { fileSystem.exists(incomingFile(nil)) }

    /// Phase 1: the store's current generation into `outgoing/`, its main file by a second
    /// name so the store's path is never empty. Companions go in
    /// ``StoreGeneration/outgoingOrder``, which says why.
    func moveOut() throws {
        let store = files.generation
        if !fileSystem.exists(outgoing) {
            try fileSystem.createDirectory(outgoing, site: "swap.out.mkdir")
            // `outgoing/`'s own entry must be durable before anything moves into it: a power
            // loss that kept the store directory's side of the -wal's rename but not the
            // work directory's new entry would leave the -wal in a directory that is gone
            // (found by Scripts/power-loss).
            try fileSystem.sync(workDirectory, .ordering, site: "swap.out.sync-work-directory")
        }
        var mainFileLinked = fileSystem.exists(outgoingFile(nil))
        if !mainFileLinked, fileSystem.exists(store.mainFile) {
            mainFileLinked = try fileSystem.hardLink(store.mainFile, to: outgoingFile(nil), site: "swap.out.link")
        }
        for companion in StoreGeneration.outgoingOrder where !(companion == nil && mainFileLinked) {
            guard fileSystem.exists(store.file(companion)) else { continue }
            try fileSystem.rename(
                store.file(companion), to: outgoingFile(companion),
                site: "swap.out.rename\(StoreGeneration.suffix(companion))")
        }
        // Ordering: the renames out reach the disk before the journal's `swappingIn`.
        try fileSystem.sync(files.directory, .ordering, site: "swap.out.sync-store-directory")
        try fileSystem.sync(outgoing, .ordering, site: "swap.out.sync-outgoing")
    }

    /// Phase 3: the incoming generation into the store's place, in
    /// ``StoreGeneration/incomingOrder``.
    func moveIn() throws {
        let store = files.generation
        if incomingMainFileIsWaiting {
            // A companion at the store's path now belongs to no generation we know: out with
            // it. (Once the new main file is in, companions at the path are its own.)
            for companion in StoreGeneration.outgoingOrder
            where companion != nil && fileSystem.exists(store.file(companion)) {
                try fileSystem.rename(
                    store.file(companion), to: outgoingFile(companion),
                    site: "swap.in.stray\(StoreGeneration.suffix(companion))")
                try fileSystem.sync(outgoing, .ordering, site: "swap.in.stray-sync-outgoing")
            }
        }
        for companion in StoreGeneration.incomingOrder where fileSystem.exists(incomingFile(companion)) {
            try fileSystem.rename(
                incomingFile(companion), to: store.file(companion),
                site: "swap.in.rename\(StoreGeneration.suffix(companion))")
        }
        // Ordering: both directories of each rename, before the journal says `swapped`: with only the
        // store directory synced a power loss may undo the new main file's rename, and the
        // cleanup that `swapped` allows would then leave the old main file without its -wal
        // (found by Scripts/power-loss).
        try fileSystem.sync(files.directory, .ordering, site: "swap.in.sync-store-directory")
        try fileSystem.sync(incoming, .ordering, site: "swap.in.sync-incoming")
    }

    /// Undoes phase 1 when the incoming generation turns out to be unusable during recovery
    /// (before its main file moved in): the outgoing files go back, main file first
    /// (``StoreGeneration/incomingOrder``). (A main file that was only linked is still in
    /// place: renaming a link onto its twin is a no-op.)
    func moveOutgoingBack() throws {
        let store = files.generation
        for companion in StoreGeneration.incomingOrder where fileSystem.exists(outgoingFile(companion)) {
            try fileSystem.rename(
                outgoingFile(companion), to: store.file(companion),
                site: "swap.back.rename\(StoreGeneration.suffix(companion))")
        }
        // Ordering: both directories of the renames, before the work directory is removed.
        try fileSystem.sync(files.directory, .ordering, site: "swap.back.sync-store-directory")
        if fileSystem.exists(outgoing) { try fileSystem.sync(outgoing, .ordering, site: "swap.back.sync-outgoing") }
    }
}
