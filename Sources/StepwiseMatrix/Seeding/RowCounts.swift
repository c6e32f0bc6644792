/// How many rows a seeded store gives each concrete entity.
///
/// ```swift
/// try SeededStore.create(at: url, model: model, seed: 1, rows: 20)                  // 20 each
/// try SeededStore.create(at: url, model: model, seed: 1, rows: ["Chef": 3, "Recipe": 9])  // others 0
/// try SeededStore.create(at: url, model: model, seed: 1, rows: RowCounts(default: 5, ["Recipe": 50]))
/// ```
public struct RowCounts: Sendable, Hashable, ExpressibleByIntegerLiteral, ExpressibleByDictionaryLiteral {
    /// The count of every concrete entity not in ``counts``.
    public var defaultCount: Int
    /// Counts by entity name.
    public var counts: [String: Int]

    /// `defaultCount` rows for every concrete entity, except those in `counts`.
    public init(default defaultCount: Int, _ counts: [String: Int] = [:]) {
        self.defaultCount = defaultCount
        self.counts = counts
    }

    /// The same count for every concrete entity.
    public init(integerLiteral value: Int) {
        self.init(default: value)
    }

    /// The given counts; entities left out get no rows.
    public init(dictionaryLiteral elements: (String, Int)...) {
        self.init(default: 0, Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The rows of one entity.
    public func count(for entity: String) -> Int {
        counts[entity] ?? defaultCount
    }
}
