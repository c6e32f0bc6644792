/// The bits of `ACHANGE.ZCOLUMNS`, Core Data's record of which properties an update changed:
/// one bit per property column of the object's entity, in Core Data's order.
///
/// ### The order, and how it is known
/// Core Data builds and reads the mask in `+[_NSPersistentHistoryChange
/// _propertyDataForEntity:withSetOfPropertyNames:]` and `_updatedPropertiesForEntity:andData:`
/// (public decompilations of CoreData.framework): over the SQL entity's `foreignKeyColumns`,
/// then `foreignEntityKeyColumns` (`Z<n>_<NAME>`), `foreignOrderKeyColumns` (`Z_FOK_…`),
/// `attributeColumns`, `toManyRelationships` and `manyToManyRelationships`, bit `i` being
/// `byte[i / 8] & (0x80 >> (i % 8))` (a `CFBitVector`), `(count + 7) / 8` bytes. A to-one's
/// three columns all stand for the relationship: an update of it sets each of its bits.
///
/// Inside each group, properties come by declaring entity, the root's first, then by name.
/// That is what the real stores of the corpus show (`real-stores`, decoded against each
/// store's `Z_MODELCACHE`): each of the 3,622 update masks of six stores (`NoteStore`,
/// `RMAdminStore`, `knowledgeC`, Photos 10.15, 13 and 15) has exactly `(count + 7) / 8` bytes;
/// and with this order the bits name what an app changes together (`ICNote`
/// `modificationDate` + `snippet`, `ICCloudState` `currentLocalVersion` + `localVersionDate`,
/// Screen Time's `UsageBlock` `lastEventDate` + `longestSessionEndDate` +
/// `screenTimeInSeconds`, a Photos highlight's `keyAsset` as both its key and its entity-key
/// bit), where names sorted without regard to the declaring entity pair unrelated properties
/// of subentities (`ICNote` `selectedInkColorString` + `unappliedEncryptedRecord`).
///
/// Inserts and deletes have no mask (`NULL`); only updates (`ZCHANGETYPE` 1) do.
///
/// ```swift
/// let mask = HistoryChangeMask(entity: layout.entity(named: "Recipe")!, in: layout)
/// mask.propertyNames                         // ["chef", "cuisine", "directions", "name", "rating", "ingredients"]
/// mask.bytes(setting: ["name", "rating"])    // [0b0001_1000]
/// ```
package struct HistoryChangeMask: Sendable, Hashable {
    /// The property behind each bit, in bit order. A to-one appears once per column it has
    /// (foreign key, entity key, order key).
    package let propertyNames: [String]

    /// The mask of `entity`'s objects, as `layout` stores them.
    package init(entity: EntityLayout, in layout: StoreLayout) {
        var chain: [String] = [entity.name]
        var current = entity
        while let parentName = current.parentName, let parent = layout.entity(named: parentName),
            !chain.contains(parentName)
        {
            chain.insert(parentName, at: 0)
            current = parent
        }
        let depth = Dictionary(chain.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        func ordered(_ names: [(name: String, declaringEntity: String)]) -> [String] {
            names.sorted {
                (depth[$0.declaringEntity] ?? 0, $0.name) < (depth[$1.declaringEntity] ?? 0, $1.name)
            }.map(\.name)
        }
        var foreignKeys: [(String, String)] = []
        var entityKeys: [(String, String)] = []
        var orderKeys: [(String, String)] = []
        var toMany: [(String, String)] = []
        var manyToMany: [(String, String)] = []
        for relationship in entity.relationships {
            let property = (relationship.name, relationship.declaringEntity)
            switch relationship.storage {
            case .foreignKey(_, let entityColumn, let orderColumn):
                foreignKeys.append(property)
                if entityColumn != nil { entityKeys.append(property) }
                if orderColumn != nil { orderKeys.append(property) }
            case .inverseForeignKey:
                toMany.append(property)
            case .joinTable:
                manyToMany.append(property)
            }
        }
        let attributes = entity.attributes.map { ($0.name, $0.declaringEntity) }
        propertyNames = [foreignKeys, entityKeys, orderKeys, attributes, toMany, manyToMany].flatMap(ordered)
    }

    /// A mask over these properties, one per bit (for tests and other orders).
    package init(propertyNames: [String]) {
        self.propertyNames = propertyNames
    }

    /// The mask's length: `(bits + 7) / 8`.
    package var byteCount: Int {
        (propertyNames.count + 7) / 8
    }

    /// The properties whose bits are set; nil when `bytes` is too short for this mask, which
    /// Core Data then reads as no property at all.
    package func propertyNames(setIn bytes: [UInt8]) -> Set<String>? {
        guard propertyNames.count <= bytes.count * 8 else { return nil }
        var names: Set<String> = []
        for (index, name) in propertyNames.enumerated() where bytes[index >> 3] & Self.bit(index) != 0 {
            names.insert(name)
        }
        return names
    }

    /// The mask with the bits of `names` set (each bit of a property named there), exactly
    /// ``byteCount`` bytes.
    package func bytes(setting names: Set<String>) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        for (index, name) in propertyNames.enumerated() where names.contains(name) {
            bytes[index >> 3] |= Self.bit(index)
        }
        return bytes
    }

    /// `bytes`, a mask of `source`'s entity, as a mask of this entity: Core Data's
    /// `NSPersistentHistoryMigrateUpdates`, by property *name* (a renamed property's bit is
    /// not carried; a removed one's is cleared). A mask too short for `source` comes out empty.
    package func remapping(_ bytes: [UInt8], from source: HistoryChangeMask) -> [UInt8] {
        self.bytes(setting: source.propertyNames(setIn: bytes) ?? [])
    }

    /// Bit `index` within its byte: the first bit is the byte's most significant.
    private static func bit(_ index: Int) -> UInt8 {
        0x80 >> UInt8(index & 7)
    }
}
