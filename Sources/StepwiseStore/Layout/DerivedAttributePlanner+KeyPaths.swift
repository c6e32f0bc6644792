import StepwiseModel

/// Key paths: a value of the row itself (`name`, `lowercase:(email)`, `now()`) or of the object
/// a to-one points at (`primaryLabel.code`).
extension DerivedAttributePlanner {
    /// A key path `relationship.attribute` through a to-one: two triggers on the entity's table
    /// (`_SOURCE_INSERT`, `_SOURCE_UPDATE` of the foreign key) and two on the destination's
    /// (`_PARAMETER_INSERT`, `_PARAMETER_UPDATE` of the attribute). Texts as in the Photos
    /// stores' `Z_DA_ZASSET_Asset_derivedCameraCaptureDevice_*` and
    /// `Z_DA_ZGRAPHNODE_GraphNode_primaryLabelCode_*` triggers.
    func toOne(
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
        // The destination is aliased: it may be the entity's own table (a relationship to itself).
        let quotedParameterTable = parameterTable.quotedSQLIdentifier
        let quotedValue = "\"parameter\".\(value.quotedSQLIdentifier)"
        let computed = function.map { "\($0.coreDataFunction)(\(quotedValue))" } ?? quotedValue
        let recompute =
            "UPDATE \(quotedTable) SET \(column.quotedSQLIdentifier) = (SELECT \(computed) FROM \(quotedParameterTable) AS \"parameter\""
            + " WHERE \"parameter\".\"Z_PK\" = \(quotedTable).\(foreignKey.quotedSQLIdentifier))"
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
    func sameRow(
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
        // One expression, two spellings of the column: `NEW.ZEMAIL` in the triggers, as Core
        // Data writes them, and `"ZEMAIL"` in the set-based recompute.
        let value = { (reference: (String) -> String) -> String in
            switch (function, sourceColumn) {
            case (let function?, let source?): "\(function)(\(reference(source)))"
            case (let function?, nil): "\(function)()"
            case (nil, let source?): reference(source)
            case (nil, nil): "NULL"
            }
        }
        let newValue = value { "NEW.\($0)" }
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
        let recompute =
            "UPDATE \(table.quotedSQLIdentifier) SET \(column.quotedSQLIdentifier) = \(value { $0.quotedSQLIdentifier })"
            + entityFilter(entity)
        return DerivedAttributeLayout(
            entityName: entity.name, attributeName: attribute.name, table: table, column: column,
            derivation: derivation, triggerNames: names, triggerStatements: statements, recomputeStatement: recompute)
    }
}
