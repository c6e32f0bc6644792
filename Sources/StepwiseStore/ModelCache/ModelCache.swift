import Foundation
import GRDB
import StepwiseModel

/// The model every Core Data store carries: `Z_MODELCACHE`, one row whose `Z_CONTENT` is
/// the model that last wrote the store, archived as a compiled `.mom` is (an `NSKeyedArchiver`
/// binary property list) and compressed as raw deflate (zlib with no header).
///
/// Core Data writes the cache whenever it creates or migrates a store, and reads it to migrate
/// a store whose version the app no longer ships: the cached model is the source, and the
/// mapping to the current model is inferred. Stepwise reads it the same way, and only reads it:
/// an upgrade drops the table (its model is the old one) and never writes a new one.
///
/// Evidence, every store of the corpus: Notes, Photos (macOS 10.15, 13 and 15), Screen Time,
/// knowledgeC, SwiftData and Core Data stores each have one row, 1 KB to 170 KB of deflate that
/// inflates to 1.7 KB to 350 KB of `bplist00`. Apptentive's stores from before iOS 7 have no
/// table; a store Stepwise created has none either (``StoreLayout`` never creates it).
///
/// ```swift
/// let model = try dbQueue.read { db in try ModelCache.model(in: db, path: storePath) }
/// model?.entities.map(\.name)
/// ```
package enum ModelCache {
    /// The most bytes an inflated cache may have: 64 MB, two hundred times Photos' model.
    package static let defaultLimit = 64 * 1024 * 1024

    /// The name a cached model goes by: `"App.sqlite's model cache"`. It names the store, so it
    /// is never the name of a version in a bundle, and is the same on every read of the store.
    ///
    /// - parameter path: The store's path; only its last component is used.
    package static func modelName(forStoreAt path: String) -> String {
        "\(URL(fileURLWithPath: path).lastPathComponent)'s model cache"
    }

    /// The model archive in the store open in `db`, inflated; nil when the store has no
    /// `Z_MODELCACHE` table, no row, or only an empty or NULL `Z_CONTENT`. Only reads.
    ///
    /// - parameters:
    ///   - db: The store, or a copy of it.
    ///   - path: The store's path, named in errors.
    ///   - limit: The most bytes the inflated archive may have (``defaultLimit``).
    /// - throws: ``StoreError`` for content that isn't raw deflate, is cut off or inflates
    ///   past `limit`; ``StoreError`` when SQLite can't read the table.
    package static func archive(in db: Database, path: String, limit: Int = defaultLimit) throws -> Data? {
        guard let content = try content(in: db, path: path) else { return nil }
        return try archive(fromContent: content, path: path, limit: limit)
    }

    /// The model archive in `content`, a `Z_CONTENT` value: its bytes inflated.
    ///
    /// - parameters:
    ///   - content: Raw deflate.
    ///   - path: The store's path, named in errors.
    ///   - limit: The most bytes the inflated archive may have (``defaultLimit``).
    /// - throws: ``StoreError``.
    package static func archive(fromContent content: Data, path: String, limit: Int = defaultLimit)
        throws(StoreError) -> Data
    {
        do {
            return try RawDeflate.inflate(content, limit: limit)
        } catch {
            switch error {
            case .malformed(let reason): throw StoreError(path: path, kind: .notDeflate(reason))
            case .truncated: throw StoreError(path: path, kind: .modelCacheTruncated)
            case .tooLarge(let limit): throw StoreError(path: path, kind: .tooLarge(limit: limit))
            }
        }
    }

    /// The raw `Z_CONTENT` of the store's cache, nil when there is none.
    ///
    /// - parameters:
    ///   - db: The store, or a copy of it.
    ///   - path: The store's path, named in errors.
    /// - throws: ``StoreError`` when SQLite can't read the table.
    package static func content(in db: Database, path: String) throws -> Data? {
        do {
            guard try db.tableExists(StoreLayout.modelCacheTableName) else { return nil }
            // Core Data writes one row; a NULL or empty one is no cache.
            let sql = """
                SELECT \("Z_CONTENT".quotedSQLIdentifier) FROM \(StoreLayout.modelCacheTableName.quotedSQLIdentifier) \
                WHERE length(\("Z_CONTENT".quotedSQLIdentifier)) > 0 LIMIT 1
                """
            return try Data.fetchOne(db, sql: sql)
        } catch {
            throw StoreError(path: path, wrapping: error)
        }
    }
}
