import GRDB
import StepwiseModel
import StepwiseStore

/// Writes the rows of a seeded store, attributes only, entity by entity, in batches.
struct SeededRowWriter {
    let queue: DatabaseQueue
    let layout: StoreLayout
    let values: SeededValues
    /// What the team asks of the data: unique attributes and values from lists.
    var constraints = SeedingConstraints()

    var model: ObjectModel { layout.model }

    /// Inserts `count` rows of a concrete entity and returns where they are.
    ///
    /// Primary keys are the root's `Z_MAX` + 1 on: a seeded store is written entity by entity,
    /// so an entity's rows are consecutive, and a value that must be unique can be derived
    /// from its row's key before the row is inserted.
    func insertRows(of entity: EntityLayout, count: Int) throws -> SeededStore.Segment {
        guard let modelEntity = model[entity: entity.name], let root = layout.entity(named: entity.rootName) else {
            throw UpgradeMatrixFailure(.invalidRowCount(entity: entity.name, count: count))
        }
        let attributes = model.allAttributes(of: modelEntity).filter { !$0.isTransient }
        let unique = uniqueAttributes(of: modelEntity).union(
            attributes.map(\.name).filter { constraints.isUnique($0, of: modelEntity, in: model) })
        var listed: [String: [DatabaseValue]] = [:]
        for attribute in attributes {
            listed[attribute.name] = try constraints.listedValues(of: attribute.name, of: modelEntity, in: model)
            // A model's uniqueness constraint and a list can't both hold once rows outnumber values.
            if let list = listed[attribute.name], unique.contains(attribute.name), count > list.count {
                throw UpgradeMatrixFailure(
                    .invalidValue(
                        entity: entity.name, property: attribute.name, value: "\(list.count) values",
                        reason:
                            "a uniqueness constraint of the model makes it unique, and \(count) rows can't share \(list.count) values"
                    ))
            }
        }
        let first =
            try queue.read { db in
                try Int64.fetchOne(
                    db, sql: "SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" = ?", arguments: [root.number])
            }.map { $0 + 1 } ?? 1
        // Each attribute's draws, worked out once for all rows.
        let columns = attributes.map { SeededValues.AttributeValues($0, entity: entity.name, values: values) }
        let isUnique = attributes.map { unique.contains($0.name) }
        var row = 0
        while row < count {
            let end = min(count, row + SeededStore.batchSize)
            try queue.write { db in
                // The batch's keys are reserved with one update of `Z_PRIMARYKEY` rather than
                // one per row; the flush below leaves `Z_MAX` at the last key used, as
                // one-by-one inserts leave it.
                let objects = ObjectContext(db, layout: layout, primaryKeyBatch: end - row)
                // One statement for every row, each attribute bound (NULL when the row has no
                // value: Core Data's tables declare no column defaults).
                let insert = try objects.prepareInsert(entity.name, attributes: attributes.map(\.name))
                var rowValues = [DatabaseValue](repeating: .null, count: attributes.count)
                for index in row..<end {
                    let key = first + Int64(index)
                    for (position, attribute) in attributes.enumerated() {
                        let value =
                            if let list = listed[attribute.name] {
                                values.listed(list, attribute, entity: entity.name, row: index)
                            } else {
                                try columns[position].value(
                                    row: index, primaryKey: key, isUnique: isUnique[position])
                            }
                        rowValues[position] =
                            value.isNull ? .null : try objects.preparedValue(value, at: position, of: insert)
                    }
                    let id = try objects.insert(insert, values: rowValues)
                    guard id.primaryKey == key else {
                        throw UpgradeMatrixFailure(
                            .unsatisfiable(
                                entity: entity.name, property: "Z_PK",
                                reason:
                                    "row \(index) got primary key \(id.primaryKey), not \(key): the store was not empty"
                            ))
                    }
                }
                try objects.flushReservedPrimaryKeys()
            }
            row = end
        }
        return SeededStore.Segment(entity: entity.name, firstPrimaryKey: first, count: count)
    }

    /// The attributes of `entity` (own or inherited) that must be unique: one per uniqueness
    /// constraint of any entity of its table that has an attribute, since a constraint
    /// applies to the whole table. A constraint made only of to-one relationships is left
    /// to ``SeededRelationships``.
    func uniqueAttributes(of entity: Entity) -> Set<String> {
        let available = Set(model.allAttributes(of: entity).filter { !$0.isTransient }.map(\.name))
        var unique: Set<String> = []
        for constraint in Self.constraints(in: model, root: model.root(of: entity).name) {
            guard let chosen = Self.uniqueAttribute(of: constraint.properties, in: constraint.entity, model: model)
            else { continue }
            if available.contains(chosen) { unique.insert(chosen) }
        }
        return unique
    }

    /// Every uniqueness constraint declared by an entity of one table.
    static func constraints(in model: ObjectModel, root: String) -> [(entity: Entity, properties: [String])] {
        model.entities.filter { model.root(of: $0).name == root }.flatMap { entity in
            entity.uniquenessConstraints.map { (entity, $0) }
        }
    }

    /// The attribute of a constraint that gets unique values: the first one that isn't a
    /// Boolean (two values are rarely enough), else the first one; nil when the constraint
    /// has no stored attribute.
    static func uniqueAttribute(of properties: [String], in entity: Entity, model: ObjectModel) -> String? {
        let attributes = properties.compactMap { name in
            model.allAttributes(of: entity).first { $0.name == name && !$0.isTransient }
        }
        return (attributes.first { $0.type != .boolean } ?? attributes.first)?.name
    }
}
