/// The order in which Core Data visits an entity's properties when it pairs each relationship
/// with its inverse: the order of the slots of two private hash tables.
///
/// `NSSQLEntity._generateInverseRelationshipsAndMore` (decompiled Core Data of iOS 26.1) takes the
/// keys of the entity's property table, a "Leopard" table (`_PF_Leopard_CFDictionarySetValue`),
/// in the order of its slots, inserts them in that order into a "Tiger" table sized for their
/// count (`PF_Tiger_CFDictionaryCreate`, `PF_Tiger_CFDictionarySetValue`), and visits the
/// properties in the order of the Tiger table's slots
/// (`PF_Tiger_CFDictionaryGetKeysAndValues`). The first of two relationships of one entity that
/// are each other's to-many inverse to be visited names their join table (``StoreLayout``,
/// "Which side names a join table").
///
/// Both tables hash a key's UTF-16 code units and probe linearly. A key's slot depends on its
/// hash and the table's size; the order keys were inserted in matters only when two of them
/// collide, which is why the Leopard table's order is kept as the Tiger table's insertion order.
/// The hashes are computed in 32 bits: the 64-bit variants disagree with Wire's stores (41 of
/// 351 join tables), the 32-bit ones agree with all of them.
enum CoreDataPropertyOrder {
    /// The keys in the order Core Data visits them: the slots of a Tiger table sized for
    /// `keys.count` into which `keys` are inserted in this order (the slot order of the entity's
    /// Leopard table, ``LeopardTable/keys``).
    static func visitingOrder(of keys: [String]) -> [String] {
        // The smallest size whose capacity holds every key; Core Data has no larger one.
        let sizeIndex = tigerCapacities.firstIndex { $0 >= keys.count } ?? (tigerCapacities.count - 1)
        let bucketCount = tigerBucketCounts[sizeIndex]
        var slots = [String?](repeating: nil, count: bucketCount)
        for key in keys {
            var index = Int(tigerHash(key) % UInt32(bucketCount))
            var probes = 0
            while let occupant = slots[index], occupant != key, probes < bucketCount {
                index = (index + 1) % bucketCount
                probes += 1
            }
            slots[index] = key
        }
        return slots.compactMap { $0 }
    }

    /// A Tiger table's capacities, smallest first: a table is created with the first that holds
    /// the count it is given.
    static let tigerCapacities = [
        4, 8, 17, 29, 47, 76, 123, 199, 322, 521, 843, 1364, 2207, 3571, 5778, 9349, 15127, 24476, 39603,
        64079, 103682,
    ]
    /// The number of buckets of a Tiger table of each capacity (prime).
    static let tigerBucketCounts = [
        5, 11, 23, 41, 67, 113, 199, 317, 521, 839, 1361, 2207, 3571, 5779, 9349, 15121, 24473, 39607, 64081,
        103681, 167759,
    ]

    /// The Tiger table's hash of a string: of its UTF-16 code units, all of them up to 23, else
    /// six groups of four (the first eight and the last sixteen).
    static func tigerHash(_ key: String) -> UInt32 {
        let units = Array(key.utf16).map(UInt32.init)
        let length = units.count
        var result = UInt32(truncatingIfNeeded: length)
        if length > 23 {
            for start in [0, 4, length - 16, length - 12, length - 8, length - 4] {
                result = result &* 67_503_105 &+ group(units, at: start)
            }
        } else {
            var index = 0
            while index + 4 <= length {
                result = result &* 67_503_105 &+ group(units, at: index)
                index += 4
            }
            while index < length {
                result = result &* 257 &+ units[index]
                index += 1
            }
        }
        return (result &<< UInt32(length & 31)) &+ result
    }

    /// The Leopard table's string hash: of the UTF-16 code units, all of them below 97, else the
    /// first, middle and last 32.
    static func leopardStringHash(_ key: String) -> UInt32 {
        var units = Array(key.utf16).map(UInt32.init)
        let length = units.count
        if length >= 97 {
            let middle = length >> 1
            units = Array(units[0..<32] + units[(middle - 16)..<(middle + 16)] + units[(length - 32)...])
        }
        var result = UInt32(truncatingIfNeeded: length)
        var index = 0
        while index + 4 <= units.count {
            result = result &* 67_503_105 &+ group(units, at: index)
            index += 4
        }
        while index < units.count {
            result = result &* 257 &+ units[index]
            index += 1
        }
        return (result &<< UInt32(length & 31)) &+ result
    }

    /// The Leopard table's bucket hash: ``leopardStringHash(_:)`` mixed in eight rounds; the
    /// bucket is its low bits.
    static func leopardBucketHash(_ key: String) -> UInt32 {
        let a = leopardStringHash(key)
        let b = (1_264_676_453 &- a) ^ ((a &- 1) &<< 8)
        let c = (2 &- a &- b) ^ (b &>> 13)
        let d = (a &- 1 &- b &- c) ^ (c &>> 12)
        let e = (b &- c &- d) ^ (d &<< 16)
        let f = (c &- d &- e) ^ (e &>> 5)
        let g = (d &- e &- f) ^ (f &>> 3)
        let h = (e &- f &- g) ^ (g &<< 10)
        return (f &- g &- h) ^ (h &>> 15)
    }

    /// Four code units from `start` folded as both hashes fold them.
    private static func group(_ units: [UInt32], at start: Int) -> UInt32 {
        units[start] &* 16_974_593 &+ units[start + 1] &* 66_049 &+ units[start + 2] &* 257 &+ units[start + 3]
    }

    /// An entity's property table, keys only: Core Data's Leopard table, whose slot order is the
    /// order in which ``visitingOrder(of:)`` receives the keys.
    ///
    /// It holds three keys per four buckets: when full, it doubles, and the keys it had move to
    /// their new slots in the order of their old ones.
    struct LeopardTable {
        private var slots: [String?] = []
        private var capacity = 3
        /// The number of keys.
        private(set) var count = 0
        private var members: Set<String> = []

        /// An empty table.
        init() {}

        /// The keys in the order of their slots.
        var keys: [String] { slots.compactMap { $0 } }

        /// Whether the table holds `key`.
        func contains(_ key: String) -> Bool { members.contains(key) }

        /// Adds `key`, growing the table first when it is full (even if `key` is there already,
        /// as Core Data does).
        mutating func insert(_ key: String) {
            if count == capacity || slots.isEmpty {
                let old = slots
                let doublings = bitLength(count / 3)
                capacity = 3 << doublings
                slots = [String?](repeating: nil, count: 4 << bitLength((capacity - 1) / 3))
                for case let moved? in old {
                    slots[slot(for: moved)] = moved
                }
            }
            let index = slot(for: key)
            if slots[index] != key {
                slots[index] = key
                count += 1
                members.insert(key)
            }
        }

        /// The slot holding `key`, or the empty one where it would go.
        private func slot(for key: String) -> Int {
            let bucketCount = slots.count
            var index = Int(CoreDataPropertyOrder.leopardBucketHash(key) & UInt32(bucketCount - 1))
            var probes = 0
            while let occupant = slots[index], occupant != key, probes < bucketCount {
                index = (index + 1) % bucketCount
                probes += 1
            }
            return index
        }

        /// The number of bits needed to write `value` (0 for 0).
        private func bitLength(_ value: Int) -> Int {
            value <= 0 ? 0 : Int.bitWidth - value.leadingZeroBitCount
        }
    }
}
