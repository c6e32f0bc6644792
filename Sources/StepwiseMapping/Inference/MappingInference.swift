import StepwiseModel

/// Infers the mapping between two model versions that Core Data's lightweight migration
/// would, or says precisely why it can't.
///
/// ```swift
/// let mapping = try MappingInference.inferMapping(from: moody1, to: moody2)
/// mapping.entityMapping(named: "MoodToMood")?.propertyMapping(named: "remoteID")?.valueExpression
/// // $source.remoteIdentifier
/// ```
///
/// The result is a ``MappingModel`` with ``MappingModel/isInferred`` set, whose expressions
/// are only key paths (`$source.name`) and, for relationships, the one `$manager` function
/// Core Data itself infers, so the engine can run it as set-based SQL.
///
/// ## Entities
/// A destination entity continues the source entity named by its renaming identifier
/// (Xcode's `elementID`), else the one with its own name, else one carrying the same renaming
/// identifier (a rename made earlier that both versions still record). Then:
/// - an unmatched source entity gets a ``EntityMapping/Kind/remove`` mapping (`<Source>To`):
///   its rows are dropped;
/// - an unmatched destination entity gets an ``EntityMapping/Kind/add`` mapping (`To<Destination>`):
///   nothing is created;
/// - a matched pair gets a ``EntityMapping/Kind/copy`` mapping when the two entities have the
///   same Core Data version hash (same name, abstractness, parent, stored properties and
///   constraints), else a ``EntityMapping/Kind/transform`` one, named `<Source>To<Destination>`.
///
/// Every entity gets a mapping, abstract ones included. An entity mapping migrates exactly its
/// source entity's own rows (its `Z_ENT`, not its subentities', which have their own mappings),
/// so an abstract entity's mapping migrates nothing; it is kept so that every destination
/// entity has a mapping for relationship expressions to name. Copy and transform mappings
/// both list a property mapping for every destination property that has a source.
///
/// ## Properties
/// Within a matched pair, destination properties are matched the same way against the source
/// entity's stored properties, *inherited ones included*; transient properties are ignored. So
/// a property moved up or down a hierarchy, a new parent, or an entity moved out of its
/// hierarchy all carry their values over.
/// - An attribute maps to `$source.<sourceName>`. A composite attribute's leaves map one by
///   one, each named by its key path (`author.person`): an element added, removed, renamed or
///   retyped is inferred like an attribute.
/// - A new attribute gets no mapping: the engine stores its default value (or NULL). A new
///   non-optional attribute without a default is a problem.
/// - Non-optional → optional is fine. Optional → non-optional needs a default value: the
///   mapping records it under ``defaultForNullKey`` and the engine stores it in the rows whose
///   value is NULL (`COALESCE(x, default)`).
/// - A type change must be a ``TypeWidening`` (recorded under ``TypeWidening/userInfoKey``,
///   with the SQL cast the engine runs); any other is a problem.
/// - A relationship maps to ``relationshipExpression(mappingNamed:sourceRelationship:)``, by
///   name, as Core Data's does, whatever its destination entity becomes. To-one ↔ to-many and
///   unordered ↔ ordered changes are fine. Links to objects that don't become the new
///   destination are left out, as Core Data leaves them out, and named
///   (``DroppedData/Reason/destinationChanged``). A relationship becoming required is a
///   problem; so is a new required relationship (a non-optional to-one, or a to-many with a
///   minimum count).
///
/// ## Problems
/// Entities of separate source hierarchies sharing one destination hierarchy, several
/// destination entities or properties claiming the same source, and a concrete entity
/// becoming abstract are problems too. Problems found on an abstract source entity's own
/// mapping are not reported: it has no rows, and its concrete subentities, whose mappings see
/// the same inherited properties, report them.
///
/// Inference collects every problem before it throws, so one run names all that needs fixing.
///
/// ## Topics
/// - ``inferMapping(from:to:)``
/// - ``relationshipExpression(mappingNamed:sourceRelationship:)``
/// - ``TypeWidening``
/// - ``InferenceProblem``
package enum MappingInference {
    /// The selector of the one function inferred mappings use.
    package static let destinationInstancesSelector = "destinationInstancesForEntityMappingNamed:sourceInstances:"

    /// The ``PropertyMapping/userInfo`` key of an optional attribute that becomes non-optional:
    /// its value is the destination default (as the model file spells it, e.g. `"0"`), which
    /// the engine stores where the source value is NULL.
    package static let defaultForNullKey = "stepwise.defaultForNull"

    /// Infers the mapping from `source` to `destination`, as Core Data's lightweight migration
    /// would, plus the lossless type changes of ``TypeWidening``.
    ///
    /// Both models should be valid (``/StepwiseModel/ObjectModel/validate(file:)``), as
    /// ``/StepwiseModel/ModelBundle`` ensures.
    ///
    /// - throws: ``MappingError`` of kind ``MappingError/Kind/notInferable(_:)`` listing every
    ///   problem, with ``MappingError/mappingModel`` set to `"<source> → <destination>"`.
    package static func inferMapping(
        from source: ObjectModel, to destination: ObjectModel
    ) throws(MappingError) -> MappingModel {
        // A composite migrates as its leaves, each like an attribute of its own (`author.person`),
        // as its store keeps them: one column each.
        var inference = InferenceRun(
            source: source.flatteningComposites(), destination: destination.flatteningComposites())
        let mappings = inference.entityMappings()
        let model = MappingModel(
            from: source.name, to: destination.name, entityMappings: mappings, isInferred: true)
        guard inference.problems.isEmpty else {
            throw MappingError(.notInferable(inference.problems), mappingModel: model.name)
        }
        return model
    }

    /// The value of an inferred relationship mapping, as Core Data infers it:
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "<mapping>", $source.<relationship>)`.
    ///
    /// `mappingName` is the mapping whose destination entity is the destination relationship's
    /// destination entity `D` (there is always exactly one in an inferred model; it may be an
    /// ``EntityMapping/Kind/add`` mapping, e.g. for a new abstract parent).
    ///
    /// **What the engine must do.** The objects the source relationship holds are often
    /// migrated by *other* mappings than the named one: those of `D`'s subentities, or of
    /// entities that moved under `D`. So in an inferred mapping model the name stands for the
    /// entity kind `D`: each held source object maps to the destination instance created from
    /// it by the mapping of its own source entity (its `Z_ENT`); inference guarantees that this
    /// mapping's destination entity is `D` or one of its subentities. An object whose entity
    /// has a ``EntityMapping/Kind/remove`` mapping is dropped from the relationship. Since an
    /// inferred model has one mapping per source entity, this is a join on the source primary
    /// key; no per-row function call is needed. (For explicit mapping models, Core Data's rule
    /// is narrower, only instances created by the named mapping, and the two agree whenever
    /// the named mapping is the only one producing `D`s.)
    ///
    /// A to-many source held by a to-one destination keeps one object, which Core Data leaves
    /// unspecified: the engine should keep the first in order (ordered) or the lowest source
    /// primary key. A to-one source held by a to-many destination holds that one object. For an
    /// ordered destination, order follows the source order (ordered source) or primary keys.
    package static func relationshipExpression(mappingNamed mappingName: String, sourceRelationship: String)
        -> Expression
    {
        .function(
            target: .variable(.manager), selector: destinationInstancesSelector,
            arguments: [.constant(.string(mappingName)), .keyPath(root: .source, path: [sourceRelationship])])
    }

    /// The mapping name and source relationship of an expression built by
    /// ``relationshipExpression(mappingNamed:sourceRelationship:)``; nil for any other expression.
    package static func destinationInstancesCall(
        in expression: Expression
    ) -> (mappingName: String, sourceKeyPath: [String])? {
        guard case .function(let target, let selector, let arguments) = expression,
            target == .variable(.manager), selector == destinationInstancesSelector, arguments.count == 2,
            case .constant(.string(let name)) = arguments[0], case .keyPath(.source, let path) = arguments[1]
        else { return nil }
        return (name, path)
    }

    /// The source property an inferred property mapping reads: `name` for `$source.name`, or
    /// for the source instances of ``relationshipExpression(mappingNamed:sourceRelationship:)``;
    /// nil for any other expression.
    package static func sourceProperty(readBy expression: Expression) -> String? {
        if case .keyPath(.source, let path) = expression, path.count == 1 { return path[0] }
        if let call = destinationInstancesCall(in: expression), call.sourceKeyPath.count == 1 {
            return call.sourceKeyPath[0]
        }
        return nil
    }
}
