import Crypto
import Foundation

/// Computes Core Data's entity version hashes (`NSStoreModelVersionHashes`).
///
/// The algorithm reproduces all 102 entity hashes written by Apple's Core Data in
/// the corpus stores (corpus README §4.3). Each hash is SHA-256; `‖` is concatenation,
/// integers are little-endian and strings are UTF-8 without a terminator:
///
/// - property = SHA-256(name ‖ UInt16 flags) with bit 0 = optional, bit 1 = transient;
/// - attribute = SHA-256(property ‖ UInt32 type code);
/// - relationship = SHA-256(property ‖ destination ‖ inverse? ‖ UInt32 maxCount ‖ UInt32 minCount ‖ UInt16 1 if ordered);
/// - entity = SHA-256(name ‖ UInt8 isAbstract ‖ parent hash? ‖ persistent property hashes
///   (inherited included) sorted by name ‖ own uniqueness constraints, each joined by `.`,
///   sorted and joined by `,`).
///
/// Class names, user info, defaults, min/max, indexes and transient properties take no part.
///
/// Version hash modifiers are not in the corpus. Apple documents that they are mixed into
/// the hash; Stepwise appends a property's modifier to its property-hash input and an
/// entity's modifier after its constraints, so any modifier change yields a new hash.
public enum VersionHasher {
    /// The version hash of every entity in the model, keyed by entity name.
    public static func entityHashes(of model: ObjectModel) -> [String: Data] {
        var cache: [String: Data] = [:]
        for entity in model.entities {
            _ = entityHash(of: entity, in: model, cache: &cache)
        }
        return cache
    }

    /// The version hash of one entity.
    public static func entityHash(of entity: Entity, in model: ObjectModel) -> Data {
        var cache: [String: Data] = [:]
        return entityHash(of: entity, in: model, cache: &cache)
    }

    /// The hash of one attribute, as mixed into its entity's hash.
    public static func attributeHash(_ attribute: Attribute) -> Data {
        var bytes = propertyHash(
            name: attribute.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
            modifier: attribute.versionHashModifier)
        bytes.appendLittleEndian(attribute.type.versionHashCode)
        return sha256(bytes)
    }

    /// The hash of one relationship, as mixed into its entity's hash.
    public static func relationshipHash(_ relationship: Relationship) -> Data {
        var bytes = propertyHash(
            name: relationship.name, isOptional: relationship.isOptional,
            isTransient: relationship.isTransient, modifier: relationship.versionHashModifier)
        bytes.append(contentsOf: Array(relationship.destination.utf8))
        if let inverse = relationship.inverse {
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
        let persistent = model.allProperties(of: entity)
            .filter { !$0.isTransient }
            .sorted { $0.name < $1.name }
        for property in persistent {
            switch property {
            case .attribute(let attribute): bytes.append(attributeHash(attribute))
            case .relationship(let relationship): bytes.append(relationshipHash(relationship))
            }
        }
        if !entity.uniquenessConstraints.isEmpty {
            let constraints = entity.uniquenessConstraints.map { $0.joined(separator: ".") }.sorted()
            bytes.append(contentsOf: Array(constraints.joined(separator: ",").utf8))
        }
        if let modifier = entity.versionHashModifier {
            bytes.append(contentsOf: Array(modifier.utf8))
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
    public func isCompatible(withStoreMetadata metadata: [String: Any]) -> Bool {
        guard let stored = metadata["NSStoreModelVersionHashes"] as? [String: Any] else { return false }
        let storedHashes = stored.compactMapValues { $0 as? Data }
        guard storedHashes.count == stored.count else { return false }
        return isCompatible(withEntityHashes: storedHashes)
    }

    /// Whether `hashes` (entity name → version hash) are exactly this model's.
    public func isCompatible(withEntityHashes hashes: [String: Data]) -> Bool {
        hashes == entityVersionHashes
    }
}

extension VersionHasher {
    /// `hash` as lowercase hex, two digits a byte, as the corpus README and `stepwise inspect`
    /// print version hashes: `VersionHasher.hex(model.entityVersionHashes["Chef"]!)`.
    public static func hex(_ hash: Data) -> String {
        let digits = Array("0123456789abcdef")
        return hash.map { byte in String([digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]) }.joined()
    }
}
