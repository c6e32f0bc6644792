import StepwiseModel

/// `min:` and `max:` of a one-to-many.
extension DerivedAttributePlanner {
    /// `min:(items.price)` or `max:(items.price)`: four triggers on the destination's table and
    /// one on the entity's. A new or raised (for `min:`, lowered) value replaces the extreme
    /// when it beats it; a value that was the extreme and leaves (moved, changed, cleared or
    /// deleted) makes the trigger look the extreme up again among the remaining rows.
    ///
    /// From decompiled Core Data only (`NSSQLDerivedAttributeSQLGenerator`, the to-many case for
    /// `min:`/`max:`): no corpus store has this shape. Unlike the other shapes, the trigger
    /// names carry neither `_SOURCE` nor `_PARAMETER`.
    func extreme(
        _ entity: EntityLayout, _ attribute: AttributeLayout, _ derivation: Derivation,
        _ function: Derivation.AggregateFunction, relationship path: [String], value: String
    ) throws(StoreError) -> DerivedAttributeLayout {
        guard path.count == 1, let relationship = entity.relationship(named: path[0]), relationship.isToMany,
            let destination = entities.first(where: { $0.name == relationship.destination }),
            let inverseName = relationship.inverse,
            let inverse = destination.relationship(named: inverseName), !inverse.isToMany,
            let foreignKey = inverse.foreignKeyColumn,
            let valueColumn = destination.attribute(named: value)?.column
        else {
            throw refusal(
                entity.name, attribute.name,
                "'\(path.joined(separator: "."))' must be a to-many of '\(entity.name)' whose inverse is a to-one, "
                    + "and '\(value)' an attribute of its destination (Core Data's triggers keep min: and max: of a "
                    + "one-to-many only)")
        }
        // Core Data writes the destination's Z_ENT condition into these triggers' WHEN clauses as
        // a bare `Z_ENT`, which SQLite can't resolve there: a destination sharing its table
        // would make every write to that table fail, so such a model is refused.
        guard entities.filter({ $0.tableName == destination.tableName }).count == 1 else {
            throw refusal(
                entity.name, attribute.name,
                "'\(destination.name)' shares its table with other entities, and Core Data's \(function.rawValue): "
                    + "triggers for such a destination don't run in SQLite")
        }
        let table = entity.tableName
        let column = attribute.column
        let parameterTable = destination.tableName
        let (aggregate, beats) = function == .min ? ("MIN", "<") : ("MAX", ">")
        let andRow = entityCondition(entity, row: "").map { " AND \($0)" } ?? ""
        let whenNew = entityCondition(entity, row: "NEW.").map { " WHEN \($0)" } ?? ""
        let watched = "\(foreignKey), \(valueColumn)"
        let parameterPrefix = "Z_DA_\(parameterTable)_\(entity.name)_\(attribute.name)"
        let sourcePrefix = "Z_DA_\(table)_\(entity.name)_\(attribute.name)"
        let notify = { (row: String, condition: String) in
            " SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('\(table)', Z_ENT, Z_PK, '\(attribute.name)',"
                + " \(column)) FROM \(table) WHERE Z_PK = \(row).\(foreignKey)\(andRow) AND \(condition);"
        }
        // The new value becomes the extreme where it beats it (or there was none)…
        let takeNew =
            " UPDATE \(table) SET \(column) = NEW.\(valueColumn) WHERE Z_PK = NEW.\(foreignKey)\(andRow)"
            + " AND (\(column) IS NULL OR NEW.\(valueColumn) \(beats) \(column));"
        // …and where the old value was the extreme, it is looked up again.
        let lookUpAgain =
            " UPDATE \(table) SET \(column) = (SELECT \(aggregate)(\(valueColumn)) FROM \(parameterTable) WHERE"
            + " \(foreignKey) = OLD.\(foreignKey)) WHERE Z_PK = OLD.\(foreignKey)\(andRow)"
            + " AND OLD.\(valueColumn) \(beats)= \(column);"
        let oldWasExtreme = "OLD.\(valueColumn) \(beats)= \(column)"
        let oldMayHaveBeen = "(\(column) IS NULL OR OLD.\(valueColumn) \(beats)= \(column))"
        var names = [
            parameterPrefix + "_INSERT", parameterPrefix + "_UPDATE_SET", parameterPrefix + "_UPDATE_UNSET",
            parameterPrefix + "_DELETE", sourcePrefix + "_INSERT",
        ]
        var statements = [
            "CREATE TRIGGER \(names[0]) AFTER INSERT ON \(parameterTable) FOR EACH ROW WHEN (NEW.\(foreignKey) NOT NULL"
                + " AND NEW.\(valueColumn) NOT NULL) BEGIN" + takeNew
                + notify("NEW", "(\(column) IS NULL OR NEW.\(valueColumn) \(beats)= \(column))") + " END",
            "CREATE TRIGGER \(names[1]) AFTER UPDATE OF \(watched) ON \(parameterTable) FOR EACH ROW WHEN"
                + " (NEW.\(foreignKey) NOT NULL AND NEW.\(valueColumn) NOT NULL) BEGIN" + lookUpAgain
                + notify("OLD", oldWasExtreme) + takeNew + notify("NEW", "NEW.\(valueColumn) \(beats)= \(column)")
                + " END",
            "CREATE TRIGGER \(names[2]) AFTER UPDATE OF \(watched) ON \(parameterTable) FOR EACH ROW WHEN"
                + " (OLD.\(foreignKey) NOT NULL AND OLD.\(valueColumn) NOT NULL AND (NEW.\(foreignKey) IS NULL OR"
                + " NEW.\(valueColumn) IS NULL)) BEGIN" + lookUpAgain + notify("OLD", oldMayHaveBeen) + " END",
            "CREATE TRIGGER \(names[3]) AFTER DELETE ON \(parameterTable) FOR EACH ROW WHEN (OLD.\(foreignKey) NOT NULL"
                + " AND OLD.\(valueColumn) NOT NULL) BEGIN" + lookUpAgain + notify("OLD", oldMayHaveBeen) + " END",
            "CREATE TRIGGER \(names[4]) AFTER INSERT ON \(table) FOR EACH ROW\(whenNew) BEGIN UPDATE \(table) SET"
                + " \(column) = (SELECT \(aggregate)(\(valueColumn)) FROM \(parameterTable) WHERE \(foreignKey) ="
                + " NEW.Z_PK) WHERE Z_PK = NEW.Z_PK; SELECT NSCoreDataDATriggerInsertUpdatedAffectedObjectValue("
                + "'\(table)', Z_ENT, Z_PK, '\(attribute.name)', \(column)) FROM \(table) WHERE Z_PK = NEW.Z_PK; END",
        ]
        // A self-referential to-many gives the last trigger the first one's name; Core Data
        // creates its triggers `IF NOT EXISTS`, so that one is never made.
        if table == parameterTable {
            names.removeLast()
            statements.removeLast()
        }
        let quotedTable = table.quotedSQLIdentifier
        // The destination is aliased: it may be the entity's own table (a relationship to itself).
        let quotedParameterTable = parameterTable.quotedSQLIdentifier
        let recompute =
            "UPDATE \(quotedTable) SET \(column.quotedSQLIdentifier) = (SELECT \(aggregate)("
            + "\"parameter\".\(valueColumn.quotedSQLIdentifier)) FROM \(quotedParameterTable) AS \"parameter\" WHERE "
            + "\"parameter\".\(foreignKey.quotedSQLIdentifier) = \(quotedTable).\"Z_PK\")" + entityFilter(entity)
        return DerivedAttributeLayout(
            entityName: entity.name, attributeName: attribute.name, table: table, column: column,
            derivation: derivation, triggerNames: names, triggerStatements: statements, recomputeStatement: recompute)
    }
}
