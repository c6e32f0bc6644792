/// A named fetch index (Xcode's "Fetch Indexes" section of an entity).
public struct FetchIndex: Sendable, Hashable {
    /// One property of a fetch index.
    public struct Element: Sendable, Hashable {
        /// The indexed property's name.
        public var property: String
        /// `"Binary"` (a B-tree index) or `"R-Tree"`.
        public var kind: String
        /// Whether the index sorts ascending.
        public var isAscending: Bool

        public init(property: String, kind: String = "Binary", isAscending: Bool = true) {
            self.property = property
            self.kind = kind
            self.isAscending = isAscending
        }
    }

    /// The index's name, unique within the entity.
    public var name: String
    /// The indexed properties, in order.
    public var elements: [Element]

    public init(name: String, elements: [Element]) {
        self.name = name
        self.elements = elements
    }
}
