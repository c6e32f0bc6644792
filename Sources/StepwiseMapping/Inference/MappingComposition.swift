import StepwiseModel

/// Composes two inferred steps `A → B` and `B → C` into one inferred mapping `A → C` that
/// leaves the store exactly as the two steps in a row would, or refuses.
///
/// Core Data's lightweight migration runs several model changes as one pass when it can.
/// Composition does the same for Stepwise's inferred steps, with one difference that matters:
/// inferring `A → C` directly can lose data that two steps keep. Renaming `a` to `b`, then `b`
/// to `c`, leaves `c` with the renaming identifier `b`, which names nothing in `A`, so direct
/// inference would drop `a` and add an empty `c`. Composition follows the chain instead:
///
/// ```swift
/// let first = try MappingInference.inferMapping(from: v1, to: v2)    // Person → Owner
/// let second = try MappingInference.inferMapping(from: v2, to: v3)   // Owner → Keeper
/// let oneStep = try MappingComposition.compose(first, second, source: v1, intermediate: v2, destination: v3)
/// oneStep.entityMapping(named: "PersonToKeeper")?.propertyMapping(named: "displayName")?.valueExpression
/// // $source.name
/// ```
///
/// ## Rules
/// - **Entities.** A destination entity added by either step gets an
///   ``EntityMapping/Kind/add`` mapping; a source entity removed by either step gets a
///   ``EntityMapping/Kind/remove`` mapping; an entity added by the first step and removed by
///   the second disappears. The rest are ``EntityMapping/Kind/copy`` when both steps copy,
///   ``EntityMapping/Kind/transform`` otherwise, named `<Source>To<Destination>` after the
///   `A` and `C` entities, as inference names them.
/// - **Attributes.** `$source.b` in the second step takes the first step's expression for
///   `b`. An attribute the first step adds holds its default after it, so the destination gets
///   no mapping, provided its own default is the same value.
/// - **Relationships.** The manager function is rewritten to name the composed mapping of the
///   relationship's destination entity and the `A` relationship. A relationship the first step
///   adds is empty after it and stays without a mapping.
/// - **User info.** A ``TypeWidening`` made by one step carries over; two in a row are
///   refused. ``MappingInference/defaultForNullKey`` is kept where either step or one pass
///   needs it, with the destination default.
///
/// ## Refusals
/// Composition is conservative: whenever one pass could store other values, keep other
/// objects, or succeed where the two steps fail (or the reverse), it throws a
/// ``MappingError`` (``MappingError/Kind/notComposable(_:)``) instead of guessing. Among the refusals: both steps widen a type;
/// the intermediate version stores a default the destination wouldn't; it narrows a to-many
/// to a to-one, or forgets an order, that the destination restores; it bounds a relationship's
/// count, or adds a uniqueness constraint, that neither end implies; and any mapping that
/// isn't inferred. Finally, the composed mapping is checked against `A` and `C` as a mapping
/// file is (entities, destination properties, source key paths, named mappings).
///
/// A composed step validates the store against `C` only. The intermediate version's rules
/// that could fail on a valid `A` store (count bounds, uniqueness) are the refusals above.
///
/// ## Topics
/// - ``compose(_:_:source:intermediate:destination:)``
/// - ``MappingError/CompositionReason``
package enum MappingComposition {
    /// The inferred mapping from `source` to `destination` that does what `first` then
    /// `second` do.
    ///
    /// - parameters:
    ///   - first: The inferred mapping from `source` to `intermediate`.
    ///   - second: The inferred mapping from `intermediate` to `destination`.
    ///   - source: The version `A` the store is at.
    ///   - intermediate: The version `B` the composed step skips.
    ///   - destination: The version `C` the composed step writes.
    /// - returns: A ``MappingModel`` with ``MappingModel/isInferred`` set, named `"A → C"`.
    /// - throws: ``MappingError`` with ``MappingError/Kind/notComposable(_:)``, naming the
    ///   entity and property that can't be composed exactly; the two steps should then run one
    ///   after the other.
    package static func compose(
        _ first: MappingModel, _ second: MappingModel, source: ObjectModel, intermediate: ObjectModel,
        destination: ObjectModel
    ) throws(MappingError) -> MappingModel {
        do {
            return try composeOrRefuse(
                first, second, source: source, intermediate: intermediate, destination: destination)
        } catch {
            throw error.mappingError
        }
    }

    /// ``compose(_:_:source:intermediate:destination:)``, throwing the refusal itself.
    package static func composeOrRefuse(
        _ first: MappingModel, _ second: MappingModel, source: ObjectModel, intermediate: ObjectModel,
        destination: ObjectModel
    ) throws(CompositionRefusal) -> MappingModel {
        for model in [first, second] where !model.isInferred {
            throw CompositionRefusal(.notInferred(mappingModel: model.name))
        }
        guard first.sourceVersion == source.name, first.destinationVersion == intermediate.name,
            second.sourceVersion == intermediate.name, second.destinationVersion == destination.name
        else {
            throw CompositionRefusal(.versionsDontChain(first: first.name, second: second.name))
        }
        let run = try CompositionRun(
            first: first, second: second, source: source, intermediate: intermediate, destination: destination)
        let composed = MappingModel(
            from: source.name, to: destination.name, entityMappings: try run.entityMappings(), isInferred: true)
        try CompositionCheck.validate(composed, source: source, destination: destination)
        return composed
    }
}
