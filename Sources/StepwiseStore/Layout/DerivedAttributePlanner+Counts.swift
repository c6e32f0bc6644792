import StepwiseModel

/// Counts and sums of a to-many: kept by adding and subtracting as the destination's rows (or
/// the join table's) come, move and go.
extension DerivedAttributePlanner {
    /// `@count` or `sum:` of a one-to-many (`items.@count`, `sum:(items.price)`): four triggers on
    /// the destination's table that add or subtract as its rows come, move (a change of the
    /// inverse's foreign key, or of the summed value) and go, and one on the entity's table that
    /// computes the value of a new row.
    ///
    /// From decompiled Core Data only (`NSSQLDerivedAttributeSQLGenerator`'s
    /// `_generateSQLForDerivedAttributeWithOneParameterKeypath:keypaths:`, the one-to-many case):
    /// no corpus store has this shape.
    func toMany(
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
                    + "(Core Data's triggers keep a count of a one-to-many or a many-to-many, a sum of a one-to-many "
                    + "only, and neither for a to-many without inverse)")
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
        // The destination is aliased: it may be the entity's own table (a relationship to itself).
        let quotedParameterTable = parameterTable.quotedSQLIdentifier
        let quotedAggregate =
            summedColumn.map { "SUM(\"parameter\".\($0.quotedSQLIdentifier))" }
            ?? "COUNT(\"parameter\".\(foreignKey.quotedSQLIdentifier))"
        let recompute =
            "UPDATE \(quotedTable) SET \(column.quotedSQLIdentifier) = (SELECT IFNULL(\(quotedAggregate), 0) FROM "
            + "\(quotedParameterTable) AS \"parameter\" WHERE \"parameter\".\(foreignKey.quotedSQLIdentifier) = "
            + "\(quotedTable).\"Z_PK\")" + entityFilter(entity)
        return DerivedAttributeLayout(
            entityName: entity.name, attributeName: attribute.name, table: table, column: column,
            derivation: derivation, triggerNames: names, triggerStatements: statements, recomputeStatement: recompute)
    }

    /// `@count` of a to-many stored in a join table (a many-to-many): one trigger on the join
    /// table that adds as a link comes, one that subtracts as it goes, and one on the entity's
    /// table that counts a new row's links. Links never change in place: Core Data deletes and
    /// inserts them.
    ///
    /// From decompiled Core Data only (`NSSQLDerivedAttributeSQLGenerator`, the many-to-many
    /// case): no corpus store has this shape. Core Data names the column the relationship's
    /// `columnName`; Stepwise uses the join column that holds the entity's `Z_PK`, the one the
    /// count needs.
    func manyToManyCount(
        _ entity: EntityLayout, _ attribute: AttributeLayout, _ derivation: Derivation,
        relationship: RelationshipLayout
    ) throws(StoreError) -> DerivedAttributeLayout {
        guard case .joinTable(let joinTable, let link, _, _) = relationship.storage else {
            throw refusal(entity.name, attribute.name, "'\(relationship.name)' must be stored in a join table")
        }
        let table = entity.tableName
        let column = attribute.column
        let andRow = entityCondition(entity, row: "").map { " AND \($0)" } ?? ""
        let whenNew = entityCondition(entity, row: "NEW.").map { " WHEN \($0)" } ?? ""
        let parameterPrefix = "Z_DA_\(joinTable)_\(entity.name)_\(attribute.name)_PARAMETER"
        let sourcePrefix = "Z_DA_\(table)_\(entity.name)_\(attribute.name)_SOURCE"
        let names = [parameterPrefix + "_INSERT", parameterPrefix + "_DELETE", sourcePrefix + "_INSERT"]
        let notify = { (whereClause: String) in
            " SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('\(table)', Z_ENT, Z_PK, '\(attribute.name)',"
                + " \(column)) FROM \(table) WHERE \(whereClause); END"
        }
        let statements = [
            "CREATE TRIGGER \(names[0]) AFTER INSERT ON \(joinTable) FOR EACH ROW BEGIN UPDATE \(table) SET"
                + " \(column) = IFNULL(\(column), 0) + 1 WHERE Z_PK = NEW.\(link)\(andRow);"
                + notify("Z_PK = NEW.\(link)\(andRow)"),
            "CREATE TRIGGER \(names[1]) AFTER DELETE ON \(joinTable) FOR EACH ROW BEGIN UPDATE \(table) SET"
                + " \(column) = \(column) - 1 WHERE Z_PK = OLD.\(link)\(andRow);"
                + notify("Z_PK = OLD.\(link)\(andRow)"),
            // Unlike the one-to-many's, this insert trigger notifies with the "updated" function.
            "CREATE TRIGGER \(names[2]) AFTER INSERT ON \(table) FOR EACH ROW\(whenNew) BEGIN UPDATE \(table) SET"
                + " \(column) = (SELECT IFNULL(COUNT(\(link)), 0) FROM \(joinTable) WHERE \(link) = NEW.Z_PK)"
                + " WHERE Z_PK = NEW.Z_PK;" + notify("Z_PK = NEW.Z_PK"),
        ]
        let quotedTable = table.quotedSQLIdentifier
        let quotedLink = "\(joinTable.quotedSQLIdentifier).\(link.quotedSQLIdentifier)"
        let recompute =
            "UPDATE \(quotedTable) SET \(column.quotedSQLIdentifier) = (SELECT IFNULL(COUNT(\(quotedLink)), 0) FROM "
            + "\(joinTable.quotedSQLIdentifier) WHERE \(quotedLink) = \(quotedTable).\"Z_PK\")" + entityFilter(entity)
        return DerivedAttributeLayout(
            entityName: entity.name, attributeName: attribute.name, table: table, column: column,
            derivation: derivation, triggerNames: names, triggerStatements: statements, recomputeStatement: recompute)
    }
}
