import Foundation
import StepwiseMapping
import StepwiseStore

extension MigrationManager {
    /// The destination `entity` object whose `name` is `name`: the one made earlier in this
    /// step, or a new one. The sample policies use it to make one object per distinct name.
    ///
    /// The cache lives in ``MigrationManager/userInfo`` under `cacheKey` and grows with the
    /// number of distinct names, not of rows. It is keyed by the name's UTF-8 bytes, as SQLite
    /// compares text: Swift's `String` equality would merge canonically equivalent names
    /// ("Café" precomposed and decomposed), which the source stores as two different values.
    package func distinctObject(_ entity: String, named name: String, cacheKey: String) throws -> ObjectID {
        // A class, so that a row that finds its name neither copies the dictionary nor casts it.
        let cache: DistinctNames
        if let known = userInfo[cacheKey] as? DistinctNames {
            cache = known
        } else {
            cache = DistinctNames()
            userInfo[cacheKey] = cache
        }
        let key = UTF8Key(name)
        if let found = cache.objects[key] { return found }
        let made = try destination.insert(entity, ["name": name])
        cache.objects[key] = made
        return made
    }
}

/// The objects made so far by name, for ``MigrationManager/distinctObject(_:named:cacheKey:)``.
final class DistinctNames {
    var objects: [UTF8Key: ObjectID] = [:]
}

/// A string compared and hashed by its UTF-8 bytes (as SQLite compares text), without
/// copying them into a `Data` for every lookup.
struct UTF8Key: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: UTF8Key, rhs: UTF8Key) -> Bool {
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable {
            hasher.combine(bytes: UnsafeRawBufferPointer($0))
        }
        if hashed == nil {
            Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}
