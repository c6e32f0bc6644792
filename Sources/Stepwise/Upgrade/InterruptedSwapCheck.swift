import Foundation

/// Before recovery moves an interrupted swap forward, checks that the files the journal
/// names are where its state says they are.
///
/// Past the commit point recovery only moves forward, and its last act, the cleanup, deletes
/// the work directory (or turns `outgoing/` into the backup). That is safe only when the
/// journal's state and the files agree: a swap that goes on with a file missing can end with
/// "success" and the old main file at the store's path while the old `-wal` (its newest rows)
/// is deleted with `outgoing/`, or with no store at all. A power loss on a file system that
/// keeps the order of synced renames (``GenerationSwap``) never leaves such a state; a file
/// removed by hand, a restore from a partial backup or a faulty disk can. So what follows is
/// refused with ``UpgradeError/Kind/interruptedSwapMissingFile(state:missing:workDirectory:)``,
/// touching nothing, and every file stays where it is for a person to look at:
///
/// | Journal state | Must hold |
/// |---|---|
/// | `swappingOut` | the new store waits in `incoming/` |
/// | `swappingIn` | the new store waits in `incoming/`, and if the store's path holds a main file, its second name in `outgoing/` is there too (else the rename in would destroy the only copy of the old one); or the new store has moved in |
/// | `swapped` | a main file at the store's path, and none left waiting in `incoming/` |
///
/// "The new store has moved in" is proven, not assumed: the main file at the store's path is
/// the one the journal's `final` checkpoint recorded (same identity, same sampled SHA-256,
/// ``FileChecksum``). Where that holds, the store is the complete new one whatever else is
/// missing, and recovery finishes from `swappingIn`, skipping the move out (which would
/// otherwise take the new store for the old).
struct InterruptedSwapCheck {
    var files: StoreFiles
    var swap: GenerationSwap
    var fileSystem: FileSystem

    /// What recovery may do with the journal's state.
    enum Verdict: Equatable {
        /// The files are where the state says: go on from it.
        case proceed
        /// The new store is already at the store's path (proven by `final`): finish from
        /// `swappingIn` on, whatever state the journal saved.
        case newStoreInPlace
    }

    /// The verdict for `journal` (in a swap state), or the error that stops recovery.
    func check(_ journal: UpgradeJournal) throws -> Verdict {
        let storeMainFile = files.generation.mainFile
        let incomingWaiting = fileSystem.exists(swap.incomingFile(nil))
        let storeHasMainFile = fileSystem.exists(storeMainFile)
        switch journal.state {
        case .swappingOut:
            if incomingWaiting { return .proceed }
            if newStoreIsInPlace(journal) { return .newStoreInPlace }
            throw missing(swap.incomingFile(nil), journal)
        case .swappingIn:
            if incomingWaiting {
                // The rename in replaces the store's main file: it must have its second name.
                if storeHasMainFile && !fileSystem.exists(swap.outgoingFile(nil)) {
                    throw missing(swap.outgoingFile(nil), journal)
                }
                return .proceed
            }
            if newStoreIsInPlace(journal) { return .newStoreInPlace }
            throw missing(swap.incomingFile(nil), journal)
        case .swapped:
            // The cleanup deletes `incoming/`: a main file still there was never moved in.
            if incomingWaiting { throw missing(storeMainFile, journal) }
            if !storeHasMainFile { throw missing(storeMainFile, journal) }
            return .proceed
        case .copying, .running, .failed, .verified, .restoring:
            return .proceed
        }
    }

    /// Whether the store's main file is the incoming one, moved in. An upgrade's journal
    /// proves it by `final`. A rollback's has none (the backup was never checksummed): there
    /// the main file counts as moved in only in `swappingIn`, when it is another file than
    /// the old one, whose second name in `outgoing/` the move out made first.
    private func newStoreIsInPlace(_ journal: UpgradeJournal) -> Bool {
        let mainFile = files.generation.mainFile
        if let final = journal.final { return FileChecksum.verify(final, at: mainFile) }
        guard journal.state == .swappingIn, let inPlace = UpgradeJournal.FileIdentity(of: mainFile),
            let movedOut = UpgradeJournal.FileIdentity(of: swap.outgoingFile(nil))
        else { return false }
        return (inPlace.device, inPlace.inode) != (movedOut.device, movedOut.inode)
    }

    /// Not a ``UpgradeError/leftoverWorkDirectory``: that one is for discarding, and this
    /// work directory may hold the only copy of the data.
    private func missing(_ file: URL, _ journal: UpgradeJournal) -> UpgradeError {
        UpgradeError(
            .interruptedSwapMissingFile(
                state: journal.state.rawValue, missing: file, workDirectory: files.workDirectory),
            storePath: files.store.path)
    }
}
