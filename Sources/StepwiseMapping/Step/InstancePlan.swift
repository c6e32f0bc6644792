import GRDB
import StepwiseModel
import StepwiseStore

/// What ``MigrationManager/createDestinationInstance(forSource:in:policy:)`` works out once
/// per entity mapping instead of once per row: the destination attributes with their
/// compiled expressions and defaults, and the prepared insert.
final class InstancePlan {
    /// One destination attribute.
    struct Slot {
        let attribute: Attribute
        let expression: CompiledExpression?
        let widening: TypeWidening?
        let defaultValue: DatabaseValue
        /// For a leaf of a composite mapped as a whole (and not by its own key path): which of
        /// ``InstancePlan/composites`` gives its value, and its key path inside it.
        let element: (composite: Int, path: [String])?
    }

    /// A composite attribute mapped as a whole by an expression SQL can't run (a policy's
    /// `FUNCTION`): evaluated once per row, its value split into the leaves by element name.
    struct WholeComposite {
        let mapping: PropertyMapping
        let expression: CompiledExpression
        /// Its leaves' key paths inside it.
        let leaves: [[String]]

        /// The whole-composite mappings of `mapping` for an entity whose stored attribute
        /// names are `names`: attribute mappings named after a composite, not a leaf.
        static func all(in mapping: EntityMapping, names: [String]) -> [PropertyMapping] {
            let known = Set(names)
            return mapping.attributeMappings.filter {
                $0.valueExpression != nil && !known.contains($0.name)
                    && !CompositeValue.leaves(of: $0.name, among: names).isEmpty
            }
        }

        /// Of `mappings`, the one of the innermost composite holding the leaf `name`, with the
        /// leaf's key path inside it.
        static func holding(_ name: String, among mappings: [PropertyMapping]) -> (Int, [String])? {
            var found: (index: Int, path: [String])?
            for (index, mapping) in mappings.enumerated() {
                guard let leaf = CompositeValue.leaves(of: mapping.name, among: [name]).first,
                    leaf.element.count < found?.path.count ?? .max
                else { continue }
                found = (index, leaf.element)
            }
            return found.map { ($0.index, $0.path) }
        }
    }

    /// The mapping the plan was made for: a policy may pass another one with the same name.
    let mapping: EntityMapping
    let entityName: String
    /// The source entity the expressions were compiled for.
    let sourceEntity: String?
    let slots: [Slot]
    /// The composites mapped as a whole, which slots' ``Slot/element`` refer to.
    let composites: [WholeComposite]
    let insert: PreparedInsert

    /// Nil when the destination entity has two attributes with one name (the model checks
    /// forbid it): the unplanned path then keeps its last-one-wins dictionary.
    init?(mapping: EntityMapping, manager: MigrationManager) throws {
        guard let entityName = mapping.destinationEntity, let entity = manager.destinationModel[entity: entityName]
        else {
            throw MappingError(
                .unknownEntity(mapping.destinationEntity ?? "(none)", version: manager.destinationModel.name),
                entityMapping: mapping.name)
        }
        let sourceLayout = mapping.sourceEntity.flatMap { manager.sourceLayout.entity(named: $0) }
        var slots: [Slot] = []
        let attributes = manager.destinationModel.allAttributes(of: entity).filter { !$0.isTransient }
        let wholes = WholeComposite.all(in: mapping, names: attributes.map(\.name))
        for attribute in attributes {
            let attributeMapping = mapping.attributeMappings.first { $0.name == attribute.name }
            slots.append(
                Slot(
                    attribute: attribute,
                    expression: attributeMapping?.valueExpression.map {
                        CompiledExpression($0, sourceEntity: sourceLayout)
                    },
                    widening: attributeMapping?.widening,
                    defaultValue: ValueConversion.defaultValue(of: attribute),
                    element: attributeMapping == nil ? WholeComposite.holding(attribute.name, among: wholes) : nil))
        }
        composites = wholes.map { whole in
            WholeComposite(
                mapping: whole,
                expression: CompiledExpression(whole.valueExpression ?? .constant(.null), sourceEntity: sourceLayout),
                leaves: CompositeValue.leaves(of: whole.name, among: attributes.map(\.name)).map(\.element))
        }
        self.mapping = mapping
        self.entityName = entityName
        self.sourceEntity = sourceLayout?.name
        self.slots = slots
        // The values dictionary of the insert this replaces held each attribute once.
        var seen: Set<String> = []
        let unique = slots.map(\.attribute.name).filter { seen.insert($0).inserted }
        guard unique.count == slots.count else { return nil }
        self.insert = try manager.destination.prepareInsert(entityName, attributes: unique)
    }

    /// Whether the plan serves `mapping`: the same destination, source and attribute mappings.
    func serves(_ mapping: EntityMapping) -> Bool {
        mapping.destinationEntity == self.mapping.destinationEntity && mapping.sourceEntity == self.mapping.sourceEntity
            && mapping.attributeMappings == self.mapping.attributeMappings
    }
}

/// What ``MigrationManager/applyRelationshipMappings(toDestination:in:policy:)`` works out
/// once per entity mapping: each relationship mapping's expression and destination
/// relationship, and whether any expression reads the source row's own values.
final class RelationshipPlan {
    let mapping: EntityMapping
    let entityName: String
    /// The relationship mappings with an expression and a destination relationship, in order.
    let relationships: [(Expression, Relationship)]
    /// Per relationship mapping: the named entity mapping and the source relationship of an
    /// expression `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:",
    /// "<name>", $source.<relationship>)`, which the manager computes without the evaluator.
    let lookups: [(String, RelationshipLayout)?]
    /// Whether the source row must be read (an expression reads one of its attributes); when
    /// not, the source's id is enough.
    let readsSourceRow: Bool

    init?(mapping: EntityMapping, manager: MigrationManager) {
        guard let entityName = mapping.destinationEntity, let entity = manager.destinationModel[entity: entityName]
        else { return nil }
        let allRelationships = manager.destinationModel.allRelationships(of: entity)
        var relationships: [(Expression, Relationship)] = []
        for relationshipMapping in mapping.relationshipMappings {
            guard let expression = relationshipMapping.valueExpression,
                let relationship = allRelationships.first(where: { $0.name == relationshipMapping.name })
            else { continue }
            relationships.append((expression, relationship))
        }
        self.mapping = mapping
        self.entityName = entityName
        self.relationships = relationships
        let sourceEntity = mapping.sourceEntity.flatMap { manager.sourceLayout.entity(named: $0) }
        lookups = relationships.map { expression, _ in
            guard
                case .function(
                    .keyPath(.manager, let target), "destinationInstancesForEntityMappingNamed:sourceInstances:",
                    let arguments) = expression, target.isEmpty, arguments.count == 2,
                case .constant(.string(let name)) = arguments[0],
                case .keyPath(let root, let path) = arguments[1], root == .source || root == .evaluatedObject,
                path.count == 1, sourceEntity?.attribute(named: path[0]) == nil,
                let relationship = sourceEntity?.relationship(named: path[0])
            else { return nil }
            return (name, relationship)
        }
        // Without a known source entity, read the row as before.
        if let sourceEntity = mapping.sourceEntity.flatMap({ manager.sourceLayout.entity(named: $0) }) {
            readsSourceRow = relationships.contains { $0.0.readsSourceRow(of: sourceEntity) }
        } else {
            readsSourceRow = true
        }
    }

    /// Whether the plan serves `mapping`: the same entities and relationship mappings.
    func serves(_ mapping: EntityMapping) -> Bool {
        mapping.destinationEntity == self.mapping.destinationEntity && mapping.sourceEntity == self.mapping.sourceEntity
            && mapping.relationshipMappings == self.mapping.relationshipMappings
    }
}
