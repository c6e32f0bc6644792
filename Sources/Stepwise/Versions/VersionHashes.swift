import Foundation
import StepwiseModel

/// Each version's entity version hashes (``/StepwiseModel/ObjectModel/entityVersionHashes``),
/// worked out once per version and kept by ``ModelHistory``: every identification compares a
/// store's metadata with them, every verification and every launch's up-to-date test with the
/// target's, and hashing a model (its entities' and properties' encodings, SHA-256) costs as
/// much as the rest of a launch that finds nothing to do.
///
/// Kept by the version's name, and used only for the very model it was hashed from, as
/// ``VersionLayouts`` are.
///
/// `@unchecked Sendable`: `versions` is only read and written with `lock` held. `NSLock` rather
/// than `Mutex` (macOS 15) because the package supports macOS 13.
final class VersionHashes: @unchecked Sendable {
    private let lock = NSLock()
    private var versions: [String: (model: ObjectModel, hashes: [String: Data])] = [:]

    /// `version`'s entity hashes, keyed by entity name.
    func entityHashes(of version: ObjectModel) -> [String: Data] {
        // Copies of one model share their storage, so this comparison is quick when it holds.
        if let known = lock.withLock({ versions[version.name] }), known.model == version {
            return known.hashes
        }
        // Hashed outside the lock: two threads may both hash a version, and get the same hashes.
        let hashes = version.entityVersionHashes
        lock.withLock { versions[version.name] = (version, hashes) }
        return hashes
    }

    /// Whether a store whose metadata holds `hashes` was written by `version`: the same
    /// entities, with equal hashes (``/StepwiseModel/ObjectModel/isCompatible(withEntityHashes:)``).
    func isCompatible(_ version: ObjectModel, withEntityHashes hashes: [String: Data]) -> Bool {
        entityHashes(of: version) == hashes
    }
}
