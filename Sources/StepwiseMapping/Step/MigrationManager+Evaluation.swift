import GRDB
import StepwiseModel
import StepwiseStore

extension MigrationManager {
    /// Evaluates an expression of `mapping` in Swift, for one source row and (in pass 2)
    /// its destination instance.
    public func evaluate(
        _ expression: Expression, source: StoredObject?, destination: ObjectID?, in mapping: EntityMapping,
        policy: EntityMigrationPolicy?
    ) throws -> MappingValue {
        let context = RowContext(
            manager: self, mapping: mapping, policy: policy, source: source, destination: destination)
        return try ExpressionEvaluator(context: context).evaluate(expression)
    }

    /// Evaluates a filter predicate on one source row.
    func matches(_ predicate: Predicate, source: StoredObject, in mapping: EntityMapping) throws -> Bool {
        let context = RowContext(manager: self, mapping: mapping, policy: nil, source: source, destination: nil)
        return try ExpressionEvaluator(context: context).evaluate(predicate)
    }

    /// The destination instances made from `sources` by any entity mapping of this step
    /// whose destination is `entity` or one of its subentities. This resolves inferred
    /// relationship mappings, which are plain key paths.
    func destinationInstances(madeFrom sources: [ObjectID], kindOf entity: String) throws -> [ObjectID] {
        var result: [ObjectID] = []
        for source in sources {
            guard let sourceTable = sourceLayout.entity(named: source.entity)?.tableName else { continue }
            for table in lookupTables(producing: entity, fromSourceTable: sourceTable) {
                result += try destinationInstances(forEntityMappingNamed: table.mapping.name, sourceInstances: [source])
            }
        }
        return result
    }

    /// The lookup tables whose mapping reads `sourceTable` and creates `entity` or a subentity.
    func lookupTables(producing entity: String, fromSourceTable sourceTable: String) -> [LookupTable] {
        guard let wanted = destinationModel[entity: entity] else { return [] }
        return lookupTables.filter { table in
            guard table.sourceTable == sourceTable, let made = table.mapping.destinationEntity,
                let madeEntity = destinationModel[entity: made]
            else { return false }
            return destinationModel.entity(madeEntity, isKindOf: wanted)
        }
    }
}

/// What an expression sees while one row is migrated.
struct RowContext: ExpressionContext {
    let manager: MigrationManager
    let mapping: EntityMapping
    let policy: EntityMigrationPolicy?
    let source: StoredObject?
    let destination: ObjectID?

    func value(ofKeyPath path: [String], from root: ExpressionVariable) throws -> MappingValue {
        switch root {
        case .source, .evaluatedObject:
            guard let source else { return .null }
            guard let first = path.first else { return .object(source.id) }
            // A composite's leaf is one attribute named by the whole path (`author.person`).
            let joined = path.joined(separator: ".")
            if path.count > 1, manager.sourceLayout.entity(named: source.id.entity)?.attribute(named: joined) != nil {
                return MappingValue(source[joined])
            }
            // The first hop reads the row already in hand instead of fetching it again.
            if let entity = manager.sourceLayout.entity(named: source.id.entity) {
                if entity.attribute(named: first) != nil {
                    return try manager.source.value(ofKeyPath: path.dropFirst(), from: MappingValue(source[first]))
                }
                // A composite's own name (`$source.author`): its whole value, from its leaves.
                if entity.relationship(named: first) == nil,
                    let whole = CompositeValue.read(first, from: source, entity: entity)
                {
                    return try manager.source.value(ofKeyPath: path.dropFirst(), from: whole)
                }
            }
            return try manager.source.value(ofKeyPath: path[...], from: .object(source.id))
        case .destination:
            guard let destination else { return .null }
            return try manager.destination.value(ofKeyPath: path[...], from: .object(destination))
        case .entityMapping:
            return path.isEmpty ? .string(mapping.name) : .null
        case .manager, .entityPolicy:
            return .null
        }
    }

    func call(target: Expression, selector: String, arguments: [MappingValue]) throws -> MappingValue {
        guard case .keyPath(let root, let path) = target, path.isEmpty else {
            throw MappingError(.unknownFunction(selector))
        }
        switch (root, selector) {
        case (.manager, "destinationInstancesForEntityMappingNamed:sourceInstances:"):
            guard arguments.count == 2, let name = arguments[0].stringValue else {
                throw MappingError(.invalidValue("\(selector) takes a mapping name and source instances"))
            }
            var found: [ObjectID]
            if manager.currentMappingModel?.isInferred == true,
                let entity = try manager.lookupTable(for: name).mapping.destinationEntity
            {
                // Inferred mappings name the mapping of the destination *entity*; every
                // mapping that made that entity (or a subentity) from the objects counts.
                found = try manager.destinationInstances(madeFrom: arguments[1].objectIDs, kindOf: entity)
            } else {
                found = try manager.destinationInstances(
                    forEntityMappingNamed: name, sourceInstances: arguments[1].objectIDs)
            }
            if case .objects = arguments[1] { return .objects(found) }
            return found.first.map(MappingValue.object) ?? .null
        case (.manager, "sourceInstancesForEntityMappingNamed:destinationInstances:"):
            guard arguments.count == 2, let name = arguments[0].stringValue else {
                throw MappingError(.invalidValue("\(selector) takes a mapping name and destination instances"))
            }
            let found = try manager.sourceInstances(
                forEntityMappingNamed: name, destinationInstances: arguments[1].objectIDs)
            if case .objects = arguments[1] { return .objects(found) }
            return found.first.map(MappingValue.object) ?? .null
        case (.entityPolicy, _):
            guard let policy else { throw MappingError(.unknownFunction(selector)) }
            return try policy.function(named: selector, arguments: arguments, manager: manager)
        default:
            throw MappingError(.unknownFunction(selector))
        }
    }
}
