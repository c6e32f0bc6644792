import Foundation
import StepwiseStore

/// The disk an upgrade needs before it starts, from the store's file sizes: the copy of the
/// store and one step's output (the previous step's output is deleted as soon as the next one
/// is journaled), plus a margin.
///
/// A pure value, so that its arithmetic is tested on every platform; what the volume offers
/// comes from ``VolumeSpace``.
///
/// **A clone is not a copy.** On APFS the copy is a clone (`FileCopy`, `clonefile`): it shares
/// the original's blocks, so the main file costs nothing. What the run then writes into it
/// does: folding the `-wal` into the copy (or rolling a hot `-journal` back) rewrites at most
/// that many bytes of pages, so a clone is counted at the size of those companions. Counting
/// the main file twice would refuse an upgrade on a nearly full phone that has room for it.
///
/// A step's output is counted at the store's size either way: a rebuilt store is written
/// anew. A later step of a long plan can still need a second store's worth (two step outputs
/// exist while the second is written); if the disk fills then, the step fails, and the
/// original is untouched, like any failed step.
struct UpgradeSpaceEstimate: Equatable {
    /// The store's main file.
    var mainFileBytes: Int64
    /// Its `-wal` and `-journal`: what a clone's checkpoint may rewrite.
    var companionBytes: Int64
    /// Whether copying the store clones it (``VolumeSpace/clonesFiles(at:)``).
    var copyIsClone: Bool

    /// Room for SQLite's temporary files and the journal.
    static let marginBytes: Int64 = 1_000_000

    /// What copying the store costs: its data files, or only its companions when cloned.
    var copyBytes: Int64 {
        copyIsClone ? companionBytes : mainFileBytes + companionBytes
    }

    /// What one step's output costs: a store the size of the original.
    var stepOutputBytes: Int64 {
        mainFileBytes + companionBytes
    }

    /// The bytes the volume must have free before the upgrade starts.
    var neededBytes: Int64 {
        copyBytes + stepOutputBytes + Self.marginBytes
    }
}

extension UpgradeSpaceEstimate {
    /// The estimate for `generation`, a store in `directory`.
    init(_ generation: StoreGeneration, in directory: URL, fileSystem: FileSystem) {
        let main = fileSystem.size(of: generation.mainFile)
        self.init(
            mainFileBytes: main, companionBytes: generation.dataBytes(fileSystem: fileSystem) - main,
            copyIsClone: VolumeSpace.clonesFiles(at: directory))
    }
}
