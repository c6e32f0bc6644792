import Foundation

/// A store of the corpus and the model versions that wrote it (corpus README §4.1).
///
/// This is the one catalogue of the corpus stores: tests take their stores from ``all``,
/// ``consistent``, ``onePerVersion`` or ``named(_:)`` and keep only their own expectations.
/// Every consistent store has the tables of ``version`` and the entity hashes of the same version;
/// the half-migrated 2C (``corrupt``) has the tables of one version and the hashes of the next.
///
/// Corpus stores must never be opened in place: copy one with `corpus.copyStore(store, to: directory)`.
package struct CorpusStore: Hashable, Sendable, CustomStringConvertible {
    /// The short name used by the corpus README: v1…v6, 2W, 3W, 2C, M1…M5, W1…W3, WW.
    package let shortName: String
    /// The store's path inside the corpus.
    package let path: String
    /// The bundle holding the versions that wrote the store.
    package let bundle: CorpusBundle
    /// The model version whose tables the store has.
    package let version: String
    /// The model version whose entity hashes the store's metadata holds
    /// (`NSStoreModelVersionHashes`): ``version``, except for an inconsistent store.
    package let hashVersion: String

    /// A store written by version `number` of `bundle`, with the metadata of version `hashNumber`.
    private init(
        _ shortName: String, _ path: String, _ bundle: CorpusBundle, version number: Int, hashes hashNumber: Int? = nil
    ) {
        self.shortName = shortName
        self.path = path
        self.bundle = bundle
        self.version = bundle.versionName(number)
        self.hashVersion = bundle.versionName(hashNumber ?? number)
    }

    /// Whether the store's hashes and tables name the same version.
    package var isConsistent: Bool {
        version == hashVersion
    }

    /// The short name, the path and the version, such as `M2: objcio-moody/stores/Moody 2.moody (Moody 2)`;
    /// parameterized tests use it to name their cases.
    package var description: String {
        let versions = isConsistent ? version : "tables \(version), hashes \(hashVersion)"
        return "\(shortName): \(path) (\(versions))"
    }

    /// Every store of the corpus, in the README's order (v1…v6, 2W, 3W, 2C, M1…M5, W1…W3, WW).
    package static let all: [CorpusStore] = {
        var stores = (1...6).map { number in
            CorpusStore(
                "v\(number)", "apptentive-ios/stores/ATDataModelv\(number).sqlite", .apptentive, version: number)
        }
        // Stores the Apptentive tests keep in folders, with their -wal and -shm.
        stores += [2, 3].map { number in
            CorpusStore(
                "\(number)W", "apptentive-ios/stores/v\(number)WALDatabase/ATDataModel.sqlite", .apptentive,
                version: number)
        }
        stores.append(corrupt)
        stores += (1...5).map { number in
            CorpusStore(
                "M\(number)", "objcio-moody/stores/\(CorpusBundle.moody.versionName(number)).moody", .moody,
                version: number)
        }
        stores += (1...3).map { number in
            CorpusStore(
                "W\(number)", "wibosco-migration-example/stores/CoreDataMigration_Example_\(number).sqlite", .wibosco,
                version: number)
        }
        stores.append(
            CorpusStore(
                "WW", "wibosco-migration-example/stores/CoreDataMigration_Example_WAL.sqlite", .wibosco, version: 4))
        return stores
    }()

    /// 2C, the half-migrated Apptentive store: the tables of `ATDataModel 2` under the metadata
    /// (entity hashes) of `ATDataModel 3`. It must be flagged, not migrated.
    package static let corrupt = CorpusStore(
        "2C", "apptentive-ios/stores/v2CorruptDatabase/ATDataModel.sqlite", .apptentive, version: 2, hashes: 3)

    /// The 17 stores whose entity hashes match their tables: every store but 2C.
    package static let consistent: [CorpusStore] = all.filter(\.isConsistent)

    /// The stores whose entity hashes don't match their tables: 2C alone.
    package static let inconsistent: [CorpusStore] = all.filter { !$0.isConsistent }

    /// The first consistent store of each version that has one (2W and 3W repeat v2's and v3's
    /// versions): v1…v6, M1…M5, W1…W3 and WW.
    package static let onePerVersion: [CorpusStore] = {
        var seen: Set<String> = []
        return consistent.filter { seen.insert($0.version).inserted }
    }()

    /// The stores written by versions of `bundle`, 2C included.
    package static func stores(in bundle: CorpusBundle) -> [CorpusStore] {
        all.filter { $0.bundle == bundle }
    }

    /// The store with this README short name.
    /// - throws: ``CorpusError/unknownStore(_:)`` when no store has it.
    package static func named(_ shortName: String) throws -> CorpusStore {
        guard let store = all.first(where: { $0.shortName == shortName }) else {
            throw CorpusError.unknownStore(shortName)
        }
        return store
    }
}
