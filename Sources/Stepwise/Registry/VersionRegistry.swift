import Foundation
import GRDB
import Logging
import StepwiseModel
import StepwiseStore

/// Answers the first question of every upgrade: *which model version wrote this store?*
///
/// 1. **By hash.** The store's `NSStoreModelVersionHashes` are compared with each version's
///    entity hashes, as Core Data does. A hash match is then checked against the store's
///    tables: if they are another version's, the store is flagged *inconsistent* (a
///    half-finished migration, for example) and never treated as either version. Versions
///    with identical hashes are interchangeable for their stores, as in Core Data; among them
///    the one the metadata names in `NSStoreModelVersionIdentifiers` is taken, else the newest.
/// 2. **By shipped record.** When no version's hashes match but those of a version as it
///    shipped do (``shipped``: a version recorded by `stepwise ship` and edited since), the
///    store is that version *as shipped*, `"Recipes 2 (as shipped)"`, once its tables agree.
/// 3. **By schema.** When no version's hashes match (a model edited after the store was
///    written, or metadata from an unusual writer), the store's tables and columns are
///    compared with each version's generated schema.
/// 4. **By the store's model cache.** When nothing above matches and the store is not newer
///    than every known version, the model in the store's own `Z_MODELCACHE`
///    (``/StepwiseStore/ModelCache``) is its version, named `"App.sqlite's model cache"`, if its
///    hashes are the metadata's and the tables agree: Core Data's own fallback for a store whose
///    version the app no longer ships. A cache that doesn't match is never used.
/// 5. Otherwise the store is newer than every known version, or matches none; the error
///    names the closest version and what differs, and why the cache wasn't used.
///
/// Indexes are not compared: adding an index changes neither hashes nor compatibility.
///
/// ```swift
/// let registry = VersionRegistry(history: try ModelBundle(contentsOf: bundleURL).history)
/// let identification = try registry.identify(storeAt: storeURL)
/// print(identification.version?.name ?? "inconsistent")
/// ```
package struct VersionRegistry: Sendable {
    /// The known versions, oldest first.
    package var history: VersionHistory
    /// The shipped models of versions edited since they shipped, each named
    /// `"<Version> (as shipped)"`: ``/StepwiseModel/ShippedVersion/asShippedVersions(_:in:)``.
    package var shipped: [ObjectModel]
    /// Where the registry reports how it matched. Silent unless you pass your own.
    package var logger: Logger
    /// The schema each version's layout expects, worked out once per version: kept by the
    /// ``ModelHistory`` a registry is made from, else by this registry and its copies.
    let layouts: VersionLayouts
    /// Each version's entity hashes, worked out once, kept like ``layouts``.
    let hashes: VersionHashes

    /// - parameters:
    ///   - history: The known versions, oldest first.
    ///   - shipped: The shipped models of versions edited since they shipped
    ///     (``/StepwiseModel/ShippedVersion/asShippedVersions(_:in:)``); none by default.
    ///   - logger: Receives a debug line per identification; the default discards everything,
    ///     because a library must not print.
    package init(history: VersionHistory, shipped: [ObjectModel] = [], logger: Logger = SilentLogger.logger) {
        self.init(
            history: history, shipped: shipped, logger: logger, layouts: VersionLayouts(), hashes: VersionHashes())
    }

    /// A registry that keeps its versions' layouts in `layouts`, shared with the other
    /// registries made from one ``ModelHistory``.
    init(
        history: VersionHistory, shipped: [ObjectModel], logger: Logger, layouts: VersionLayouts, hashes: VersionHashes
    ) {
        self.history = history
        self.shipped = shipped
        self.logger = logger
        self.layouts = layouts
        self.hashes = hashes
    }

    /// Identifies the store at `url` by reading a private copy, so the original, its
    /// `-wal` and its `-shm` stay byte-identical.
    package func identify(storeAt url: URL) throws -> StoreIdentification {
        let snapshot = try StoreSnapshot(of: url)
        defer { snapshot.close() }
        do {
            return try snapshot.database.read { db in try identify(db, path: url.path) }
        } catch let error as UpgradeError {
            throw error
        } catch {
            throw StoreError(path: url.path, wrapping: error)
        }
    }

    /// Identifies the store open in `db`. `path` is named in errors.
    package func identify(_ db: Database, path: String) throws -> StoreIdentification {
        guard let latest = history.latest else { throw UpgradeError(path: path, kind: .emptyHistory) }
        let metadata = try StoreMetadata.read(from: db, path: path)
        let actual = try SQLiteSchema.read(from: db)
        func candidate(_ version: ObjectModel) throws -> Candidate {
            Candidate(
                version: version,
                differences: try layouts.tableDifferences(of: actual, from: version, release: metadata.release))
        }
        // Only hash matches are laid out first: with a long history (Wire's 90 versions) laying
        // out every version is most of an identification's time, and a hash match settles it.
        let hashMatches = try history.versions
            .filter { hashes.isCompatible($0, withEntityHashes: metadata.versionHashes) }
            .map(candidate)
        var notes: [String] = []

        if let hashMatch = hashMatches.last {
            // Prefer a hash match whose tables also agree; among ties the version the metadata
            // names, else the newest.
            let consistent = hashMatches.filter(\.differences.isEmpty)
            let named = consistent.last { Self.names($0.version, identifiers: metadata.versionIdentifiers) }
            if hashMatches.count > 1 {
                let names = hashMatches.map { "'\($0.version.name)'" }.joined(separator: ", ")
                let choice =
                    named.map { "the store's NSStoreModelVersionIdentifiers name '\($0.version.name)'" }
                    ?? "took the newest"
                notes.append("versions \(names) have identical hashes, so their stores are interchangeable; \(choice)")
            }
            if let match = named ?? consistent.last {
                logger.debug(
                    "matched by hash", metadata: ["store": "\(path)", "version": "\(match.version.name)"])
                return StoreIdentification(
                    path: path, match: .version(match.version, by: .hash), metadata: metadata, notes: notes)
            }
            let schemaMatches = try history.versions.map(candidate).filter(\.differences.isEmpty)
            logger.warning(
                "hashes and tables disagree",
                metadata: ["store": "\(path)", "hashVersion": "\(hashMatch.version.name)"])
            return StoreIdentification(
                path: path,
                match: .inconsistent(
                    hashVersion: hashMatch.version.name, schemaVersion: schemaMatches.last?.version.name,
                    differences: hashMatch.differences),
                metadata: metadata, notes: notes)
        }

        if let identification = try shippedMatch(metadata: metadata, actual: actual, path: path) {
            return identification
        }

        let candidates = try history.versions.map(candidate)
        let schemaMatches = candidates.filter(\.differences.isEmpty)

        if let schemaMatch = schemaMatches.last {
            if schemaMatches.count > 1 {
                notes.append(
                    "the tables fit \(schemaMatches.map { "'\($0.version.name)'" }.joined(separator: ", ")); took the newest"
                )
            }
            notes.append("no version's entity hashes match the metadata; matched by comparing tables")
            logger.debug("matched by schema", metadata: ["store": "\(path)", "version": "\(schemaMatch.version.name)"])
            return StoreIdentification(
                path: path, match: .version(schemaMatch.version, by: .schema), metadata: metadata, notes: notes)
        }

        let closest = candidates.enumerated().min { lhs, rhs in
            // Fewest differences wins; ties go to the newer version.
            (lhs.element.differences.count, -lhs.offset) < (rhs.element.differences.count, -rhs.offset)
        }?.element
        // "Newer" needs evidence: the metadata names a later version of this model
        // ("Recipes 5"), or the tables are the latest version's plus some additions.
        let namedVersion = metadata.modelVersionName
        let namesLaterVersion = namedVersion.map(history.namesALaterVersion) ?? false
        let closestIsLatest = closest?.version.name == latest.name
        let onlyAdditions = closest?.differences.allSatisfy(\.isAddition) ?? false
        if namesLaterVersion || (closestIsLatest && onlyAdditions) {
            throw UpgradeError(
                path: path,
                kind: .newerThanKnownVersions(
                    storeVersionName: namedVersion, latest: latest.name, differences: closest?.differences ?? []))
        }
        // Not newer: a version the bundle no longer holds. Core Data falls back on the model
        // the store carries; so does Stepwise, when that model's hashes are the metadata's.
        let cache = modelCacheMatch(db, metadata: metadata, actual: actual, path: path)
        if let identification = cache.identification { return identification }
        var error = UpgradeError(
            path: path,
            kind: .noMatchingVersion(closest: closest?.version.name, differences: closest?.differences ?? []))
        error.modelCacheNote = cache.whyNotUsed
        throw error
    }

    /// The version as shipped whose hashes the metadata holds, checked against the tables as a
    /// bundle version's hash match is; nil when no shipped model's hashes match.
    private func shippedMatch(metadata: StoreMetadata, actual: SQLiteSchema, path: String) throws
        -> StoreIdentification?
    {
        guard let match = shipped.last(where: { hashes.isCompatible($0, withEntityHashes: metadata.versionHashes) })
        else {
            return nil
        }
        let differences = try layouts.tableDifferences(of: actual, from: match, release: metadata.release)
        guard differences.isEmpty else {
            logger.warning(
                "hashes and tables disagree", metadata: ["store": "\(path)", "hashVersion": "\(match.name)"])
            return StoreIdentification(
                path: path,
                match: .inconsistent(hashVersion: match.name, schemaVersion: nil, differences: differences),
                metadata: metadata, notes: [])
        }
        let edited = ShippedVersion.versionName(asShipped: match.name) ?? match.name
        logger.debug("matched by shipped record", metadata: ["store": "\(path)", "version": "\(match.name)"])
        return StoreIdentification(
            path: path, match: .version(match, by: .shippedRecord), metadata: metadata,
            notes: [
                "written by '\(edited)' as it shipped (its shipped record); '\(edited)' was edited since, so the upgrade starts with a step from '\(match.name)' to '\(edited)'"
            ])
    }

    /// Whether a store's `NSStoreModelVersionIdentifiers` name this version: they equal its
    /// identifiers, or name it (Core Data writes `[""]` for a version without one).
    static func names(_ version: ObjectModel, identifiers: [String]) -> Bool {
        let named = identifiers.filter { !$0.isEmpty }
        guard !named.isEmpty else { return false }
        return named == version.versionIdentifiers || named == [version.name]
    }

    private struct Candidate {
        var version: ObjectModel
        var differences: [SchemaDifference]
    }
}
