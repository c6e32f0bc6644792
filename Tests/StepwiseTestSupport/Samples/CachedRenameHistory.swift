import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Four versions that rename one attribute a step at a time, and a store written by the second
/// as it shipped, before it was edited in place: the store's version is in no bundle, only in
/// its own model cache (`Z_MODELCACHE`). For the tests of lossless planning from a model cache
/// (issue 42). It is not one of the `Versions/` samples.
///
/// | Journal | Journal 2 as shipped (the cache) | Journal 2 now | Journal 3 | Journal 4 |
/// | --- | --- | --- | --- | --- |
/// | Entry(title, text) | Entry(title, body ← text) | + pinned | Entry(title, content ← body, pinned) | Entry(title, markdown ← content, pinned) |
///
/// Each renaming identifier names the version before, so the one inferred step from the cache
/// straight to Journal 4 can't follow `body` to `markdown` and drops it; the way through
/// Journal 2 keeps it.
package enum CachedRenameHistory {
    package static let v1 = ObjectModel("Journal") {
        Entity("Entry") {
            Attribute("title", .string).required()
            Attribute("text", .string)
        }
    }

    /// Journal 2 now: `pinned` was added in place after it shipped.
    package static let v2 = ObjectModel("Journal 2") {
        Entity("Entry") {
            Attribute("title", .string).required()
            Attribute("body", .string).renamed(from: "text")
            Attribute("pinned", .boolean)
        }
    }

    package static let v3 = ObjectModel("Journal 3") {
        Entity("Entry") {
            Attribute("title", .string).required()
            Attribute("content", .string).renamed(from: "body")
            Attribute("pinned", .boolean)
        }
    }

    package static let v4 = ObjectModel("Journal 4") {
        Entity("Entry") {
            Attribute("title", .string).required()
            Attribute("markdown", .string).renamed(from: "content")
            Attribute("pinned", .boolean)
        }
    }

    package static let history = VersionHistory([v1, v2, v3, v4])

    /// Journal 2 as it shipped, without `pinned`: the model in the store's cache, named as
    /// the registry names a cached model (`ModelCache.modelName(forStoreAt:)`).
    package static func cached(named name: String) -> ObjectModel {
        ObjectModel(name) {
            Entity("Entry") {
                Attribute("title", .string).required()
                Attribute("body", .string).renamed(from: "text")
            }
        }
    }

    /// Journal 2 as it shipped, edited both ways since: it had a `mood` that no version has
    /// now, and lacks `pinned`. Every path drops `mood`; only the step straight to the target
    /// drops `body` too.
    package static func cachedWithMood(named name: String) -> ObjectModel {
        ObjectModel(name) {
            Entity("Entry") {
                Attribute("title", .string).required()
                Attribute("body", .string).renamed(from: "text")
                Attribute("mood", .string)
            }
        }
    }

    /// The entries the seed writes: titles and bodies.
    package static let entries: [(title: String, body: String?)] = [
        ("Monday", "Rain all day."), ("Tuesday", nil), ("Wednesday", "Sun, then *rain*."),
    ]

    /// Writes a store at `url` as Journal 2 as shipped wrote it: `cached(named:)`'s tables and
    /// metadata, ``entries``, and the cached model in `Z_MODELCACHE`.
    ///
    /// - returns: The cached model, named after the store as the registry will name it.
    @discardableResult
    package static func seed(at url: URL) throws -> ObjectModel {
        let cache = cached(named: ModelCache.modelName(forStoreAt: url.path))
        try StoreCreator.createStore(at: url, model: cache)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { db in
            let objects = ObjectContext(db, layout: try StoreLayout(model: cache))
            for entry in entries {
                _ = try objects.insert("Entry", ["title": entry.title, "body": entry.body])
            }
            try ModelCacheArchive.write(cache, into: db)
        }
        return cache
    }
}
