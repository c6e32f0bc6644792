import Crypto
import Foundation

/// Computes Core Data's entity version hashes (`NSStoreModelVersionHashes`).
///
/// Each hash is SHA-256; `‖` is concatenation, integers are little-endian and strings are
/// UTF-8 without a terminator:
///
/// - property = SHA-256(name ‖ UInt16 flags ‖ modifier?) with bit 0 = optional, bit 1 = transient;
/// - attribute = SHA-256(property ‖ UInt32 type code ‖ UInt8 1 if external storage ‖
///   UInt8 1 if preserved after deletion); a derived attribute is SHA-256 of its expression's
///   `predicateFormat` alone;
/// - relationship = SHA-256(property ‖ destination ‖ inverse? ‖ UInt32 maxCount ‖ UInt32 minCount
///   ‖ UInt16 1 if ordered), where a relationship that is its own inverse leaves its inverse out;
/// - entity = SHA-256(name ‖ UInt8 isAbstract ‖ parent hash? ‖ persistent property hashes
///   (inherited included) sorted by name ‖ modifier? ‖ own uniqueness constraints, each joined
///   by `.`, sorted and concatenated with no separator).
///
/// Class names, user info, defaults, min/max, indexes and transient properties take no part.
///
/// Where each rule comes from (corpus README §4.3 and §7; every hash named here is reproduced by
/// `VersionHasherCorpusTests`):
/// - the base algorithm: the 102 entity hashes of the Apptentive, Moody and wibosco stores;
/// - the external-storage byte: Wire's `User.imageMediumData`/`imageSmallProfileData` (23 stores,
///   1.27 to 2.66) and the `LargeDataBlob` example of issue 21;
/// - the preserved-after-deletion byte: Screen Time's `*OrganizationSettings` (RMAdminStore,
///   framework 1044) and Photos' tombstone attributes, read from their `Z_MODELCACHE`, where the
///   attribute's `NSFlagsKey` has bit 4 (16) set for it and bit 2 (4) for external storage;
/// - the entity modifier before the constraints: Photos' `Keyword` and `InternalResource`
///   (macOS 13 and 15), each with a modifier and a constraint;
/// - constraints concatenated with no separator: `CachedCarbObject` of issue 21, whose two
///   one-property constraints hash as `"syncIdentifier" ‖ "uuid"` (sorted; its declared order is
///   the reverse, so "sorted" is the documented choice between the two);
/// - a relationship that is its own inverse: Photos' `Person.mergeCandidates`,
///   `invalidMergeCandidates` and `mergeCandidatesWithConfidence` (macOS 13 and 15).
///
/// - a derived attribute: Photos' `Asset.derivedCameraCaptureDevice` (macOS 13 and 15) and
///   `GraphNode.primaryLabelCode` (15), see `VersionHasher+Derivation.swift`.
///
/// A property modifier is appended to the property-hash input, which every modified property of the Photos
/// stores confirms.
package enum VersionHasher {
    /// The version hash of every entity in the model, keyed by entity name.
    package static func entityHashes(of model: ObjectModel) -> [String: Data] {
        var cache: [String: Data] = [:]
        for entity in model.entities {
            _ = entityHash(of: entity, in: model, cache: &cache)
        }
        return cache
    }

    /// The version hash of one entity.
    package static func entityHash(of entity: Entity, in model: ObjectModel) -> Data {
        var cache: [String: Data] = [:]
        return entityHash(of: entity, in: model, cache: &cache)
    }

    /// The hash of one attribute, as mixed into its entity's hash.
    package static func attributeHash(_ attribute: Attribute) -> Data {
        if attribute.type == .composite { return compositeHash(attribute) }
        var bytes = propertyHash(
            name: attribute.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
            modifier: attribute.versionHashModifier)
        bytes.appendLittleEndian(attribute.type.versionHashCode)
        // One byte per flag, present only when the flag is set (Wire's User, Screen Time's
        // settings entities): a model without either flag hashes exactly as before.
        if attribute.allowsExternalBinaryDataStorage {
            bytes.append(1)
        }
        if attribute.preservesValueInHistoryOnDeletion {
            bytes.append(1)
        }
        return derivedHash(sha256(bytes), attribute)
    }

    /// The hash of one relationship, as mixed into its entity's hash.
    ///
    /// - parameters:
    ///   - relationship: The relationship.
    ///   - entityName: The entity that declares the relationship. A relationship that is
    ///   its own inverse (its destination is `entityName` and its inverse its own name) leaves the
    ///   inverse out, as Photos' `Person.mergeCandidates` shows; without it, such a relationship is
    ///   hashed as if it weren't its own inverse.
    package static func relationshipHash(_ relationship: Relationship, declaredBy entityName: String? = nil) -> Data {
        var bytes = propertyHash(
            name: relationship.name, isOptional: relationship.isOptional,
            isTransient: relationship.isTransient, modifier: relationship.versionHashModifier)
        bytes.append(contentsOf: Array(relationship.destination.utf8))
        let isOwnInverse = relationship.inverse == relationship.name && relationship.destination == entityName
        if let inverse = relationship.inverse, !isOwnInverse {
            bytes.append(contentsOf: Array(inverse.utf8))
        }
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: relationship.maxCount))
        bytes.appendLittleEndian(UInt32(truncatingIfNeeded: relationship.minCount))
        if relationship.isOrdered {
            bytes.appendLittleEndian(UInt16(1))
        }
        return sha256(bytes)
    }

    private static func entityHash(of entity: Entity, in model: ObjectModel, cache: inout [String: Data])
        -> Data
    {
        if let hash = cache[entity.name] { return hash }
        // Guard against inheritance cycles: a provisional entry stops the recursion.
        // Validation reports the cycle; hashing just has to terminate.
        cache[entity.name] = Data()
        var bytes = Data(entity.name.utf8)
        bytes.append(entity.isAbstract ? 1 : 0)
        if let parentName = entity.parentName, let parent = model[entity: parentName] {
            bytes.append(entityHash(of: parent, in: model, cache: &cache))
        }
        let persistent = model.declaredProperties(of: entity)
            .filter { !$0.property.isTransient }
            .sorted { $0.property.name < $1.property.name }
        for (declaring, property) in persistent {
            switch property {
            case .attribute(let attribute): bytes.append(attributeHash(attribute))
            case .relationship(let relationship):
                bytes.append(relationshipHash(relationship, declaredBy: declaring.name))
            }
        }
        // The modifier comes before the constraints (Photos' Keyword and InternalResource).
        if let modifier = entity.versionHashModifier {
            bytes.append(contentsOf: Array(modifier.utf8))
        }
        if !entity.uniquenessConstraints.isEmpty {
            let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }.sorted()
            bytes.append(contentsOf: Array(constraints.joined().utf8))
        }
        let hash = sha256(bytes)
        cache[entity.name] = hash
        return hash
    }

    private static func propertyHash(name: String, isOptional: Bool, isTransient: Bool, modifier: String?)
        -> Data
    {
        var bytes = Data(name.utf8)
        let flags: UInt16 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0)
        bytes.appendLittleEndian(flags)
        if let modifier {
            bytes.append(contentsOf: Array(modifier.utf8))
        }
        return sha256(bytes)
    }

    private static func sha256(_ data: Data) -> Data {
        Data(SHA256.hash(data: data))
    }
}

extension Data {
    fileprivate mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}

extension ObjectModel {
    /// The version hash of every entity, keyed by entity name: what Core Data stores as
    /// `NSStoreModelVersionHashes` in a store's metadata.
    public var entityVersionHashes: [String: Data] {
        VersionHasher.entityHashes(of: self)
    }

    /// Whether a store whose metadata is `metadata` was written by this model version.
    ///
    /// Like Core Data's `isConfiguration(withName:compatibleWithStoreMetadata:)`: the store's
    /// `NSStoreModelVersionHashes` must name exactly this model's entities, with equal hashes.
    package func isCompatible(withStoreMetadata metadata: [String: Any]) -> Bool {
        guard let stored = metadata["NSStoreModelVersionHashes"] as? [String: Any] else { return false }
        let storedHashes = stored.compactMapValues { $0 as? Data }
        guard storedHashes.count == stored.count else { return false }
        return isCompatible(withEntityHashes: storedHashes)
    }

    /// Whether `hashes` (entity name → version hash) are exactly this model's.
    package func isCompatible(withEntityHashes hashes: [String: Data]) -> Bool {
        hashes == entityVersionHashes
    }
}

extension VersionHasher {
    /// `hash` as lowercase hex, two digits a byte, as the corpus README and `stepwise inspect`
    /// print version hashes: `VersionHasher.hex(model.entityVersionHashes["Chef"]!)`.
    package static func hex(_ hash: Data) -> String {
        let digits = Array("0123456789abcdef")
        return hash.map { byte in String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]) }.joined()
    }
}
