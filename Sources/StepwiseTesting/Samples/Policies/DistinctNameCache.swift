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
    func distinctObject(_ entity: String, named name: String, cacheKey: String) throws -> ObjectID {
        var cache = userInfo[cacheKey] as? [Data: ObjectID] ?? [:]
        let key = Data(name.utf8)
        if let found = cache[key] { return found }
        let made = try destination.insert(entity, ["name": name])
        cache[key] = made
        userInfo[cacheKey] = cache
        return made
    }
}
