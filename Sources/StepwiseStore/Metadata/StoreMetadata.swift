import Foundation
import StepwiseModel

/// A store's metadata: the row of `Z_METADATA` (`Z_VERSION` 1), whose `Z_UUID` is the
/// store's UUID and whose `Z_PLIST` is a binary property list.
///
/// The keys Core Data and Stepwise rely on are typed properties; every other key (such as
/// `NSPersistenceFrameworkVersion`, `_NSAutoVacuumLevel` or an app's own keys set with
/// `setMetadata(_:for:)`) is kept in ``additionalEntries`` and written back unchanged.
///
/// Two keys are never kept as read: `NSStoreModelVersionHashesDigest` and
/// `NSStoreModelVersionChecksumKey` summarise the entity hashes, so ``propertyList`` computes
/// them from ``versionHashes`` each time it is written (``ModelVersionDigest``), as Core Data's
/// `-[NSPersistentStore _updatedMetadataWithSeed:includeVersioning:]` and its in-place migrator
/// do. Carried over from a source store, they would name the source version after an upgrade.
///
/// ```swift
/// let metadata = try dbQueue.read { db in try StoreMetadata.read(from: db, path: storePath) }
/// metadata.versionHashes["ATEvent"].map(VersionHasher.hex)   // "7c970c35…"
/// metadata.additionalEntries["io.objc.Moody.CloudKitUserID"]
/// ```
package struct StoreMetadata: Sendable, Hashable {
    /// `NSStoreModelVersionHashes`: entity name → 32-byte version hash.
    package var versionHashes: [String: Data]
    /// `NSStoreModelVersionIdentifiers`, e.g. `[""]` or `["2"]`.
    package var versionIdentifiers: [String]
    /// `NSStoreType`: `"SQLite"` for every store Stepwise handles.
    package var storeType: String
    /// The store's UUID, kept in the `Z_UUID` column (Core Data's `NSStoreUUID`).
    package var storeUUID: String
    /// `NSStoreModelVersionHashesVersion`: 3 in every known store.
    package var hashesVersion: Int
    /// `StepwiseModelVersionName`: the model version that wrote the store, when Stepwise did.
    package var modelVersionName: String?
    /// Every other key of the property list, preserved as read.
    package var additionalEntries: [String: PropertyListValue]

    /// The key of ``versionHashes``.
    package static let versionHashesKey = "NSStoreModelVersionHashes"
    /// The key of ``versionIdentifiers``.
    package static let versionIdentifiersKey = "NSStoreModelVersionIdentifiers"
    /// The key of ``storeType``.
    package static let storeTypeKey = "NSStoreType"
    /// Core Data's name for ``storeUUID``. Read from the property list only when `Z_UUID` is
    /// NULL, and never written to it.
    package static let storeUUIDKey = "NSStoreUUID"
    /// The key of ``hashesVersion``.
    package static let hashesVersionKey = "NSStoreModelVersionHashesVersion"
    /// The key of ``modelVersionName``, Stepwise's own.
    package static let modelVersionNameKey = "StepwiseModelVersionName"
    /// Core Data writes the store's `PRAGMA auto_vacuum` level here, as a string.
    package static let autoVacuumLevelKey = "_NSAutoVacuumLevel"
    /// ``autoVacuumLevelKey``'s value for a file ``StoreCreator`` makes: incremental (`"2"`).
    package static let newStoreAutoVacuumLevel: PropertyListValue = "2"
    /// `NSStoreModelVersionHashesDigest`, derived from ``versionHashes`` when written.
    package static let hashesDigestKey = "NSStoreModelVersionHashesDigest"
    /// `NSStoreModelVersionChecksumKey`, the model's `versionChecksum`, derived from
    /// ``versionHashes`` when written.
    package static let versionChecksumKey = "NSStoreModelVersionChecksumKey"

    /// Creates metadata from its parts; the defaults are what Core Data writes.
    package init(
        versionHashes: [String: Data], versionIdentifiers: [String], storeType: String = "SQLite",
        storeUUID: String, hashesVersion: Int = 3, modelVersionName: String? = nil,
        additionalEntries: [String: PropertyListValue] = [:]
    ) {
        self.versionHashes = versionHashes
        self.versionIdentifiers = versionIdentifiers
        self.storeType = storeType
        self.storeUUID = storeUUID
        self.hashesVersion = hashesVersion
        self.modelVersionName = modelVersionName
        self.additionalEntries = additionalEntries
    }

    /// The metadata of a new store at a model version.
    ///
    /// Hashes come from ``/StepwiseModel/ObjectModel/entityVersionHashes`` and the version's name
    /// goes under `StepwiseModelVersionName`. A model without identifier gets `[""]`, as Core
    /// Data wrote for such models in every corpus store. `_NSAutoVacuumLevel` is `"2"`, the
    /// incremental auto-vacuum ``StoreCreator`` sets up. `NSPersistenceFrameworkVersion` names
    /// ``CoreDataRelease/newest``, whose forms a new store's layout has unless its caller lays
    /// it out for another release and says so (`stepwise create --release`).
    /// - parameters:
    ///   - model: The version the store is at.
    ///   - uuid: The store's UUID; a migration passes the source store's.
    package init(model: ObjectModel, uuid: String = UUID().uuidString) {
        self.init(
            versionHashes: model.entityVersionHashes,
            versionIdentifiers: model.versionIdentifiers.isEmpty ? [""] : model.versionIdentifiers,
            storeUUID: uuid, modelVersionName: model.name,
            additionalEntries: [
                Self.autoVacuumLevelKey: Self.newStoreAutoVacuumLevel,
                Self.frameworkVersionKey: .int(CoreDataRelease.newest.frameworkVersion),
            ])
    }

    /// `NSPersistenceFrameworkVersion`: the Core Data release that last wrote the store (386 to
    /// 1523 in the corpus), whose layout forms (``CoreDataRelease``) the store's tables have.
    /// A step that keeps the store's layout keeps it; a new or rebuilt store, laid out in the
    /// newest forms, names ``CoreDataRelease/newest`` (see ``MigrationStep``), so that the next
    /// upgrade reads its forms right.
    package static let frameworkVersionKey = "NSPersistenceFrameworkVersion"

    /// The Core Data release that wrote the store, whose layout forms its tables and indexes have;
    /// ``CoreDataRelease/newest`` when the metadata doesn't say (a store Stepwise wrote).
    package var release: CoreDataRelease {
        let version: Int? =
            switch additionalEntries[Self.frameworkVersionKey] {
            case .int(let number): number
            case .string(let text): Int(text)
            case .double(let number): Int(exactly: number.rounded(.down))
            default: nil
            }
        return CoreDataRelease.named(by: version)
    }

    /// The whole property list as written to `Z_PLIST`.
    ///
    /// The UUID is not in it: Core Data keeps it in `Z_UUID` only.
    package var propertyList: [String: PropertyListValue] {
        var entries = additionalEntries
        entries[Self.versionHashesKey] = .dictionary(versionHashes.mapValues(PropertyListValue.data))
        entries[Self.versionIdentifiersKey] = .array(versionIdentifiers.map(PropertyListValue.string))
        entries[Self.storeTypeKey] = .string(storeType)
        entries[Self.hashesVersionKey] = .int(hashesVersion)
        entries[Self.hashesDigestKey] = .string(ModelVersionDigest.hashesDigest(versionHashes))
        entries[Self.versionChecksumKey] = .string(ModelVersionDigest.versionChecksum(versionHashes))
        if let modelVersionName {
            entries[Self.modelVersionNameKey] = .string(modelVersionName)
        }
        return entries
    }

    /// Reads the typed keys of a property list, keeping the others.
    ///
    /// - parameters:
    ///   - propertyList: The decoded `Z_PLIST`.
    ///   - uuid: `Z_UUID`; when nil, the list's own `NSStoreUUID` is used.
    /// - throws: A reason for ``StoreError/Kind/invalidMetadata(_:)``.
    init(propertyList: [String: PropertyListValue], uuid: String?) throws(MetadataShapeError) {
        var entries = propertyList
        func take(_ key: String) -> PropertyListValue? { entries.removeValue(forKey: key) }

        guard let hashesValue = take(Self.versionHashesKey) else {
            throw MetadataShapeError("\(Self.versionHashesKey) is missing")
        }
        guard let hashEntries = hashesValue.dictionaryValue else {
            throw MetadataShapeError("\(Self.versionHashesKey) is not a dictionary")
        }
        var hashes: [String: Data] = [:]
        for (entity, value) in hashEntries {
            guard let hash = value.dataValue else {
                throw MetadataShapeError("the version hash of entity '\(entity)' is not data")
            }
            hashes[entity] = hash
        }

        var identifiers: [String] = []
        if let value = take(Self.versionIdentifiersKey) {
            guard let items = value.arrayValue else {
                throw MetadataShapeError("\(Self.versionIdentifiersKey) is not an array")
            }
            for item in items {
                guard let identifier = item.stringValue else {
                    throw MetadataShapeError("\(Self.versionIdentifiersKey) holds a value that is not a string")
                }
                identifiers.append(identifier)
            }
        }

        guard let storeType = take(Self.storeTypeKey) else {
            throw MetadataShapeError("\(Self.storeTypeKey) is missing")
        }
        guard let storeTypeName = storeType.stringValue else {
            throw MetadataShapeError("\(Self.storeTypeKey) is not a string")
        }

        // Core Data has written 3 since macOS 10.5; a store without the key predates it.
        var hashesVersion = 3
        if let value = take(Self.hashesVersionKey) {
            guard let version = value.intValue else {
                throw MetadataShapeError("\(Self.hashesVersionKey) is not an integer")
            }
            hashesVersion = version
        }

        // Derived from the hashes whenever the list is written (``propertyList``).
        _ = take(Self.hashesDigestKey)
        _ = take(Self.versionChecksumKey)

        var modelVersionName: String?
        if let value = take(Self.modelVersionNameKey) {
            guard let name = value.stringValue else {
                throw MetadataShapeError("\(Self.modelVersionNameKey) is not a string")
            }
            modelVersionName = name
        }

        let listedUUID = take(Self.storeUUIDKey)
        guard let storeUUID = uuid ?? listedUUID?.stringValue else {
            throw MetadataShapeError("the store has no UUID (Z_UUID is NULL)")
        }

        self.init(
            versionHashes: hashes, versionIdentifiers: identifiers, storeType: storeTypeName, storeUUID: storeUUID,
            hashesVersion: hashesVersion, modelVersionName: modelVersionName, additionalEntries: entries)
    }
}

/// Why a property list is not valid store metadata; becomes ``StoreError/Kind/invalidMetadata(_:)``.
struct MetadataShapeError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
