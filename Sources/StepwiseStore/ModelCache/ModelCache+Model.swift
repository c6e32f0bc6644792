import Foundation
import GRDB
import StepwiseModel

extension ModelCache {
    /// The model in the store's cache, decoded and named ``modelName(forStoreAt:)``; nil when
    /// the store has no cache (see ``archive(in:path:limit:)``). Only reads.
    ///
    /// - parameters:
    ///   - db: The store, or a copy of it.
    ///   - path: The store's path, named in errors and in the model's name.
    ///   - limit: The most bytes the inflated archive may have (``defaultLimit``).
    /// - throws: ``StoreError``, or ``StoreError`` when SQLite can't read the table.
    package static func model(in db: Database, path: String, limit: Int = defaultLimit) throws -> ObjectModel? {
        guard let archive = try archive(in: db, path: path, limit: limit) else { return nil }
        return try model(fromArchive: archive, path: path)
    }

    /// The model an inflated cache holds, named ``modelName(forStoreAt:)``.
    ///
    /// - parameters:
    ///   - archive: The inflated `Z_CONTENT`: a keyed archive of an `NSManagedObjectModel`.
    ///   - path: The store's path, named in errors and in the model's name.
    /// - throws: ``StoreError/Kind/unreadableModel(_:)`` naming the store.
    package static func model(fromArchive archive: Data, path: String) throws(StoreError) -> ObjectModel {
        do {
            return try CompiledModel.read(
                archive: archive, name: modelName(forStoreAt: path), origin: "\(path) (Z_MODELCACHE)")
        } catch {
            throw StoreError(path: path, kind: .unreadableModel(ErrorText.describe(error)))
        }
    }
}
