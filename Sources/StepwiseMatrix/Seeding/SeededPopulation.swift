import StepwiseModel
import StepwiseStore

/// The rows of a seeded store that are "kind of" one entity (its own and its concrete
/// subentities'), numbered 0 to `count - 1` across their segments.
struct SeededPopulation {
    let segments: [SeededStore.Segment]

    /// The rows of `entity` and its subentities in `store`.
    init(kindOf entity: Entity, model: ObjectModel, store: SeededStore) {
        let names = Set(model.hierarchy(from: entity).filter { !$0.isAbstract }.map(\.name))
        segments = store.segments.filter { names.contains($0.entity) && $0.count > 0 }
    }

    var count: Int { segments.reduce(0) { $0 + $1.count } }

    /// The object numbered `index`.
    func object(_ index: Int) -> ObjectID {
        var rest = index
        for segment in segments {
            if rest < segment.count {
                return ObjectID(entity: segment.entity, primaryKey: segment.firstPrimaryKey + Int64(rest))
            }
            rest -= segment.count
        }
        // Callers stay below `count`; an out-of-range index names no row.
        return ObjectID(entity: segments.last?.entity ?? "", primaryKey: -1)
    }
}

/// A seeded permutation of `0..<count`: `x ↦ (a·x + b) mod count` with `a` coprime to
/// `count`, so consecutive link numbers land on scattered but evenly loaded destinations.
struct SeededPermutation {
    let count: Int
    let multiplier: Int
    let offset: Int

    init(count: Int, random: inout SplitMix64) {
        self.count = max(count, 1)
        var multiplier = 1
        for _ in 0..<16 {
            let candidate = 1 + random.next(below: self.count)
            if Self.gcd(candidate, self.count) == 1 {
                multiplier = candidate
                break
            }
        }
        self.multiplier = multiplier
        offset = random.next(below: self.count)
    }

    /// The image of `index` (taken modulo `count`).
    func callAsFunction(_ index: Int) -> Int {
        let x = index % count
        // Both factors are below `count`, so the product fits in 64 bits for any real store.
        return Int((UInt64(multiplier) &* UInt64(x) &+ UInt64(offset)) % UInt64(count))
    }

    private static func gcd(_ a: Int, _ b: Int) -> Int {
        b == 0 ? a : gcd(b, a % b)
    }
}
