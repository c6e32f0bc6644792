import Foundation
import StepwiseModel

/// One run of ``MappingInference/inferMapping(from:to:)``: the entity matching, the mapping
/// names, and the problems found so far.
struct InferenceRun {
    let source: ObjectModel
    let destination: ObjectModel
    /// Which destination entity continues which source entity.
    let entities: NameMatcher
    /// Destination entity name → the name of the mapping that produces it.
    private var mappingNames: [String: String] = [:]
    /// Every problem found, in the order found.
    private(set) var problems: [InferenceProblem] = []
    /// Each version's entity hashes, computed once: hashing an entity hashes its ancestors too.
    private let sourceHashes: [String: Data]
    private let destinationHashes: [String: Data]

    init(source: ObjectModel, destination: ObjectModel) {
        self.source = source
        self.destination = destination
        sourceHashes = source.entityVersionHashes
        destinationHashes = destination.entityVersionHashes
        entities = NameMatcher(
            destinations: destination.entities.map { .init(name: $0.name, renamingIdentifier: $0.renamingIdentifier) },
            sources: source.entities.map { .init(name: $0.name, renamingIdentifier: $0.renamingIdentifier) })
        for entity in destination.entities {
            mappingNames[entity.name] = EntityMapping.defaultName(
                source: entities.source(of: entity.name), destination: entity.name)
        }
    }

    /// The entity mappings: one per destination entity in the destination's order (copy,
    /// transform or add), then one per unmatched source entity in the source's order (remove).
    mutating func entityMappings() -> [EntityMapping] {
        checkMergedHierarchies()
        var mappings: [EntityMapping] = []
        for destinationEntity in destination.entities {
            if let ambiguity = entities.ambiguity(of: destinationEntity.name) {
                report(
                    destinationEntity.name, .ambiguousRename(source: ambiguity.source, claimants: ambiguity.claimants))
            }
            guard let sourceName = entities.source(of: destinationEntity.name),
                let sourceEntity = source[entity: sourceName]
            else {
                mappings.append(EntityMapping(kind: .add, source: nil, destination: destinationEntity.name))
                continue
            }
            mappings.append(mapping(from: sourceEntity, to: destinationEntity))
        }
        for sourceEntity in source.entities where !entities.isMatched(source: sourceEntity.name) {
            mappings.append(EntityMapping(kind: .remove, source: sourceEntity.name, destination: nil))
        }
        return mappings
    }

    /// The copy or transform mapping of a matched pair, with its property mappings.
    private mutating func mapping(from sourceEntity: Entity, to destinationEntity: Entity) -> EntityMapping {
        if !sourceEntity.isAbstract && destinationEntity.isAbstract {
            report(destinationEntity.name, .entityBecomesAbstract)
        }
        let unchanged = sourceHashes[sourceEntity.name] == destinationHashes[destinationEntity.name]
        let properties = propertyMappings(from: sourceEntity, to: destinationEntity)
        return EntityMapping(
            kind: unchanged ? .copy : .transform, source: sourceEntity.name, destination: destinationEntity.name,
            attributeMappings: properties.attributes, relationshipMappings: properties.relationships)
    }

    /// Reports destination hierarchies that gather entities from several source hierarchies.
    ///
    /// Core Data keeps a hierarchy in one table with one primary-key sequence, so rows of two
    /// source tables can't simply be carried into one; Apple lists "merging entity hierarchies"
    /// as the one hierarchy change lightweight migration can't do. A new parent over entities of
    /// one source hierarchy, or entities leaving a hierarchy (a split), are fine.
    private mutating func checkMergedHierarchies() {
        var sourceRootsByDestinationRoot: [String: [String: Entity]] = [:]
        var destinationRootOrder: [String] = []
        for destinationEntity in destination.entities {
            guard let sourceName = entities.source(of: destinationEntity.name),
                let sourceEntity = source[entity: sourceName]
            else { continue }
            let destinationRoot = destination.root(of: destinationEntity).name
            let sourceRoot = source.root(of: sourceEntity).name
            if sourceRootsByDestinationRoot[destinationRoot] == nil { destinationRootOrder.append(destinationRoot) }
            // Name each source hierarchy by its topmost matched entity.
            let current = sourceRootsByDestinationRoot[destinationRoot]?[sourceRoot]
            if current.map({ source.ancestors(of: sourceEntity).count < source.ancestors(of: $0).count }) ?? true {
                sourceRootsByDestinationRoot[destinationRoot, default: [:]][sourceRoot] = sourceEntity
            }
        }
        for destinationRoot in destinationRootOrder {
            let groups = sourceRootsByDestinationRoot[destinationRoot] ?? [:]
            guard groups.count > 1 else { continue }
            let roots = groups.keys.sorted()
            report(
                destinationRoot,
                .mergedHierarchies(
                    entities: roots.compactMap { groups[$0]?.name }, sourceRoots: roots,
                    destinationRoot: destinationRoot))
        }
    }

    // MARK: - Helpers for the property rules

    /// The name of the mapping that produces instances of this destination entity.
    func mappingName(producing destinationEntity: String) -> String {
        mappingNames[destinationEntity] ?? EntityMapping.defaultName(source: nil, destination: destinationEntity)
    }

    /// The destination entity a source entity becomes, if any.
    func destinationEntity(continuing sourceEntity: String) -> Entity? {
        entities.destination(of: sourceEntity).flatMap { destination[entity: $0] }
    }

    mutating func report(_ entity: String, property: String? = nil, _ reason: InferenceProblem.Reason) {
        let problem = InferenceProblem(entity: entity, property: property, reason: reason)
        if !problems.contains(problem) { problems.append(problem) }
    }
}
