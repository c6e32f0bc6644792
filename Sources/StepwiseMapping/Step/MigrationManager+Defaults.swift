import GRDB
import StepwiseModel
import StepwiseStore

extension MigrationManager {
    /// Creates one destination instance for `source` from the mapping's attribute mappings,
    /// records the association, and returns the new instance. What
    /// ``EntityMigrationPolicy/createDestinationInstances(forSource:in:manager:)`` does by default.
    ///
    /// Attributes without a mapping get their default value; a non-optional attribute whose
    /// mapping yields nil also falls back to its default (as Core Data's inferred mappings do).
    /// An inferred type widening (``PropertyMapping/widening``) runs the same SQL conversion
    /// as the set-based path, so both paths store the same text for a Date or a Double.
    @discardableResult
    public func createDestinationInstance(
        forSource source: StoredObject, in mapping: EntityMapping, policy: EntityMigrationPolicy? = nil
    ) throws -> ObjectID {
        guard let plan = try instancePlan(for: mapping) else {
            return try createDestinationInstanceUnplanned(forSource: source, in: mapping, policy: policy)
        }
        let values = try attributeValues(plan, forSource: source, in: mapping, policy: policy)
        let created = try destination.insert(plan.insert, values: values)
        try associate(source: source.id, destination: created, mapping: mapping)
        return created
    }

    /// ``createDestinationInstance(forSource:in:policy:)``, then sets to-one relationships of
    /// the new instance: the same as calling ``/StepwiseStore/ObjectContext/setToOne(_:_:to:)`` for each
    /// right after, in fewer statements. Where every relationship given is a plain foreign key
    /// (no order column, and an inverse that is a to-many or absent) they are written with the
    /// row, by its `INSERT`, instead of by one `UPDATE` each; the new instance's `Z_OPT` is
    /// then 1, as for any new object.
    ///
    /// ```swift
    /// let cuisine = try source.string("cuisine").map { try cuisineNamed($0, manager: manager) }
    /// try manager.createDestinationInstance(forSource: source, in: mapping, policy: self, toOne: ["cuisine": cuisine])
    /// ```
    @discardableResult
    public func createDestinationInstance(
        forSource source: StoredObject, in mapping: EntityMapping, policy: EntityMigrationPolicy? = nil,
        toOne relationships: KeyValuePairs<String, ObjectID?>
    ) throws -> ObjectID {
        guard let plan = try instancePlan(for: mapping),
            let insert = try relatedInsert(plan, relationships.map(\.key))
        else {
            let created = try createDestinationInstance(forSource: source, in: mapping, policy: policy)
            for (name, target) in relationships {
                try destination.setToOne(created, name, to: target)
            }
            return created
        }
        let values = try attributeValues(plan, forSource: source, in: mapping, policy: policy)
        let created = try destination.insert(insert, values: values, toOne: relationships.map(\.value))
        try associate(source: source.id, destination: created, mapping: mapping)
        return created
    }

    /// The insert of `plan`'s attributes and the to-one relationships `names`, prepared once;
    /// nil when one of them must be written by ``ObjectContext/setToOne(_:_:to:)``.
    private func relatedInsert(_ plan: InstancePlan, _ names: [String]) throws -> PreparedInsert? {
        let key = RelatedInsertKey(plan: ObjectIdentifier(plan), relationships: names)
        if let known = relatedInserts[key] { return known }
        var insert: PreparedInsert?
        if !names.isEmpty, Set(names).count == names.count {
            insert = try destination.prepareInsert(plan.entityName, attributes: plan.insert.attributes, toOne: names)
        }
        relatedInserts[key] = .some(insert)
        return insert
    }

    /// The stored values of `plan`'s attributes for one source row, in the plan's order.
    private func attributeValues(
        _ plan: InstancePlan, forSource source: StoredObject, in mapping: EntityMapping,
        policy: EntityMigrationPolicy?
    ) throws -> [DatabaseValue] {
        var values: [DatabaseValue] = []
        values.reserveCapacity(plan.slots.count)
        // Expressions compiled for the mapping's source entity read the row's columns
        // directly; a row of another entity (a policy's own call) takes the general path.
        let compiled = source.id.entity == plan.sourceEntity
        // The slots are read in place: copying each one (its Attribute) cost more than the
        // rest of the loop.
        // Each whole composite is evaluated once per row, when its first leaf asks for it.
        var wholes = [MappingValue?](repeating: nil, count: plan.composites.count)
        try plan.slots.withUnsafeBufferPointer { slots in
            for index in slots.indices {
                var value = DatabaseValue.null
                if let (composite, path) = slots[index].element {
                    let whole: MappingValue
                    if let known = wholes[composite] {
                        whole = known
                    } else {
                        whole = try wholeComposite(
                            plan.composites[composite], compiled: compiled, source: source, in: mapping,
                            entity: plan.entityName, policy: policy)
                        wholes[composite] = whole
                    }
                    do {
                        value = try ValueConversion.value(
                            CompositeValue.element(path, of: whole), for: slots[index].attribute,
                            transformers: policies.valueTransformers)
                    } catch let error as MappingError {
                        throw error.adding(
                            entityMapping: mapping.name, entity: plan.entityName,
                            property: slots[index].attribute.name, sourcePrimaryKey: source.id.primaryKey)
                    }
                } else if let expression = slots[index].expression {
                    do {
                        let evaluated = try evaluate(
                            expression, compiled: compiled, source: source, in: mapping, policy: policy)
                        if let widening = slots[index].widening {
                            value = try widened(evaluated.databaseValue, by: widening)
                        } else {
                            value = try ValueConversion.value(
                                evaluated, for: slots[index].attribute, transformers: policies.valueTransformers)
                        }
                    } catch let error as MappingError {
                        throw error.adding(
                            entityMapping: mapping.name, entity: plan.entityName,
                            property: slots[index].attribute.name, sourcePrimaryKey: source.id.primaryKey)
                    }
                } else {
                    value = slots[index].defaultValue
                }
                if value.isNull, !slots[index].attribute.isOptional {
                    value = slots[index].defaultValue
                }
                values.append(value)
            }
        }
        return values
    }

    /// The whole value of a composite mapped as a whole, for one source row, checked against
    /// the destination composite: nil or a composite of its elements.
    private func wholeComposite(
        _ whole: InstancePlan.WholeComposite, compiled: Bool, source: StoredObject, in mapping: EntityMapping,
        entity: String, policy: EntityMigrationPolicy?
    ) throws -> MappingValue {
        do {
            let value = try evaluate(whole.expression, compiled: compiled, source: source, in: mapping, policy: policy)
            try CompositeValue.check(
                value, fits: whole.leaves, entity: entity, attribute: whole.mapping.name,
                version: destinationModel.name)
            return value
        } catch let error as MappingError {
            throw error.adding(
                entityMapping: mapping.name, entity: entity, property: whole.mapping.name,
                sourcePrimaryKey: source.id.primaryKey)
        }
    }

    /// The plan of `mapping`'s instances, made on its first row; nil when it can't have one.
    private func instancePlan(for mapping: EntityMapping) throws -> InstancePlan? {
        if let plan = instancePlans[mapping.name], plan.serves(mapping) { return plan }
        guard let plan = try InstancePlan(mapping: mapping, manager: self) else { return nil }
        instancePlans[mapping.name] = plan
        return plan
    }

    /// One compiled attribute expression for `source` (``CompiledExpression``).
    private func evaluate(
        _ expression: CompiledExpression, compiled: Bool, source: StoredObject, in mapping: EntityMapping,
        policy: EntityMigrationPolicy?
    ) throws -> MappingValue {
        switch expression {
        case .constant(let value):
            return value
        case .sourceAttribute(let name) where compiled:
            return MappingValue(source[name])
        case .policyFunction(let selector, let arguments):
            // As the evaluator: the arguments first, in order, then the call.
            var values: [MappingValue] = []
            values.reserveCapacity(arguments.count)
            for argument in arguments {
                values.append(try evaluate(argument, compiled: compiled, source: source, in: mapping, policy: policy))
            }
            guard let policy else { throw MappingError(.unknownFunction(selector)) }
            return try policy.function(named: selector, arguments: values, manager: self)
        case .sourceAttribute(let name):
            return try evaluate(
                .keyPath(root: .source, path: [name]), source: source, destination: nil, in: mapping, policy: policy)
        case .general(let expression):
            return try evaluate(expression, source: source, destination: nil, in: mapping, policy: policy)
        }
    }

    /// ``createDestinationInstance(forSource:in:policy:)`` without a plan: every lookup per row.
    private func createDestinationInstanceUnplanned(
        forSource source: StoredObject, in mapping: EntityMapping, policy: EntityMigrationPolicy?
    ) throws -> ObjectID {
        guard let entityName = mapping.destinationEntity, let entity = destinationModel[entity: entityName] else {
            throw MappingError(
                .unknownEntity(mapping.destinationEntity ?? "(none)", version: destinationModel.name),
                entityMapping: mapping.name)
        }
        var values: [String: (any DatabaseValueConvertible)?] = [:]
        let attributes = destinationModel.allAttributes(of: entity).filter { !$0.isTransient }
        let wholes = InstancePlan.WholeComposite.all(in: mapping, names: attributes.map(\.name))
        var wholeValues: [Int: MappingValue] = [:]
        for attribute in attributes {
            var value = DatabaseValue.null
            let attributeMapping = mapping.attributeMappings.first { $0.name == attribute.name }
            if attributeMapping == nil,
                let (index, path) = InstancePlan.WholeComposite.holding(
                    attribute.name, among: wholes)
            {
                let whole = InstancePlan.WholeComposite(
                    mapping: wholes[index], expression: .general(wholes[index].valueExpression ?? .constant(.null)),
                    leaves: CompositeValue.leaves(of: wholes[index].name, among: attributes.map(\.name)).map(
                        \.element))
                let wholeValue: MappingValue
                if let known = wholeValues[index] {
                    wholeValue = known
                } else {
                    wholeValue = try wholeComposite(
                        whole, compiled: false, source: source, in: mapping, entity: entityName, policy: policy)
                    wholeValues[index] = wholeValue
                }
                do {
                    value = try ValueConversion.value(
                        CompositeValue.element(path, of: wholeValue), for: attribute,
                        transformers: policies.valueTransformers)
                } catch let error as MappingError {
                    throw error.adding(
                        entityMapping: mapping.name, entity: entityName, property: attribute.name,
                        sourcePrimaryKey: source.id.primaryKey)
                }
            } else if let expression = attributeMapping?.valueExpression {
                do {
                    let evaluated = try evaluate(
                        expression, source: source, destination: nil, in: mapping, policy: policy)
                    if let widening = attributeMapping?.widening {
                        value = try widened(evaluated.databaseValue, by: widening)
                    } else {
                        value = try ValueConversion.value(
                            evaluated, for: attribute, transformers: policies.valueTransformers)
                    }
                } catch let error as MappingError {
                    throw error.adding(
                        entityMapping: mapping.name, entity: entityName, property: attribute.name,
                        sourcePrimaryKey: source.id.primaryKey)
                }
            } else {
                value = ValueConversion.defaultValue(of: attribute)
            }
            if value.isNull, !attribute.isOptional {
                value = ValueConversion.defaultValue(of: attribute)
            }
            values[attribute.name] = value
        }
        let created = try destination.insert(entityName, values)
        try associate(source: source.id, destination: created, mapping: mapping)
        return created
    }

    /// Numbers the objects of an ordered to-many 1024, 2048, … in `targets` order, as the
    /// set-based path does. `relate` appends, so without this the order would be that of
    /// whichever side of the relationship was linked first: the inverse to-one's mapping may
    /// have run before this one, in destination key order.
    private func writePositions(of owner: ObjectID, _ relationship: String, in targets: [ObjectID]) throws {
        guard let layout = destinationLayout.entity(named: owner.entity)?.relationship(named: relationship) else {
            return
        }
        let sql: String
        switch layout.storage {
        case .inverseForeignKey(let table, let column, let orderColumn?):
            sql =
                "UPDATE \"main\".\(table.quotedSQLIdentifier) SET \(orderColumn.quotedSQLIdentifier) = ? WHERE \"Z_PK\" = ? AND \(column.quotedSQLIdentifier) = ?"
        case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn?):
            sql =
                "UPDATE \"main\".\(table.quotedSQLIdentifier) SET \(orderColumn.quotedSQLIdentifier) = ? WHERE \(destinationColumn.quotedSQLIdentifier) = ? AND \(sourceColumn.quotedSQLIdentifier) = ?"
        default:
            return
        }
        for (index, target) in targets.enumerated() {
            try db.cachedStatement(sql: sql).execute(arguments: [
                (index + 1) * 1024, target.primaryKey, owner.primaryKey,
            ])
        }
    }

    /// Throws when `target` already belongs to another owner of the to-many without inverse
    /// `relationship`, whose hidden foreign key holds one owner per object: relating it again
    /// would move it and drop the first link without a word (as the set-based path refuses).
    private func refuseSecondOwner(of target: ObjectID, for owner: ObjectID, _ relationship: RelationshipLayout)
        throws
    {
        guard case .inverseForeignKey(let table, let column, _) = relationship.storage,
            let current = try Int64.fetchOne(
                db,
                sql:
                    "SELECT \(column.quotedSQLIdentifier) FROM \"main\".\(table.quotedSQLIdentifier) WHERE \"Z_PK\" = ?",
                arguments: [target.primaryKey]),
            current != owner.primaryKey
        else { return }
        throw MappingError(
            .validation(
                "\(target.entity) Z_PK \(target.primaryKey) would be in the '\(relationship.name)' of more than one "
                    + "\(owner.entity); a to-many without inverse stores one owner per object (Core Data "
                    + "keeps it in a hidden foreign key, \(column)), so the upgrade would lose all but one of those links"
            ))
    }

    /// The resolved relationship mappings of `mapping`, made on its first instance.
    private func relationshipPlan(for mapping: EntityMapping) throws -> RelationshipPlan? {
        if let plan = relationshipPlans[mapping.name], plan.serves(mapping) { return plan }
        guard let plan = RelationshipPlan(mapping: mapping, manager: self) else { return nil }
        relationshipPlans[mapping.name] = plan
        return plan
    }

    /// A source value converted by a type widening, in SQLite: the set-based path's expression.
    private func widened(_ value: DatabaseValue, by widening: TypeWidening) throws -> DatabaseValue {
        try DatabaseValue.fetchOne(
            db.cachedStatement(
                sql: "SELECT \(widening.sqlExpression(converting: "\"w\".\"x\"")) FROM (SELECT ? AS \"x\") AS \"w\""),
            arguments: [value]) ?? .null
    }

    /// Sets the relationships of one destination instance from the mapping's relationship
    /// mappings. What ``EntityMigrationPolicy/createRelationships(forDestination:in:manager:)``
    /// does by default.
    ///
    /// A relationship expression may be Core Data's
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", …)`,
    /// which yields destination instances, or a plain source key path (inferred mappings),
    /// whose source instances are translated through every mapping of the step that made
    /// instances of the relationship's destination entity.
    public func applyRelationshipMappings(
        toDestination destinationID: ObjectID, in mapping: EntityMapping, policy: EntityMigrationPolicy? = nil
    ) throws {
        guard let plan = try relationshipPlan(for: mapping) else { return }
        let entityName = plan.entityName
        let sourceIDs = try sourceInstances(forEntityMappingNamed: mapping.name, destinationInstances: [destinationID])
        // Expressions that only follow relationships from $source need its id, not its row
        // (RowContext reads the row's values only for a first component that is an attribute).
        let sourceObject: StoredObject?
        if let first = sourceIDs.first, !plan.readsSourceRow {
            sourceObject = StoredObject(id: first, values: [:], version: 0)
        } else {
            sourceObject = try sourceIDs.first.map { try source.object($0) }
        }
        for (index, (expression, relationship)) in plan.relationships.enumerated() {
            do {
                var targets: [ObjectID]
                if let (name, sourceRelationship) = plan.lookups[index], let sourceObject,
                    currentMappingModel?.isInferred != true
                {
                    // FUNCTION($manager, "destinationInstancesForEntityMappingNamed:…", name,
                    // $source.<relationship>) without the evaluator: what it computes, whose
                    // objectIDs are the targets (the first only, for a to-one argument).
                    let found = try destinationInstances(
                        forEntityMappingNamed: name,
                        sourceInstances: try source.related(sourceObject.id, sourceRelationship.name))
                    targets = sourceRelationship.isToMany ? found : Array(found.prefix(1))
                } else {
                    let value = try evaluate(
                        expression, source: sourceObject, destination: destinationID, in: mapping, policy: policy)
                    targets = value.objectIDs
                }
                if case .keyPath(.source, _) = expression {
                    targets = try destinationInstances(madeFrom: targets, kindOf: relationship.destination)
                }
                if relationship.isToMany {
                    let hiddenKey = destinationLayout.entity(named: entityName)?.relationship(named: relationship.name)
                    for target in targets {
                        if let hiddenKey, hiddenKey.hasHiddenForeignKey {
                            try refuseSecondOwner(of: target, for: destinationID, hiddenKey)
                        }
                        try destination.relate(destinationID, relationship.name, to: target)
                    }
                    if relationship.isOrdered {
                        try writePositions(of: destinationID, relationship.name, in: targets)
                    }
                } else {
                    try destination.setToOne(destinationID, relationship.name, to: targets.first)
                }
            } catch let error as MappingError {
                throw error.adding(
                    entityMapping: mapping.name, entity: entityName, property: relationship.name,
                    sourcePrimaryKey: sourceIDs.first?.primaryKey)
            } catch let error as StoreError {
                throw MappingError(
                    error, entityMapping: mapping.name, entity: entityName, property: relationship.name,
                    sourcePrimaryKey: sourceIDs.first?.primaryKey)
            }
        }
    }
}
