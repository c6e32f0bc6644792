import StepwiseModel

extension DroppedData {
    /// What a step running `models` from `source` to `destination` drops, not yet counted.
    ///
    /// - **Entities.** A concrete source entity that no entity mapping carries to a
    ///   destination (or hands to a policy) loses its rows. An inferred step:
    ///   ``Reason/removedFromModel``. An explicit one: ``Reason/droppedByMapping`` when an
    ///   entity mapping with no destination names it, ``Reason/leftOutOfMapping`` when no
    ///   entity mapping names it although the destination still has it, else
    ///   ``Reason/removedWithExplicitMapping``. Abstract entities have no rows of their own
    ///   and are never listed.
    /// - **Properties**, for an inferred step only: a stored source property that the
    ///   entity's mapping doesn't read. A relationship is listed only when its inverse isn't
    ///   carried either: otherwise the links survive through the inverse.
    ///
    /// An explicit mapping's property mappings are the team's own decisions (expressions and
    /// policies may read any property), so its properties are not listed.
    ///
    /// - parameters:
    ///   - models: The step's mapping models; empty means the inferred one, which has no
    ///     property drops listed until it is inferred and passed here.
    ///   - source: The step's source version.
    ///   - destination: The step's destination version.
    package static func planned(
        by models: [MappingModel], from source: ObjectModel, to destination: ObjectModel
    ) -> [DroppedData] {
        // A composite is dropped leaf by leaf, as mappings read it (`author.person`): its own
        // name is read by no mapping.
        DropPlanner(
            models: models, source: source.flatteningComposites(), destination: destination.flatteningComposites()
        ).drops()
    }
}

/// Finds a step's drops for ``DroppedData/planned(by:from:to:)``.
private struct DropPlanner {
    let source: ObjectModel
    let destination: ObjectModel
    let mappings: [EntityMapping]
    let isInferred: Bool

    /// Per source entity, the destination entities the carrying mappings make of it: what its
    /// objects become, for ``linksLeftOut(by:of:)``.
    let madeFrom: [String: [Entity]]

    init(models: [MappingModel], source: ObjectModel, destination: ObjectModel) {
        self.source = source
        self.destination = destination
        mappings = models.flatMap(\.entityMappings)
        isInferred = !models.isEmpty && models.allSatisfy(\.isInferred)
        var madeFrom: [String: [Entity]] = [:]
        for mapping in mappings where Self.carries(mapping) {
            guard let sourceName = mapping.sourceEntity,
                let made = mapping.destinationEntity.flatMap({ destination[entity: $0] })
            else { continue }
            madeFrom[sourceName, default: []].append(made)
        }
        self.madeFrom = madeFrom
    }

    func drops() -> [DroppedData] {
        var drops: [DroppedData] = []
        for entity in source.entities where !entity.isAbstract {
            let reading = mappings.filter { $0.sourceEntity == entity.name }
            let carrying = reading.filter(Self.carries)
            guard !carrying.isEmpty else {
                drops.append(
                    DroppedData(entity: entity.name, kind: .entity, reason: reason(forRowsOf: entity, reading)))
                continue
            }
            guard isInferred else { continue }
            drops += linksLeftOut(by: carrying, of: entity)
            let read = Set(carrying.flatMap(Self.sourcePropertiesRead))
            for property in source.allProperties(of: entity)
            where !property.isTransient && !read.contains(property.name) {
                switch property {
                case .attribute:
                    drops.append(
                        DroppedData(
                            entity: entity.name, property: property.name, kind: .attribute, reason: .removedFromModel))
                case .relationship(let relationship):
                    guard !isCarried(relationship.inverse, ofKind: relationship.destination) else { continue }
                    drops.append(
                        DroppedData(
                            entity: entity.name, property: property.name, kind: .relationship, reason: .removedFromModel
                        ))
                }
            }
        }
        return drops
    }

    /// The links of `entity`'s carried relationships to objects that don't become the new
    /// destination: Core Data's rule for a relationship whose destination changes (see
    /// `InferenceRun.mapping(from:to:)`). An object counts when it is of a concrete entity of
    /// the old destination's hierarchy, carried by some mapping, and no mapping carrying it
    /// makes a kind of the new destination; objects of a removed entity go with their rows,
    /// which are named as such.
    private func linksLeftOut(by carrying: [EntityMapping], of entity: Entity) -> [DroppedData] {
        // Planning runs this for every step of every path the planner weighs: the entity's
        // relationships are looked up once, and only those whose destination changes by name
        // or holds a hierarchy are followed further.
        var relationships: [String: Relationship] = [:]
        for case .relationship(let relationship) in source.allProperties(of: entity) {
            relationships[relationship.name] = relationship
        }
        var drops: [DroppedData] = []
        var named: Set<String> = []
        for mapping in carrying {
            guard let made = mapping.destinationEntity.flatMap({ destination[entity: $0] }) else { continue }
            var destinationRelationships: [String: Relationship]?
            for propertyMapping in mapping.relationshipMappings {
                guard let read = propertyMapping.valueExpression.flatMap(MappingInference.sourceProperty(readBy:)),
                    !named.contains(read), let old = relationships[read],
                    let oldTarget = source[entity: old.destination]
                else { continue }
                if destinationRelationships == nil {
                    var found: [String: Relationship] = [:]
                    for case .relationship(let relationship) in destination.allProperties(of: made) {
                        found[relationship.name] = relationship
                    }
                    destinationRelationships = found
                }
                guard let new = destinationRelationships?[propertyMapping.name],
                    let newTarget = destination[entity: new.destination]
                else { continue }
                let held = source.hierarchy(from: oldTarget).filter { !$0.isAbstract }
                let stranded = held.filter { object in
                    guard let becomes = madeFrom[object.name], !becomes.isEmpty else { return false }
                    return !becomes.contains { destination.entity($0, isKindOf: newTarget) }
                }
                guard !stranded.isEmpty else { continue }
                named.insert(read)
                drops.append(
                    DroppedData(
                        entity: entity.name, property: read, kind: .relationship, reason: .destinationChanged,
                        linksTo: stranded.map(\.name).sorted()))
            }
        }
        return drops
    }

    private func reason(forRowsOf entity: Entity, _ reading: [EntityMapping]) -> DroppedData.Reason {
        if isInferred { return .removedFromModel }
        if reading.contains(where: { $0.kind == .remove }) { return .droppedByMapping }
        return destination[entity: entity.name] == nil ? .removedWithExplicitMapping : .leftOutOfMapping
    }

    /// Whether some mapping of an entity of kind `entityName` (it or a subentity) reads the
    /// relationship `name`: then its links survive the step.
    private func isCarried(_ name: String?, ofKind entityName: String) -> Bool {
        guard let name, let kind = source[entity: entityName] else { return false }
        return mappings.contains { mapping in
            guard Self.carries(mapping), let sourceName = mapping.sourceEntity, let entity = source[entity: sourceName],
                source.entity(entity, isKindOf: kind)
            else { return false }
            return Self.sourcePropertiesRead(by: mapping).contains(name)
        }
    }

    private static func carries(_ mapping: EntityMapping) -> Bool {
        mapping.carriesSourceRows
    }

    private static func sourcePropertiesRead(by mapping: EntityMapping) -> [String] {
        (mapping.attributeMappings + mapping.relationshipMappings).compactMap {
            $0.valueExpression.flatMap(MappingInference.sourceProperty(readBy:))
        }
    }
}

extension EntityMapping {
    /// Whether the mapping does something with its source rows: makes destination objects of
    /// them, or hands them to a policy (which may make anything). A source entity that no
    /// mapping carries loses its rows.
    var carriesSourceRows: Bool {
        guard sourceEntity != nil else { return false }
        if let policy = policyName, !policy.isEmpty { return true }
        return destinationEntity != nil && kind != .remove && kind != .add
    }
}
