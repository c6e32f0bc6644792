import Foundation
import StepwiseMapping
import StepwiseModel

/// The model bundle behind an ``Upgrader`` made from files, read as far as each call needs.
///
/// The up-to-date check at launch needs one version, the target: its name comes from
/// `.xccurrentversion` (or the options), and it is parsed when the upgrader is made, so a
/// broken current version is still refused there. Listing the bundle, ordering its versions,
/// reading every other version and the mapping models (JSON files and `.xcmappingmodel`
/// folders) happen the first time an upgrade will run, or a caller reads
/// ``Upgrader/history``, ``Upgrader/mappings`` or ``Upgrader/planner``: once, then kept.
/// Core Data does the same: it loads a store's source model and mapping models only when the
/// store needs a migration.
///
/// `@unchecked Sendable`: the caches below are only read and written with `lock` held, and
/// every other property is immutable. `NSLock` rather than `Mutex` (macOS 15) because the
/// package supports macOS 13.
final class LazyModelBundle: @unchecked Sendable {
    /// The bundle as the caller named it (mapping errors name paths beside it).
    let bundleURL: URL
    /// The bundle, standardized and known to be a model folder.
    let url: URL
    /// The mapping folder the caller gave, if any.
    let mappingsURL: URL?
    /// The version upgrades go to unless the options name another: the current one.
    let currentName: String

    private let lock = NSLock()
    /// Versions parsed so far, by name.
    private var versions: [String: ObjectModel] = [:]
    /// The bundle's versions by name, in history order, once listed.
    private var listing: ModelBundleListing?
    /// The whole history, once read.
    private var history: VersionHistory?
    /// The mapping models, once read.
    private var mappings: [MappingDirectory.StepKey: [MappingModel]]?
    /// The shipped records, once read.
    private var shipped: [ShippedVersion]?
    /// The shipped models of versions edited since, once worked out.
    private var asShipped: [ObjectModel]?

    /// Finds the current version and parses the target: `target`, else the current version.
    /// A `target` the bundle doesn't have is left for the up-to-date check to report, as before.
    ///
    /// When `.xccurrentversion` names a version folder that exists, that is the current
    /// version, as a listing would find it, and the bundle isn't listed. Otherwise the listing
    /// decides: it finds the newest version, or throws what ``ModelBundle/init(contentsOf:)``
    /// throws (an empty bundle, an order that can't be told, an unknown current version).
    /// - throws: Those errors, and the target version's reading and validation errors.
    init(bundleAt bundleURL: URL, mappingsAt mappingsURL: URL?, target: String?) throws {
        self.bundleURL = bundleURL
        self.mappingsURL = mappingsURL
        let url = try ModelBundleListing.modelURL(bundleURL)
        self.url = url
        // Safe without the listing: the declared version's folder exists, so the listing
        // would take the same current version (and a bundle with a version is not empty).
        // Anything else, the listing decides, with the error it has always thrown.
        if let declared = ModelBundleListing.declaredCurrentName(inBundleAt: url),
            ModelBundleListing.hasVersionFolder(named: declared, inBundleAt: url)
        {
            currentName = declared
        } else {
            let listing = try ModelBundleListing(contentsOf: url)
            self.listing = listing
            currentName = listing.currentName
        }
        let targetName = target ?? currentName
        if let model = try ModelBundleListing.readVersion(named: targetName, inBundleAt: url) {
            versions[targetName] = model
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

    /// The newest version's name, from the listing; nil when the bundle can't be listed.
    var newestName: String? {
        lock.lock()
        defer { lock.unlock() }
        return (try? lockedListing())?.names.last
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
        // The versions as shipped are in the history mappings are read against, so a mapping
        // may name the step from "Recipes 2 (as shipped)" to "Recipes 2".
        let history = VersionHistory(try lockedHistory().versions + lockedAsShipped())
        let loaded = try MappingDirectory(bundleAt: bundleURL, mappingsAt: mappingsURL, history: history).steps
        mappings = loaded
        return loaded
    }

    /// The bundle's shipped records (``/StepwiseModel/ShippedRecords/load(forBundleAt:)``), read on first use.
    func loadShipped() throws -> [ShippedVersion] {
        lock.lock()
        defer { lock.unlock() }
        return try lockedShipped()
    }

    /// The shipped models of the bundle's versions edited since they shipped
    /// (``/StepwiseModel/ShippedVersion/asShippedVersions(_:in:)``), worked out on first use.
    func loadAsShipped() throws -> [ObjectModel] {
        lock.lock()
        defer { lock.unlock() }
        return try lockedAsShipped()
    }

    /// Call with `lock` held.
    private func lockedShipped() throws -> [ShippedVersion] {
        if let shipped { return shipped }
        let loaded = try ShippedRecords.load(forBundleAt: url)
        shipped = loaded
        return loaded
    }

    /// Call with `lock` held.
    private func lockedAsShipped() throws -> [ObjectModel] {
        if let asShipped { return asShipped }
        // `ShippedRecords.read(_:)` has read each record's model once already, naming its file.
        let loaded = try ShippedVersion.asShippedVersions(lockedShipped(), in: lockedHistory())
        asShipped = loaded
        return loaded
    }

    /// Call with `lock` held. A failure is not kept: the next call lists again.
    private func lockedListing() throws -> ModelBundleListing {
        if let listing { return listing }
        let listed = try ModelBundleListing(contentsOf: url)
        listing = listed
        return listed
    }

    /// Call with `lock` held.
    private func lockedHistory() throws -> VersionHistory {
        if let history { return history }
        // The listing checks the order and the current version; what is left is to read each
        // model file. A failure is not kept: the next call reads again.
        let loaded = VersionHistory(try lockedListing().names.map(parsedVersion(named:)))
        history = loaded
        return loaded
    }

    /// Call with `lock` held.
    private func parsedVersion(named name: String) throws -> ObjectModel {
        if let model = versions[name] { return model }
        // A version folder that exists is one the listing has: read it without listing.
        if listing == nil, let model = try ModelBundleListing.readVersion(named: name, inBundleAt: url) {
            versions[name] = model
            return model
        }
        let listing = try lockedListing()
        guard listing.names.contains(name) else {
            throw PlanningError(.unknownVersion(name, available: listing.names))
        }
        let model = try listing.readVersion(named: name)
        versions[name] = model
        return model
    }
}
