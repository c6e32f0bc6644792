import Stepwise
import StepwiseMapping
import StepwiseModel

/// An entity whose rows an upgrade carries over one for one, through every step of a plan,
/// and the attributes whose values it carries unchanged: what a matrix checks row by row.
///
/// An entity is copied by a step when exactly one entity mapping reads it, that mapping is a
/// copy or transform mapping without filter and without policy (so it makes exactly one
/// object per source row, in source order), and no other mapping of the step makes objects of
/// the same destination entity. Renames are followed: `Person` in `Pets` is `Keeper` in
/// `Pets 3`.
///
/// An attribute is carried unchanged when its mapping is a plain `$source.<name>` of the same
/// type, without type widening, and without the default that replaces nil when an optional
/// attribute becomes required. Every other attribute may rightly change, and isn't compared.
///
/// What a step's policies declare they write in other entities
/// (``/StepwiseMapping/EntityMigrationPolicy/writesOtherEntities``) is left out too: a declared
/// attribute isn't carried unchanged, and an entity whose rows a policy declares it writes
/// isn't copied.
struct CopiedEntity: Hashable {
    /// The entity in the store's version.
    var source: String
    /// The same entity in the target version.
    var destination: String
    /// For each attribute carried unchanged: its name in the target version → its name in
    /// the store's version.
    var attributes: [String: String]

    /// The entities every step of `plan` copies, from the plan's first version to its last,
    /// leaving out what the policies of `policies` declare they write. The versions are the
    /// plan's own: each step holds its source and destination models.
    static func entities(through plan: UpgradePlan, policies: PolicyRegistry = PolicyRegistry()) -> [CopiedEntity] {
        // As stored: a composite is its leaves (`author.person`), each compared like an
        // attribute, and steps map them one by one.
        guard let first = plan.steps.first?.source.flatteningComposites() else { return [] }
        var chains: [CopiedEntity] = first.entities.filter { !$0.isAbstract }.map { entity in
            let names = first.allAttributes(of: entity).filter { !$0.isTransient }.map(\.name)
            return CopiedEntity(
                source: entity.name, destination: entity.name,
                attributes: Dictionary(names.map { ($0, $0) }, uniquingKeysWith: { first, _ in first }))
        }
        for step in plan.steps {
            let (from, to) = (step.source.flatteningComposites(), step.destination.flatteningComposites())
            let writes = PolicyWrites(step: step, policies: policies)
            chains = chains.compactMap { chain in
                guard var next = chain.following(step, from: from, to: to), !writes.writesRows(of: next.destination)
                else { return nil }
                for attribute in writes.attributes(of: next.destination) { next.attributes[attribute] = nil }
                return next
            }
        }
        return chains.sorted { $0.source < $1.source }
    }

    /// This chain one step further, or nil when the step doesn't copy its entity.
    private func following(_ step: PlannedStep, from: ObjectModel, to: ObjectModel) -> CopiedEntity? {
        let mappings = step.mappingModels.flatMap(\.entityMappings)
        let reading = mappings.filter { $0.sourceEntity == destination && $0.kind != .remove && $0.kind != .add }
        guard reading.count == 1, let mapping = reading.first, mapping.kind == .copy || mapping.kind == .transform,
            mapping.filter == nil, mapping.policyName == nil,
            let next = mapping.destinationEntity,
            mappings.filter({ $0.destinationEntity == next && $0.kind != .remove }).count == 1,
            let sourceEntity = from[entity: destination], let destinationEntity = to[entity: next],
            !destinationEntity.isAbstract
        else { return nil }
        let sourceAttributes = from.allAttributes(of: sourceEntity)
        let destinationAttributes = to.allAttributes(of: destinationEntity)
        var carried: [String: String] = [:]
        for (current, original) in attributes {
            guard let old = sourceAttributes.first(where: { $0.name == current }) else { continue }
            for propertyMapping in mapping.attributeMappings {
                // A composite's element reads as one key (`author.person`, inferred) or as the
                // path through the composite (`$source.author.person`, written): one leaf.
                guard case .keyPath(.source, let path) = propertyMapping.valueExpression,
                    path.joined(separator: ".") == current,
                    propertyMapping.widening == nil,
                    propertyMapping.userInfo[MappingInference.defaultForNullKey] == nil,
                    let new = destinationAttributes.first(where: { $0.name == propertyMapping.name }),
                    new.type == old.type, !new.isTransient,
                    // A required attribute with a default takes it where the source was nil.
                    new.isOptional || !old.isOptional || new.defaultValue == nil
                else { continue }
                carried[new.name] = original
            }
        }
        return CopiedEntity(source: source, destination: next, attributes: carried)
    }
}
