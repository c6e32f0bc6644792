import Foundation
import StepwiseMapping
import StepwiseModel

/// The model bundle behind an ``Upgrader`` made from files, read as far as each call needs.
///
/// The up-to-date check at launch needs one version, the target: it is parsed when the
/// upgrader is made (so a broken current version is still refused there). Every other
/// version, and the mapping models (JSON files and `.xcmappingmodel` folders), are read the
/// first time an upgrade will run, or a caller reads ``Upgrader/history``,
/// ``Upgrader/mappings`` or ``Upgrader/planner``: once, then kept. Core Data does the same: it
/// loads a store's source model and mapping models only when the store needs a migration.
///
/// `@unchecked Sendable`: the caches below are only read and written with `lock` held, and
/// every other property is immutable. `NSLock` rather than `Mutex` (macOS 15) because the
/// package supports macOS 13.
final class LazyModelBundle: @unchecked Sendable {
    /// The bundle as the caller named it (mapping errors name paths beside it).
    let bundleURL: URL
    /// The mapping folder the caller gave, if any.
    let mappingsURL: URL?
    /// The versions by name, in history order, and the current one: no model file read.
    let listing: ModelBundleListing

    private let lock = NSLock()
    /// Versions parsed so far, by name.
    private var versions: [String: ObjectModel] = [:]
    /// The whole history, once read.
    private var history: VersionHistory?
    /// The mapping models, once read.
    private var mappings: [MappingDirectory.StepKey: [MappingModel]]?

    /// Lists the bundle and parses the target version: `target`, else the current one. A
    /// target the bundle doesn't have is left for the up-to-date check to report, as before.
    ///
    /// - throws: What ``ModelBundle/init(contentsOf:)`` throws for the listing (a missing or
    ///   empty bundle, an order that can't be told, an unknown current version), and for the
    ///   target version.
    init(bundleAt bundleURL: URL, mappingsAt mappingsURL: URL?, target: String?) throws {
        self.bundleURL = bundleURL
        self.mappingsURL = mappingsURL
        let listing = try ModelBundleListing(contentsOf: bundleURL)
        self.listing = listing
        let target = target ?? listing.currentName
        if listing.names.contains(target) {
            versions[target] = try listing.readVersion(named: target)
        }
    }

    /// The version `name`, parsed on first use.
    /// - throws: ``PlanningError`` with ``PlanningError/Kind/unknownVersion(_:available:)`` when
    ///   the bundle has no such version (as the whole history would); else the reader's errors.
    func version(named name: String) throws -> ObjectModel {
        lock.lock()
        defer { lock.unlock() }
        return try parsedVersion(named: name)
    }

    /// Every version, oldest first, parsed and validated on first use.
    func loadHistory() throws -> VersionHistory {
        lock.lock()
        defer { lock.unlock() }
        return try lockedHistory()
    }

    /// The mapping models of the bundle (``MappingDirectory/init(bundleAt:mappingsAt:history:)``
    /// against the whole history), read on first use.
    func loadMappings() throws -> [MappingDirectory.StepKey: [MappingModel]] {
        lock.lock()
        defer { lock.unlock() }
        if let mappings { return mappings }
        let loaded = try MappingDirectory(bundleAt: bundleURL, mappingsAt: mappingsURL, history: lockedHistory()).steps
        mappings = loaded
        return loaded
    }

    /// Call with `lock` held.
    private func lockedHistory() throws -> VersionHistory {
        if let history { return history }
        // The listing already checked the order and the current version; what is left is to
        // read each model file. A failure is not kept: the next call reads again.
        let loaded = VersionHistory(try listing.names.map(parsedVersion(named:)))
        history = loaded
        return loaded
    }

    /// Call with `lock` held.
    private func parsedVersion(named name: String) throws -> ObjectModel {
        if let model = versions[name] { return model }
        guard listing.names.contains(name) else {
            throw PlanningError(.unknownVersion(name, available: listing.names))
        }
        let model = try listing.readVersion(named: name)
        versions[name] = model
        return model
    }
}
