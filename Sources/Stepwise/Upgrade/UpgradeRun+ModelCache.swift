import Foundation
import StepwiseModel
import StepwiseStore

extension UpgradeRun {
    /// The file in the work directory that keeps the archive of the store's cached model, for
    /// a run that starts from it (``StoreIdentification/MatchKind/modelCache``).
    static let modelCacheFileName = "model-cache.archive"

    /// Keeps the inflated archive of the store's cached model in the work directory, before
    /// step 1 runs: a resumed run re-reads the model from it (``keptModelCache(named:)``), since
    /// step 1 may consume the copy it was read from. The original still holds it too (nothing
    /// touches the original before the swap), but reading that again would mean copying a store
    /// with a `-wal`. Synced with the journal that names it.
    func keepModelCache(readFrom input: URL, isOriginal: Bool) throws {
        let queue = try ReadOnlyStore.openQueue(at: input, immutable: isOriginal)
        defer { try? queue.close() }
        let path = files.store.path
        guard let archive = try queue.read({ db in try ModelCache.archive(in: db, path: path) }) else {
            throw StoreError(path: path, kind: .io("its model cache (Z_MODELCACHE) vanished while it was planned from"))
        }
        // Ordering: the cached model reaches the disk before the journal that relies on it.
        try fileSystem.writeNewFile(
            archive, to: workDirectory.appendingPathComponent(Self.modelCacheFileName), site: "model-cache.write",
            sync: .ordering)
    }

    /// The cached model a run journaled as starting from `name` kept in the work directory, or
    /// nil when `name` is not the store's cached model or the file can't be read (the run then
    /// starts over from the original, as for any checkpoint that doesn't verify).
    func keptModelCache(named name: String) -> ObjectModel? {
        guard name == ModelCache.modelName(forStoreAt: files.store.path),
            let archive = try? Data(contentsOf: workDirectory.appendingPathComponent(Self.modelCacheFileName))
        else { return nil }
        return try? ModelCache.model(fromArchive: archive, path: files.store.path)
    }
}
