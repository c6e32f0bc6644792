import StepwiseModel

/// Lays out the derived attributes of a planned store: their `Z_DA_…` triggers, as Core Data
/// writes them, and the statement that recomputes them.
///
/// Each shape the model editor offers has its file: key paths of the row or through a to-one,
/// plain or under a string function, and `now()` (`+KeyPaths`); `@count` and `sum:` of a to-many
/// (`+Counts`); `min:` and `max:` of a one-to-many (`+Extremes`). A shape Core Data can't keep
/// in triggers is refused, naming the entity and attribute, rather than left without them.
struct DerivedAttributePlanner {
    let modelName: String
    let entities: [EntityLayout]
    let derivations: [(entity: String, attribute: String, derivation: Derivation)]

    init(model: ObjectModel, entities: [EntityLayout]) {
        self.modelName = model.name
        self.entities = entities
        var derivations: [(entity: String, attribute: String, derivation: Derivation)] = []
        for entity in model.entities {
            for attribute in entity.attributes where !attribute.isTransient {
                if let derivation = attribute.derivation {
                    derivations.append((entity.name, attribute.name, derivation))
                }
            }
        }
        self.derivations = derivations
    }

    func plan() throws(StoreError) -> [DerivedAttributeLayout] {
        var layouts: [DerivedAttributeLayout] = []
        for item in derivations {
            layouts.append(try layout(entityName: item.entity, attributeName: item.attribute, item.derivation))
        }
        return layouts
    }

    private func layout(
        entityName: String, attributeName: String, _ derivation: Derivation
    ) throws(StoreError) -> DerivedAttributeLayout {
        guard let entity = entities.first(where: { $0.name == entityName }),
            let attribute = entity.attribute(named: attributeName)
        else {
            throw refusal(entityName, attributeName, "its entity or column was not laid out")
        }
        switch derivation.kind {
        case .keyPath(let keyPath) where keyPath.count == 1:
            return try sameRow(entity, attribute, derivation, source: keyPath[0], function: nil)
        case .keyPath(let keyPath):
            return try toOne(entity, attribute, derivation, keyPath: keyPath, function: nil)
        case .string(let function, let keyPath) where keyPath.count == 1:
            return try sameRow(entity, attribute, derivation, source: keyPath[0], function: function.coreDataFunction)
        case .string(let function, let keyPath):
            return try toOne(entity, attribute, derivation, keyPath: keyPath, function: function)
        case .now:
            return try sameRow(entity, attribute, derivation, source: nil, function: "NSCoreDataNow")
        case .count(let relationship):
            if let path = relationship.first, relationship.count == 1,
                let stored = entity.relationship(named: path), stored.joinTableName != nil
            {
                return try manyToManyCount(entity, attribute, derivation, relationship: stored)
            }
            return try toMany(entity, attribute, derivation, relationship: relationship, summed: nil)
        case .aggregate(.sum, let relationship, let summed):
            return try toMany(entity, attribute, derivation, relationship: relationship, summed: summed)
        case .aggregate(let function, let relationship, let value):
            return try extreme(entity, attribute, derivation, function, relationship: relationship, value: value)
        }
    }

    /// `5 = NEW.Z_ENT`, or `5 <= NEW.Z_ENT AND NEW.Z_ENT <= 7` with subentities, for an entity
    /// below the root of its table; nil for a root, whose triggers cover the whole table.
    func entityCondition(_ entity: EntityLayout, row: String) -> String? {
        guard !entity.isRoot, let first = entity.subentityNumbers.first, let last = entity.subentityNumbers.last
        else { return nil }
        if first >= last { return "\(first) = \(row)Z_ENT" }
        return "\(first) <= \(row)Z_ENT AND \(row)Z_ENT <= \(last)"
    }

    /// ` WHERE "Z_ENT" IN (…)` for an entity sharing its table with others, else nothing.
    func entityFilter(_ entity: EntityLayout) -> String {
        let tableEntities = entities.filter { $0.tableName == entity.tableName }.map(\.number)
        guard Set(tableEntities) != Set(entity.subentityNumbers) else { return "" }
        return " WHERE \"Z_ENT\" IN (" + entity.subentityNumbers.map(String.init).joined(separator: ", ") + ")"
    }

    func refusal(_ entity: String, _ attribute: String, _ reason: String) -> StoreError {
        StoreError(
            path: "model version '\(modelName)'",
            kind: .unsupportedModel(
                "derived attribute '\(entity).\(attribute)': \(reason). Make it a stored attribute and compute "
                    + "its values in the app, or remove it."))
    }
}

extension Derivation.StringFunction {
    /// The SQL function Core Data's triggers call (`CoreDataSQLFunctions` registers them).
    var coreDataFunction: String {
        switch self {
        case .lowercase: "NSCoreDataToLower"
        case .uppercase: "NSCoreDataToUpper"
        case .canonical: "NSCoreDataCanonical"
        }
    }
}
