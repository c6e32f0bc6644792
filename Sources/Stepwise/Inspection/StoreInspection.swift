import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Everything `stepwise inspect` reports about a store, read from a private copy so the
/// store, its `-wal` and its `-shm` stay byte-identical.
///
/// The JSON form is a contract other tooling relies on: `matchedVersion`, `matchedBy`,
/// `consistent`, `problem`, `entityHashes` and `tables` keep their names and shapes.
package struct StoreInspection: Sendable, Encodable {
    /// A table and its row count, read through the WAL when there is one.
    package struct Table: Sendable, Encodable, Hashable {
        package var name: String
        package var rows: Int
        /// Which of Core Data's private tables it is (persistent history, CloudKit mirroring,
        /// the cached model: ``/StepwiseStore/CoreDataPrivateTables``), nil for the model's own.
        /// Encoded as `coreDataPrivate`: `"persistentHistory"`, `"cloudKitMirroring"`,
        /// `"modelCache"` or `null`.
        package var coreDataPrivate: CoreDataPrivateTables.Kind?

        package init(name: String, rows: Int, coreDataPrivate: CoreDataPrivateTables.Kind? = nil) {
            (self.name, self.rows, self.coreDataPrivate) = (name, rows, coreDataPrivate)
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeEveryKey([.name: name, .rows: rows, .coreDataPrivate: coreDataPrivate])
        }

        private enum CodingKeys: String, CodingKey {
            case name, rows, coreDataPrivate
        }
    }

    /// The store's path as given.
    package var store: String
    /// `NSStoreType`.
    package var storeType: String
    /// `NSStoreUUID`.
    package var storeUUID: String
    /// `NSStoreModelVersionIdentifiers`.
    package var versionIdentifiers: [String]
    /// Stepwise's own record of the model version name, when Stepwise wrote the store.
    package var modelVersionName: String?
    /// Entity name → version hash in lowercase hex.
    package var entityHashes: [String: String]
    /// Metadata keys beyond the standard ones (framework version, app keys…), rendered as text.
    package var otherMetadata: [String: String]
    /// Whether the store had a non-empty `-wal` file, whose rows are included below.
    package var hasWAL: Bool
    /// Every table, sorted by name, Core Data's private tables included (``Table/coreDataPrivate``).
    package var tables: [Table]
    /// The matching version's name (the `.xcdatamodel` name without extension), or nil.
    /// Without a history, the store's cached model (`"App.sqlite's model cache"`) when its
    /// hashes match the metadata.
    package var matchedVersion: String?
    /// `"hash"`, `"schema"`, `"shippedRecord"`, `"modelCache"` or nil.
    package var matchedBy: String?
    /// The model in the store's `Z_MODELCACHE` (``/StepwiseStore/ModelCache``); nil when the
    /// store has none or it can't be read (``notes`` says which).
    package var modelCache: ModelCacheSummary?
    /// False when the metadata's hashes and the tables disagree.
    package var consistent: Bool
    /// Why the store is inconsistent or unmatched; nil when all is well.
    package var problem: String?
    /// Remarks from the registry (ties, the schema fallback).
    package var notes: [String]

    /// The error that kept the store from being matched, if any (not encoded; see `problem`).
    package var identificationError: UpgradeError?

    enum CodingKeys: String, CodingKey {
        case store, storeType, storeUUID, versionIdentifiers, modelVersionName, entityHashes, otherMetadata
        case hasWAL, tables, matchedVersion, matchedBy, modelCache, consistent, problem, notes
    }

    /// Inspects the store at `url`; with a `history`, also identifies its version.
    ///
    /// With `shipped` (the shipped models of versions edited since,
    /// ``/StepwiseModel/ShippedVersion/asShippedVersions(_:in:)``), a store written by such a
    /// version as it shipped is identified as `"<Version> (as shipped)"`, matched by `shippedRecord`.
    ///
    /// A store that matches no version is still inspected: `problem` says why and
    /// ``identificationError`` holds the typed error. Unreadable files throw ``/StepwiseStore/StoreError``.
    package static func inspect(storeAt url: URL, history: VersionHistory? = nil, shipped: [ObjectModel] = []) throws
        -> StoreInspection
    {
        let snapshot = try StoreSnapshot(of: url)
        defer { snapshot.close() }
        do {
            return try snapshot.database.read { db in
                try inspect(db, path: url.path, hasWAL: snapshot.hadWAL, history: history, shipped: shipped)
            }
        } catch let error as StoreError {
            throw error
        } catch let error as UpgradeError {
            throw error
        } catch {
            throw StoreError(path: url.path, wrapping: error)
        }
    }

    static func inspect(
        _ db: Database, path: String, hasWAL: Bool, history: VersionHistory?, shipped: [ObjectModel] = []
    ) throws -> StoreInspection {
        let metadata = try StoreMetadata.read(from: db, path: path)
        let tableNames = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        let tables = try tableNames.map { name in
            Table(
                name: name,
                rows: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(name.quotedSQLIdentifier)") ?? 0,
                coreDataPrivate: CoreDataPrivateTables.kind(ofTable: name))
        }
        var inspection = StoreInspection(
            store: path,
            storeType: metadata.storeType,
            storeUUID: metadata.storeUUID,
            versionIdentifiers: metadata.versionIdentifiers,
            modelVersionName: metadata.modelVersionName,
            entityHashes: metadata.versionHashes.mapValues(VersionHasher.hex),
            otherMetadata: metadata.additionalEntries.mapValues { "\($0)" },
            hasWAL: hasWAL,
            tables: tables,
            matchedVersion: nil,
            matchedBy: nil,
            consistent: true,
            problem: nil,
            notes: [])
        let cachedModel = readModelCache(db, path: path, metadata: metadata, into: &inspection)
        guard let history else {
            if let cachedModel, inspection.modelCache?.matchesMetadata == true {
                inspection.matchedVersion = cachedModel.name
                inspection.matchedBy = StoreIdentification.MatchKind.modelCache.rawValue
            }
            return inspection
        }
        do {
            let identification = try VersionRegistry(history: history, shipped: shipped).identify(db, path: path)
            inspection.matchedVersion = identification.version?.name
            inspection.matchedBy = identification.matchedBy?.rawValue
            inspection.consistent = identification.isConsistent
            inspection.problem = identification.problem
            inspection.notes += identification.notes
        } catch let error as UpgradeError {
            inspection.problem = error.description
            inspection.identificationError = error
        }
        return inspection
    }

    /// Reads the store's cached model into ``modelCache``, or says in ``notes`` why there is
    /// none: a store's rows never depend on it, so an unreadable one is not an error here.
    private static func readModelCache(
        _ db: Database, path: String, metadata: StoreMetadata, into inspection: inout StoreInspection
    ) -> ObjectModel? {
        do {
            guard let model = try ModelCache.model(in: db, path: path) else {
                inspection.notes.append("the store has no model cache (Z_MODELCACHE)")
                return nil
            }
            let differing = VersionRegistry.entitiesWithOtherHashes(model, metadata: metadata)
            inspection.modelCache = ModelCacheSummary(
                entities: model.entities.map(\.name).sorted(), matchesMetadata: differing.isEmpty,
                entitiesWithOtherHashes: differing)
            return model
        } catch {
            inspection.notes.append("the model cache (Z_MODELCACHE) can't be read: \(ErrorText.describe(error))")
            return nil
        }
    }

    package func encode(to encoder: any Encoder) throws {
        // Optionals are written as null, not left out: scripts test `matchedVersion == null`.
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeEveryKey([
            .store: store, .storeType: storeType, .storeUUID: storeUUID, .versionIdentifiers: versionIdentifiers,
            .modelVersionName: modelVersionName, .entityHashes: entityHashes, .otherMetadata: otherMetadata,
            .hasWAL: hasWAL, .tables: tables, .matchedVersion: matchedVersion, .matchedBy: matchedBy,
            .modelCache: modelCache, .consistent: consistent, .problem: problem, .notes: notes,
        ])
    }
}
