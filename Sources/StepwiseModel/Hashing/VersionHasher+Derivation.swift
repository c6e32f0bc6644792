import Crypto
import Foundation

extension VersionHasher {
    /// The hash of a derived attribute: SHA-256 of its expression's `predicateFormat`
    /// (``Derivation/predicateFormat``), UTF-8, and nothing else; `plain` for an attribute that
    /// isn't derived.
    ///
    /// `-[NSDerivedAttributeDescription _versionHash:inStyle:]` (decompiled Core Data) has its
    /// superclass write the plain attribute hash into a buffer it never reads, then hashes only
    /// the expression's `predicateFormat` (and a filtering predicate's, which the model editor
    /// doesn't offer). So a derived attribute's name, type and flags take no part. The Photos
    /// stores confirm it: with this rule their `Z_MODELCACHE` models hash to exactly their
    /// metadata's `Asset` (macOS 13 and 15, `additionalAttributes.cameraCaptureDevice`) and
    /// `GraphNode` (15, `primaryLabel.code`), corpus `Test-PhotoScript-13.0.1` and
    /// `-15.7.1.photoslibrary`; the plain hash, or the plain hash followed by the text, doesn't.
    /// How a count or a function prints (`count:(items)`) is from decompiled Core Data only.
    static func derivedHash(_ plain: Data, _ attribute: Attribute) -> Data {
        guard let text = attribute.derivation?.predicateFormat ?? attribute.unsupportedDerivationExpression else {
            return plain
        }
        return Data(SHA256.hash(data: Data(text.utf8)))
    }
}
