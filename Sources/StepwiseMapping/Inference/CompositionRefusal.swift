extension MappingError {
    /// Why `MappingComposition` won't merge two inferred steps into one pass
    /// (``Kind/notComposable(_:)``): which rule of the composition would have changed what the
    /// store ends up holding (or whether a step fails). A refusal is not a failure: the two
    /// steps still run one after the other.
    public indirect enum CompositionReason: Sendable, Hashable {
        /// A mapping was written, not inferred: only inferred mappings are composed.
        case notInferred(mappingModel: String)
        /// The mappings don't chain: the first doesn't end where the second starts, or the
        /// models given are other versions.
        case versionsDontChain(first: String, second: String)
        /// An entity or property mapping isn't of the shape inference makes (a filter, a
        /// policy, user info, an expression other than `$source.x` or the manager function).
        case notInferredShape(String)
        /// Both steps change the attribute's type: the two conversions in a row may not give
        /// what one conversion gives (`1` → `1.0` → `"1.0"`, but `1` → `"1"`).
        case stackedWidenings(first: TypeWidening, second: TypeWidening)
        /// The intermediate version stores a default where the value is missing, which the
        /// destination wouldn't store in one pass (its default differs, or it is optional).
        case intermediateDefault(intermediate: String?, destination: String?)
        /// The intermediate version keeps fewer objects than both ends hold (a to-many made
        /// to-one and back): one pass would keep objects the two steps drop.
        case intermediateKeepsOneObject
        /// The intermediate version forgets an order that the destination keeps again.
        case intermediateLosesOrder
        /// The destination keeps one object, or an order, chosen by the intermediate store's
        /// primary keys, which the first step renumbers across several entities.
        case orderDependsOnIntermediateKeys
        /// The intermediate version adds this relationship as the inverse of one the first
        /// step carries: it shares that one's storage, so it isn't empty after the first step.
        case filledThroughItsInverse
        /// The intermediate version bounds how many objects the relationship holds, and
        /// neither end implies the bound: the two steps could fail where one pass wouldn't.
        case intermediateCountBound(minimum: Int, maximum: Int)
        /// The intermediate version has a uniqueness constraint that neither end has: the
        /// two steps could fail where one pass wouldn't.
        case intermediateUniquenessConstraint([String])
        /// The composed mapping fails the checks a mapping file gets against the two versions.
        case invalidComposition(MappingError)
    }
}

extension MappingError.CompositionReason {
    /// The reason in words, after the entity and property.
    package var explanation: String {
        switch self {
        case .notInferred(let name):
            return "the mapping '\(name)' is explicit; only inferred steps are merged"
        case .versionsDontChain(let first, let second):
            return "'\(first)' and '\(second)' don't chain"
        case .notInferredShape(let what):
            return "\(what) is not what inference makes"
        case .stackedWidenings(let first, let second):
            return "the type changes twice (\(first), then \(second))"
        case .intermediateDefault(let intermediate, let destination):
            return
                "the intermediate version stores \(Self.spell(intermediate)) where one pass would store \(Self.spell(destination))"
        case .intermediateKeepsOneObject:
            return "the intermediate version keeps one object of a to-many the destination restores"
        case .intermediateLosesOrder:
            return "the intermediate version forgets an order the destination keeps"
        case .orderDependsOnIntermediateKeys:
            return "which objects are kept, or their order, depends on the intermediate store's primary keys"
        case .filledThroughItsInverse:
            return "the intermediate version adds it as the inverse of a relationship the first step carries"
        case .intermediateCountBound(let minimum, let maximum):
            return
                "the intermediate version bounds the count (\(minimum)...\(maximum == 0 ? "any" : String(maximum))) and neither end implies it"
        case .intermediateUniquenessConstraint(let properties):
            return
                "the intermediate version's uniqueness constraint (\(properties.joined(separator: ", "))) isn't implied by either end"
        case .invalidComposition(let error):
            return "the composed mapping is invalid: \(error)"
        }
    }

    private static func spell(_ defaultValue: String?) -> String {
        defaultValue.map { "the default \"\($0)\"" } ?? "no value"
    }
}

/// Why `MappingComposition` won't merge two inferred steps, naming the entity and property
/// concerned, while the composition runs. ``MappingComposition/compose(_:_:source:intermediate:destination:)``
/// reports it to callers as a ``MappingError`` (``mappingError``).
package struct CompositionRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    package typealias Reason = MappingError.CompositionReason

    package var reason: Reason
    /// The destination entity concerned (the intermediate one for intermediate constraints).
    package var entity: String?
    /// The destination property concerned.
    package var property: String?

    package init(_ reason: Reason, entity: String? = nil, property: String? = nil) {
        self.reason = reason
        self.entity = entity
        self.property = property
    }

    /// The refusal as the error `MappingComposition` throws: ``MappingError/Kind/notComposable(_:)``
    /// naming the entity and property.
    package var mappingError: MappingError {
        MappingError(.notComposable(reason), entity: entity, property: property)
    }

    package var description: String { mappingError.description }
}
