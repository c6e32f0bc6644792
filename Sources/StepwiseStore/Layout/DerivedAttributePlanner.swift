import StepwiseModel

/// Lays out the derived attributes of a planned store: their `Z_DA_…` triggers, as Core Data
/// writes them, and the statement that recomputes them.
///
/// Shapes laid out: a key path through a to-one (`primaryLabel.code`), plain or under
/// `lowercase:`, `uppercase:` or `canonical:`. Any other shape is refused, naming the entity and
/// attribute, rather than left without its triggers.
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
            return try toMany(entity, attribute, derivation, relationship: relationship, summed: nil)
        case .aggregate(.sum, let relationship, let summed):
            return try toMany(entity, attribute, derivation, relationship: relationship, summed: summed)
        case .aggregate:
            throw refusal(
                entityName, attributeName,
                "Stepwise doesn't lay out the derivation '\(derivation.expression)' yet (min: or max: of a to-many); "
                    + "it lays out key paths, lowercase:, uppercase:, canonical:, now(), @count and sum:")
        }
    }

    /// A key path `relationship.attribute` through a to-one: two triggers on the entity's table
    /// (`_SOURCE_INSERT`, `_SOURCE_UPDATE` of the foreign key) and two on the destination's
    /// (`_PARAMETER_INSERT`, `_PARAMETER_UPDATE` of the attribute). Texts as in the Photos
    /// stores' `Z_DA_ZASSET_Asset_derivedCameraCaptureDevice_*` and
    /// `Z_DA_ZGRAPHNODE_GraphNode_primaryLabelCode_*` triggers.
    private func toOne(
        _ entity: EntityLayout, _ attribute: AttributeLayout, _ derivation: Derivation, keyPath: [String],
        function: Derivation.StringFunction?
    ) throws(StoreError) -> DerivedAttributeLayout {
        // Core Data refuses a key path of another length ("Unsupported: (multi-step keypath)"):
        // decompiled NSSQLDerivedAttributeSQLGenerator, unconfirmed by a real store.
        guard keyPath.count == 2 else {
            throw refusal(
                entity.name, attribute.name,
                "Core Data keeps only a key path of one to-one and one attribute ('relationship.attribute') "
                    + "in triggers; '\(derivation.expression)' has \(keyPath.count) steps")
        }
        guard let relationship = entity.relationship(named: keyPath[0]), !relationship.isToMany,
            let foreignKey = relationship.foreignKeyColumn,
            let destination = entities.first(where: { $0.name == relationship.destination }),
            let source = destination.attribute(named: keyPath[1])
        else {
            throw refusal(
                entity.name, attribute.name,
                "'\(keyPath[0])' must be a to-one of '\(entity.name)' and '\(keyPath[1])' an attribute of its "
                    + "destination")
        }
        let table = entity.tableName
        let column = attribute.column
        let parameterTable = destination.tableName
        let value = source.column
        // The string functions: decompiled NSSQLDerivedAttributeSQLGenerator, unconfirmed by a
        // real store (the Photos stores derive only plain key paths).
        let newValue = function.map { "\($0.coreDataFunction)(NEW.\(value))" } ?? "NEW.\(value)"
        let selectedValue = function.map { "\($0.coreDataFunction)(\(value))" } ?? value
        // An entity sharing its table with a superentity restricts its triggers to its Z_ENT
        // values: decompiled NSSQLDerivedAttributeSQLGenerator, unconfirmed by a real store.
        let newCondition = entityCondition(entity, row: "NEW.")
        let rowCondition = entityCondition(entity, row: "")
        let andNew = newCondition.map { " AND \($0)" } ?? ""
        let whenNew = newCondition.map { " WHEN \($0)" } ?? ""
        let andRow = rowCondition.map { " AND \($0)" } ?? ""
        let prefix = "Z_DA_\(table)_\(entity.name)_\(attribute.name)_SOURCE"
        let parameterPrefix = "Z_DA_\(parameterTable)_\(entity.name)_\(attribute.name)_PARAMETER"
        let notify = { (function: String, whereClause: String) in
            " SELECT \(function)('\(table)', Z_ENT, Z_PK, '\(attribute.name)', \(column)) FROM \(table) WHERE \(whereClause);"
        }
        let inserted = "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"
        let updated = "NSCoreDataDATriggerUpdatedAffectedObjectValue"
        let lookUp = "(SELECT \(selectedValue) FROM \(parameterTable) WHERE Z_PK = NEW.\(foreignKey))"
        // Core Data's order of creation: source triggers first.
        let names = [
            prefix + "_INSERT", prefix + "_UPDATE", parameterPrefix + "_INSERT", parameterPrefix + "_UPDATE",
        ]
        let statements = [
            "CREATE TRIGGER \(names[0]) AFTER INSERT ON \(table) FOR EACH ROW BEGIN"
                + " UPDATE \(table) SET \(column) = \(lookUp) WHERE Z_PK = NEW.Z_PK\(andNew);"
                + notify(inserted, "Z_PK = NEW.Z_PK\(andNew)") + " END",
            "CREATE TRIGGER \(names[1]) AFTER UPDATE OF \(foreignKey) ON \(table) FOR EACH ROW\(whenNew) BEGIN"
                + " UPDATE \(table) SET \(column) = \(lookUp) WHERE Z_PK = NEW.Z_PK;"
                + notify(updated, "Z_PK = NEW.Z_PK") + " END",
            "CREATE TRIGGER \(names[2]) AFTER INSERT ON \(parameterTable) FOR EACH ROW BEGIN"
                + " UPDATE \(table) SET \(column) = \(newValue) WHERE \(foreignKey) = NEW.Z_PK\(andRow);"
                + notify(inserted, "\(foreignKey) = NEW.Z_PK\(andRow)") + " END",
            "CREATE TRIGGER \(names[3]) AFTER UPDATE OF \(value) ON \(parameterTable) FOR EACH ROW BEGIN"
                + " UPDATE \(table) SET \(column) = \(newValue) WHERE \(foreignKey) = NEW.Z_PK\(andRow);"
                + notify(updated, "\(foreignKey) = NEW.Z_PK\(andRow)") + " END",
        ]
        let quotedTable = table.quotedSQLIdentifier
        let quotedParameterTable = parameterTable.quotedSQLIdentifier
        let quotedValue = "\(quotedParameterTable).\(value.quotedSQLIdentifier)"
        let computed = function.map { "\($0.coreDataFunction)(\(quotedValue))" } ?? quotedValue
        let recompute =
            "UPDATE \(quotedTable) SET \(column.quotedSQLIdentifier) = (SELECT \(computed) FROM \(quotedParameterTable)"
            + " WHERE \(quotedParameterTable).\"Z_PK\" = \(quotedTable).\(foreignKey.quotedSQLIdentifier))"
            + entityFilter(entity)
        return DerivedAttributeLayout(
            entityName: entity.name, attributeName: attribute.name, table: table, column: column,
            derivation: derivation, triggerNames: names, triggerStatements: statements, recomputeStatement: recompute)
    }

    /// A derivation from the row's own values: an attribute (`name`), a string function of one
    /// (`lowercase:(email)`), or `now()`. Two triggers on the entity's table, `…_INSERT` and
    /// `…_UPDATE` of the attribute it reads (of `Z_OPT`, which every save changes, for `now()`).
    ///
    /// From decompiled Core Data only (`NSSQLDerivedAttributeSQLGenerator`'s
    /// `_generateTriggerForAttribute…` and `_triggerColumnListComponentForAttributeKeypaths:`):
    /// no corpus store has this shape. A public write-up of a store shows the same `now()`
    /// update trigger text (`AFTER UPDATE OF Z_OPT ON ZITEM … SET ZUPDATE = NSCoreDataNow()`).
    /// Unlike the to-one shape, these triggers carry no `Z_ENT` condition; the recompute does.
    private func sameRow(
        _ entity: EntityLayout, _ attribute: AttributeLayout, _ derivation: Derivation, source: String?,
        function: String?
    ) throws(StoreError) -> DerivedAttributeLayout {
        let sourceColumn: String?
        if let source {
            guard let column = entity.attribute(named: source)?.column else {
                throw refusal(entity.name, attribute.name, "'\(source)' must be an attribute of '\(entity.name)'")
            }
            sourceColumn = column
        } else {
            sourceColumn = nil
        }
        let table = entity.tableName
        let column = attribute.column
        // The columns whose change fires the update trigger; Z_OPT when the value reads none.
        let watched = sourceColumn ?? "Z_OPT"
        let newValue: String
        switch (function, sourceColumn) {
        case (let function?, let source?): newValue = "\(function)(NEW.\(source))"
        case (let function?, nil): newValue = "\(function)()"
        case (nil, let source?): newValue = "NEW.\(source)"
        case (nil, nil): newValue = "NULL"
        }
        let prefix = "Z_DA_\(table)_\(entity.name)_\(attribute.name)"
        let names = [prefix + "_INSERT", prefix + "_UPDATE"]
        let body = { (notification: String) in
            " BEGIN UPDATE \(table) SET \(column) = \(newValue) WHERE Z_PK = NEW.Z_PK;"
                + " SELECT \(notification)('\(table)', Z_ENT, Z_PK, '\(attribute.name)', \(column)) FROM \(table)"
                + " WHERE Z_PK = NEW.Z_PK; END"
        }
        let statements = [
            "CREATE TRIGGER \(names[0]) AFTER INSERT ON \(table) FOR EACH ROW WHEN (NEW.\(watched) NOT NULL)"
                + body("NSCoreDataDATriggerInsertUpdatedAffectedObjectValue"),
            "CREATE TRIGGER \(names[1]) AFTER UPDATE OF \(watched) ON \(table) FOR EACH ROW"
                + body("NSCoreDataDATriggerUpdatedAffectedObjectValue"),
        ]
        let quotedSource = sourceColumn.map { $0.quotedSQLIdentifier }
        let computed: String
        switch (function, quotedSource) {
        case (let function?, let source?): computed = "\(function)(\(source))"
        case (let function?, nil): computed = "\(function)()"
        case (nil, let source?): computed = source
        case (nil, nil): computed = "NULL"
        }
        let recompute =
            "UPDATE \(table.quotedSQLIdentifier) SET \(column.quotedSQLIdentifier) = \(computed)" + entityFilter(entity)
        return DerivedAttributeLayout(
            entityName: entity.name, attributeName: attribute.name, table: table, column: column,
            derivation: derivation, triggerNames: names, triggerStatements: statements, recomputeStatement: recompute)
    }

    /// `@count` or `sum:` of a one-to-many (`items.@count`, `sum:(items.price)`): four triggers on
    /// the destination's table that add or subtract as its rows come, move (a change of the
    /// inverse's foreign key, or of the summed value) and go, and one on the entity's table that
    /// computes the value of a new row.
    ///
    /// From decompiled Core Data only (`NSSQLDerivedAttributeSQLGenerator`'s
    /// `_generateSQLForDerivedAttributeWithOneParameterKeypath:keypaths:`, the one-to-many case):
    /// no corpus store has this shape. A many-to-many's count, which Core Data keeps with the
    /// join table, and `min:`/`max:` aren't laid out yet.
    private func toMany(
        _ entity: EntityLayout, _ attribute: AttributeLayout, _ derivation: Derivation, relationship path: [String],
        summed: String?
    ) throws(StoreError) -> DerivedAttributeLayout {
        guard path.count == 1, let relationship = entity.relationship(named: path[0]), relationship.isToMany,
            let destination = entities.first(where: { $0.name == relationship.destination }),
            let inverseName = relationship.inverse,
            let inverse = destination.relationship(named: inverseName), !inverse.isToMany,
            let foreignKey = inverse.foreignKeyColumn
        else {
            throw refusal(
                entity.name, attribute.name,
                "'\(path.joined(separator: "."))' must be a to-many of '\(entity.name)' whose inverse is a to-one "
                    + "(Stepwise doesn't lay out a count over a many-to-many or a to-many without inverse yet)")
        }
        var summedColumn: String?
        if let summed {
            guard let column = destination.attribute(named: summed)?.column else {
                throw refusal(
                    entity.name, attribute.name, "'\(summed)' must be an attribute of '\(destination.name)'")
            }
            summedColumn = column
        }
        let table = entity.tableName
        let column = attribute.column
        let parameterTable = destination.tableName
        let increment = summedColumn.map { "+ IFNULL(NEW.\($0), 0)" } ?? "+ 1"
        let decrement = summedColumn.map { "- IFNULL(OLD.\($0), 0)" } ?? "- 1"
        let watched = summedColumn.map { "\(foreignKey), \($0)" } ?? foreignKey
        let aggregate = summedColumn.map { "SUM(\($0))" } ?? "COUNT(\(foreignKey))"
        let andRow = entityCondition(entity, row: "").map { " AND \($0)" } ?? ""
        let whenNew = entityCondition(entity, row: "NEW.").map { " WHEN \($0)" } ?? ""
        let parameterPrefix = "Z_DA_\(parameterTable)_\(entity.name)_\(attribute.name)_PARAMETER"
        let sourcePrefix = "Z_DA_\(table)_\(entity.name)_\(attribute.name)_SOURCE"
        let names = [
            parameterPrefix + "_INSERT", parameterPrefix + "_UPDATE_INCREMENT", parameterPrefix + "_UPDATE_DECREMENT",
            parameterPrefix + "_DELETE", sourcePrefix + "_INSERT",
        ]
        let change = { (value: String, row: String) in
            " BEGIN UPDATE \(table) SET \(column) = \(value) WHERE Z_PK = \(row).\(foreignKey)\(andRow);"
                + " SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('\(table)', Z_ENT, Z_PK, '\(attribute.name)',"
                + " \(column)) FROM \(table) WHERE Z_PK = \(row).\(foreignKey)\(andRow); END"
        }
        let statements = [
            "CREATE TRIGGER \(names[0]) AFTER INSERT ON \(parameterTable) FOR EACH ROW WHEN (NEW.\(foreignKey) NOT NULL)"
                + change("IFNULL(\(column), 0) \(increment)", "NEW"),
            "CREATE TRIGGER \(names[1]) AFTER UPDATE OF \(watched) ON \(parameterTable) FOR EACH ROW"
                + " WHEN (NEW.\(foreignKey) NOT NULL)" + change("\(column) \(increment)", "NEW"),
            "CREATE TRIGGER \(names[2]) AFTER UPDATE OF \(watched) ON \(parameterTable) FOR EACH ROW"
                + " WHEN (OLD.\(foreignKey) NOT NULL)" + change("\(column) \(decrement)", "OLD"),
            "CREATE TRIGGER \(names[3]) AFTER DELETE ON \(parameterTable) FOR EACH ROW WHEN (OLD.\(foreignKey) NOT NULL)"
                + change("\(column) \(decrement)", "OLD"),
            "CREATE TRIGGER \(names[4]) AFTER INSERT ON \(table) FOR EACH ROW\(whenNew) BEGIN UPDATE \(table) SET"
                + " \(column) = (SELECT IFNULL(\(aggregate), 0) FROM \(parameterTable) WHERE \(foreignKey) = NEW.Z_PK)"
                + " WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue('\(table)', Z_ENT,"
                + " Z_PK, '\(attribute.name)', \(column)) FROM \(table) WHERE Z_PK = NEW.Z_PK; END",
        ]
        let quotedTable = table.quotedSQLIdentifier
        let quotedParameterTable = parameterTable.quotedSQLIdentifier
        let quotedAggregate =
            summedColumn.map { "SUM(\(quotedParameterTable).\($0.quotedSQLIdentifier))" }
            ?? "COUNT(\(quotedParameterTable).\(foreignKey.quotedSQLIdentifier))"
        let recompute =
            "UPDATE \(quotedTable) SET \(column.quotedSQLIdentifier) = (SELECT IFNULL(\(quotedAggregate), 0) FROM "
            + "\(quotedParameterTable) WHERE \(quotedParameterTable).\(foreignKey.quotedSQLIdentifier) = "
            + "\(quotedTable).\"Z_PK\")" + entityFilter(entity)
        return DerivedAttributeLayout(
            entityName: entity.name, attributeName: attribute.name, table: table, column: column,
            derivation: derivation, triggerNames: names, triggerStatements: statements, recomputeStatement: recompute)
    }

    /// `5 = NEW.Z_ENT`, or `5 <= NEW.Z_ENT AND NEW.Z_ENT <= 7` with subentities, for an entity
    /// below the root of its table; nil for a root, whose triggers cover the whole table.
    private func entityCondition(_ entity: EntityLayout, row: String) -> String? {
        guard !entity.isRoot, let first = entity.subentityNumbers.first, let last = entity.subentityNumbers.last
        else { return nil }
        if first >= last { return "\(first) = \(row)Z_ENT" }
        return "\(first) <= \(row)Z_ENT AND \(row)Z_ENT <= \(last)"
    }

    /// ` WHERE "Z_ENT" IN (…)` for an entity sharing its table with others, else nothing.
    private func entityFilter(_ entity: EntityLayout) -> String {
        let tableEntities = entities.filter { $0.tableName == entity.tableName }.map(\.number)
        guard Set(tableEntities) != Set(entity.subentityNumbers) else { return "" }
        return " WHERE \"Z_ENT\" IN (" + entity.subentityNumbers.map(String.init).joined(separator: ", ") + ")"
    }

    private func refusal(_ entity: String, _ attribute: String, _ reason: String) -> StoreError {
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
