/// How a derived attribute's value is computed: Core Data's `NSDerivedAttributeDescription`
/// (Xcode 11+, `derived="YES" derivationExpression="…"` in a source model).
///
/// Core Data computes a derived value in SQL, with `Z_DA_…` triggers it creates beside the
/// tables, so the value is current after every save. Stepwise keeps the same triggers
/// (`DerivedAttributeLayout` in StepwiseStore) and computes the values of the rows each
/// upgrade step writes.
///
/// The model editor offers five shapes, the ``Kind`` cases. Any other expression is refused by
/// name when the model is read (`ModelProblem.unsupportedDerivation`).
public struct Derivation: Sendable, Hashable {
    /// The expression exactly as the model file spells it, `lowercase:(email)`.
    public var expression: String
    /// What the expression computes.
    public var kind: Kind

    /// A derivation with an already classified expression.
    public init(expression: String, kind: Kind) {
        self.expression = expression
        self.kind = kind
    }

    /// The shapes of derivation Core Data maintains with triggers.
    public enum Kind: Sendable, Hashable {
        /// Another attribute's value, on the same entity (`["name"]`) or through to-one
        /// relationships (`["additionalAttributes", "cameraCaptureDevice"]`).
        case keyPath([String])
        /// The number of objects in a to-many relationship: `items.@count`.
        case count(relationship: [String])
        /// A string function of a string attribute's key path: `lowercase:(email)`.
        case string(StringFunction, keyPath: [String])
        /// The time of the last save of the row: `now()`.
        case now
        /// An aggregate over an attribute of a to-many relationship's objects: `items.price.@sum`
        /// is `.aggregate(.sum, relationship: ["items"], attribute: "price")`.
        case aggregate(AggregateFunction, relationship: [String], attribute: String)
    }

    /// The string functions the model editor offers.
    public enum StringFunction: String, Sendable, Hashable, CaseIterable {
        /// `lowercase:(…)`.
        case lowercase
        /// `uppercase:(…)`.
        case uppercase
        /// `canonical:(…)`: case- and diacritic-insensitive form, as `[cd]` comparisons use.
        case canonical
    }

    /// The aggregates over a to-many relationship Core Data maintains.
    public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
        /// `@sum`.
        case sum
        /// `@min`.
        case min
        /// `@max`.
        case max
    }
}
