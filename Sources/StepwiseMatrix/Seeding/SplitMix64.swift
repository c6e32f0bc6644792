/// A seeded pseudo-random number generator: Steele, Lea and Flood's SplitMix64.
///
/// Seeded stores must be the same on every machine and every Swift release, so nothing here
/// relies on the standard library's random algorithms (`Int.random(in:using:)` may change
/// between releases) or on `Hasher` (seeded per process). The generator, the bounded draw and
/// the string hash are all spelled out.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let roll = random.next(below: 6)      // 0...5, the same on every run
/// ```
package struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's state; each call to ``next()`` advances it by the golden-ratio increment.
    package private(set) var state: UInt64

    /// A generator whose sequence is fully determined by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// A generator for one purpose of one seed: `SplitMix64(seed: 7, "Recipe.name", 12)`
    /// gives the same numbers for row 12 of `Recipe.name` whatever else was drawn before, so
    /// one value never shifts another.
    ///
    /// - parameters:
    ///   - seed: The store's seed.
    ///   - label: What the numbers are for (an entity and property name).
    ///   - index: A row index, or any other number that tells draws of one label apart.
    package init(seed: UInt64, _ label: String, _ index: Int = 0) {
        self.init(seed: seed, labelHash: Self.hash(label), index)
    }

    /// `SplitMix64(seed:_:_:)` for a label whose ``hash(_:)`` is known: a caller drawing for
    /// many rows of one label hashes it once.
    package init(seed: UInt64, labelHash: UInt64, _ index: Int = 0) {
        var mixer = SplitMix64(seed: seed ^ labelHash)
        let first = mixer.next()
        state = first ^ (UInt64(bitPattern: Int64(index)) &* 0xD1B5_4A32_D192_ED03)
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (0 when `bound` is 0 or less), by Lemire's multiply-shift:
    /// the high half of a 128-bit product, whose bias is below 2⁻³² for the bounds used here.
    package mutating func next(below bound: Int) -> Int {
        guard bound > 0 else { return 0 }
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// True with probability `numerator / denominator`.
    package mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        next(below: denominator) < numerator
    }

    /// A double in `0..<1` with 53 random bits.
    package mutating func nextUnitDouble() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// FNV-1a over the UTF-8 bytes of `text`: a stable 64-bit hash, unlike `Hasher`.
    package static func hash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
