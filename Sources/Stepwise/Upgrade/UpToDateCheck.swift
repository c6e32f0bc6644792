import Foundation
import StepwiseModel
import StepwiseStore

/// The cheap "is the store at the target?": its main file's metadata hashes
/// (``StoreMetadata/readFromMainFile(at:)``, one immutable read: no lock, no file created), and
/// no earlier run waiting to be finished. The one home of that test; it is asked at most twice
/// per upgrade:
///
/// - **Before the lock**, once: by the launch call (``Upgrader/upgradeIfNeeded(storeAt:bundleAt:mappingsAt:policies:stages:options:)``,
///   from the target version's model alone), or else by ``Upgrader/perform(_:cancellation:knownNotAtTarget:)``.
///   "Yes" ends the call. "No" is only a hint: the launch call hands it on rather than asking again.
/// - **Under the lock**, where it decides (`UpgradeRun.start()`): another process may have
///   finished the upgrade while this one waited. Identification then has the last word: a
///   store matched by its tables, or whose `-wal` holds a newer migration than its main file,
///   is at the target too (``PreparedUpgrade/isUpToDate``).
enum UpToDateCheck {
    /// Whether the main file's metadata holds entity hashes that `matching` accepts, with no
    /// earlier run's work directory beside the store.
    static func isAtVersion(_ files: StoreFiles, fileSystem: FileSystem, matching: ([String: Data]) -> Bool) -> Bool {
        // A work directory may hold an interrupted swap or checkpoints: recovery must see it.
        guard !fileSystem.exists(files.workDirectory),
            let metadata = StoreMetadata.readFromMainFile(at: files.store)
        else { return false }
        return matching(metadata.versionHashes)
    }

    /// ``isAtVersion(_:fileSystem:matching:)`` for `target`, a version of `history`.
    /// - throws: ``UpgradeError`` when `history` has no version named `target`.
    static func isAtTarget(_ files: StoreFiles, target: String, history: ModelHistory, fileSystem: FileSystem) throws
        -> Bool
    {
        guard let version = history.versions.version(named: target) else {
            throw UpgradeError(.unknownVersion(target, available: history.versions.names))
        }
        return isAtVersion(files, fileSystem: fileSystem) { history.hashes.isCompatible(version, withEntityHashes: $0) }
    }
}
