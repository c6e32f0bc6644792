extension UpgradeMatrix {
    /// One cell of the matrix: a store at `from` upgraded to `to`.
    ///
    /// Its description, `"Recipes 2 → Recipes 4"`, is what Swift Testing shows for a
    /// parameterized test's argument.
    public struct Pair: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The version the seeded store is created at.
        public var from: String
        /// The version it is upgraded to.
        public var to: String

        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }

        public var description: String { "\(from) → \(to)" }
    }

    /// What ``UpgradeMatrix/check(_:rows:seed:)`` checked for one pair, all of it passed.
    public struct PairResult: Sendable, Hashable, Codable {
        public var pair: Pair
        /// The steps of the plan, `"Recipes → Recipes 2 (explicit)"`.
        public var steps: [String]
        /// Rows in the seeded store.
        public var seededRows: Int
        /// Entities whose rows every step copies, whose row counts were compared.
        public var copiedEntities: [String]
        /// Attribute values compared between the seeded store and the upgraded one.
        public var valuesCompared: Int
        /// Upgrade paths whose results were compared: 2 when the plan has several steps
        /// (all at once, and stopping at each version), 1 otherwise.
        public var pathsCompared: Int
        /// Wall-clock time of the whole check: seeding, upgrades and comparisons.
        public var seconds: Double
        /// What no check covered, in the target version's names, so that a passing pair says
        /// what it did not check: `"Cuisine"` for an entity holding rows that no step copies
        /// one for one (made by a policy, say), `"Recipe.rating"` for an attribute of a copied
        /// entity whose values weren't compared (new, converted, or computed). Such data is
        /// still checked for integrity and, with several steps, path independence.
        public var unchecked: [String] = []
    }
}
