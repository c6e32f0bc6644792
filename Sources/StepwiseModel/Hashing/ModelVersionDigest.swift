import Crypto
import Foundation

/// The two whole-model summaries Core Data writes into a store's metadata beside the entity
/// hashes: `NSStoreModelVersionHashesDigest` and `NSStoreModelVersionChecksumKey`.
///
/// Both are computed from the entity hashes alone, so a store's metadata can't carry a stale one
/// once Stepwise writes them from the hashes it writes (``StoreMetadata`` does).
///
/// Where the rules come from: the decompiled Core Data (iOS 26.1,
/// `EthanArbuckle/iPhone18-3_26.1_23B85_Restore`, `NSManagedObjectModel.mm`):
/// - **digest**, `-_entityVersionHashesDigestFrom:`: the entity names sorted with `compare:`,
///   and for each, `CC_SHA512_Update` with the name's UTF-8 bytes and then its 32-byte hash;
///   the 64-byte SHA-512, base64-encoded without line breaks;
/// - **checksum**, `-versionChecksum`: base64 of `-versionHash`, which is `CC_SHA256_Update`
///   with each entity's 32-byte hash, entities sorted by name (`_compareEntitiesByName`), no
///   names mixed in.
///
/// Confirmed on every store of the corpus that has the keys: the digest in 24 stores (Core Data
/// 977 and later: Wire from 2.30, Photos, CartKit, DuckDuckGo's Bookmarks and SyncMetadata), the
/// checksum in 7 (1333 and later); and the checksum against every entry of a compiled model's
/// `VersionInfo.plist` (`NSManagedObjectModel_VersionChecksums`, CartKit and CoreDataPlus's
/// SampleModel3). `ModelVersionDigestCorpusTests` checks all of them.
///
/// `compare:` on names of ASCII letters, digits and `_` is code-point order, which is the
/// UTF-8 byte order used here.
package enum ModelVersionDigest {
    /// `NSStoreModelVersionHashesDigest` for these entity hashes.
    package static func hashesDigest(_ hashes: [String: Data]) -> String {
        var hasher = SHA512()
        for name in sortedNames(hashes) {
            hasher.update(data: Data(name.utf8))
            hasher.update(data: hashes[name] ?? Data())
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    /// `NSStoreModelVersionChecksumKey` (the model's `versionChecksum`) for these entity hashes.
    package static func versionChecksum(_ hashes: [String: Data]) -> String {
        var hasher = SHA256()
        for name in sortedNames(hashes) {
            hasher.update(data: hashes[name] ?? Data())
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    private static func sortedNames(_ hashes: [String: Data]) -> [String] {
        hashes.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
