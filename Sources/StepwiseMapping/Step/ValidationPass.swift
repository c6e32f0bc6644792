import GRDB
import StepwiseModel
import StepwiseStore

/// Pass 3: validate the destination against its model.
///
/// Every check is one SQL query over the destination. A failure names the entity, the
/// property and the *source* row's primary key (found through the lookup tables), so the
/// bad input can be fixed:
/// - non-optional attributes and to-ones must not be nil;
/// - to-manys must respect their minimum and maximum counts;
/// - every foreign key and join-table row must point to an existing row of the right entity;
/// - uniqueness constraints hold (the tables enforce them while rows are inserted).
extension MigrationManager {
    func validateDestination() throws {
        // Hooks that ran since the last pass (didMigrate) may have inserted objects.
        try flushPrimaryKeys()
        progress?(.validating)
        for entity in destinationLayout.entities where !entity.isAbstract {
            guard let modelEntity = destinationModel[entity: entity.name] else { continue }
            // A NULL in a required column: one scan for every unindexed column of the entity
            // together, instead of one scan per column; an indexed column is probed through
            // its index. Only a column that may hold a NULL is queried for the row to name.
            let scanFoundNull = try unindexedRequiredColumnHasNull(entity, modelEntity)
            for attribute in destinationModel.allAttributes(of: modelEntity)
            where !attribute.isOptional && !attribute.isTransient && !isKnownFilled(attribute, of: entity) {
                guard let column = entity.attribute(named: attribute.name)?.column,
                    scanFoundNull || isIndexed(column, of: entity)
                else { continue }
                if let key = try firstRowWithNull(in: column, of: entity) {
                    // A number computed in SQL is NULL where SQLite can't compute it: a division
                    // by zero, or NaN, which it stores as NULL.
                    let numeric = [.double, .float, .decimal, .integer16, .integer32, .integer64].contains(
                        attribute.type)
                    throw try violation(
                        numeric
                            ? "the required attribute has no value (SQLite gives NULL for a division by zero and stores NaN as NULL: check how the value is computed)"
                            : "the required attribute has no value",
                        entity: entity, property: attribute.name, destinationKey: key)
                }
            }
            for relationship in destinationModel.allRelationships(of: modelEntity) where !relationship.isTransient {
                try validate(relationship, of: entity, nullsPossible: scanFoundNull)
            }
        }
        try validateForeignKeys()
    }

    /// The required columns of `entity` (attributes and to-one keys) that no index leads with.
    private func unindexedRequiredColumns(_ entity: EntityLayout, _ modelEntity: Entity) -> [String] {
        var columns: [String] = []
        for attribute in destinationModel.allAttributes(of: modelEntity)
        where !attribute.isOptional && !attribute.isTransient && !isKnownFilled(attribute, of: entity) {
            if let column = entity.attribute(named: attribute.name)?.column { columns.append(column) }
        }
        for relationship in destinationModel.allRelationships(of: modelEntity)
        where !relationship.isTransient && !relationship.isToMany && !relationship.isOptional {
            if case .foreignKey(let column, _, _)? = entity.relationship(named: relationship.name)?.storage {
                columns.append(column)
            }
        }
        return columns.filter { !isIndexed($0, of: entity) }
    }

    /// Whether a row of `entity` holds NULL in one of ``unindexedRequiredColumns(_:_:)``.
    private func unindexedRequiredColumnHasNull(_ entity: EntityLayout, _ modelEntity: Entity) throws -> Bool {
        let columns = unindexedRequiredColumns(entity, modelEntity)
        guard !columns.isEmpty else { return false }
        let anyNull = columns.map { "\($0.quotedSQLIdentifier) IS NULL" }.joined(separator: " OR ")
        return try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM "main".\(entity.tableName.quotedSQLIdentifier)
                               WHERE "Z_ENT" = ? AND (\(anyNull)))
                """,
            arguments: [entity.number]) ?? false
    }

    /// Whether an in-place step left `attribute` as it can't lack a value (``requiredAttributesKnownFilled``).
    private func isKnownFilled(_ attribute: Attribute, of entity: EntityLayout) -> Bool {
        requiredAttributesKnownFilled.contains("\(entity.name).\(attribute.name)")
    }

    /// Whether an index of the entity's table leads with `column` (SQLite then finds its NULLs
    /// without a scan).
    private func firstRowWithNull(in column: String, of entity: EntityLayout) throws -> Int64? {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT "Z_PK" FROM "main".\(entity.tableName.quotedSQLIdentifier)
                WHERE "Z_ENT" = ? AND \(column.quotedSQLIdentifier) IS NULL LIMIT 1
                """,
            arguments: [entity.number])
    }

    private func isIndexed(_ column: String, of entity: EntityLayout) -> Bool {
        destinationLayout.indexes.contains {
            $0.table.uppercased() == entity.tableName.uppercased()
                && $0.columns.first?.uppercased() == column.uppercased()
        }
    }

    private func validate(_ relationship: Relationship, of entity: EntityLayout, nullsPossible: Bool) throws {
        guard let layout = entity.relationship(named: relationship.name) else { return }
        let table = "\"main\".\(entity.tableName.quotedSQLIdentifier)"
        if case .foreignKey(let column, _, _) = layout.storage, !relationship.isOptional,
            nullsPossible || isIndexed(column, of: entity)
        {
            if let key = try firstRowWithNull(in: column, of: entity) {
                throw try violation(
                    "the required relationship has no destination", entity: entity, property: relationship.name,
                    destinationKey: key)
            }
        }
        guard relationship.isToMany, relationship.minCount > 0 || relationship.maxCount > 0 else { return }
        let countSQL: String
        switch layout.storage {
        case .foreignKey:
            return
        case .inverseForeignKey(let inverseTable, let column, _):
            countSQL =
                "(SELECT COUNT(*) FROM \"main\".\(inverseTable.quotedSQLIdentifier) AS \"d\" WHERE \"d\".\(column.quotedSQLIdentifier) = \"e\".\"Z_PK\")"
        case .joinTable(let joinTable, let sourceColumn, _, _):
            countSQL =
                "(SELECT COUNT(*) FROM \"main\".\(joinTable.quotedSQLIdentifier) AS \"d\" WHERE \"d\".\(sourceColumn.quotedSQLIdentifier) = \"e\".\"Z_PK\")"
        }
        var conditions: [String] = []
        if relationship.minCount > 0 { conditions.append("\(countSQL) < \(relationship.minCount)") }
        if relationship.maxCount > 0 { conditions.append("\(countSQL) > \(relationship.maxCount)") }
        if let key = try Int64.fetchOne(
            db,
            sql:
                "SELECT \"e\".\"Z_PK\" FROM \(table) AS \"e\" WHERE \"e\".\"Z_ENT\" = ? AND (\(conditions.joined(separator: " OR "))) LIMIT 1",
            arguments: [entity.number])
        {
            throw try violation(
                "the relationship must hold between \(relationship.minCount) and \(relationship.maxCount == 0 ? "any number of" : String(relationship.maxCount)) objects",
                entity: entity, property: relationship.name, destinationKey: key)
        }
    }

    /// Every foreign key and every join-table row points to an existing row of its
    /// destination entity (or a subentity), but for the keys an in-place step kept as they
    /// were (``relationshipsWithKeptKeys``).
    private func validateForeignKeys() throws {
        for entity in destinationLayout.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                guard !relationshipsWithKeptKeys.contains("\(entity.name).\(relationship.name)") else { continue }
                guard let target = destinationLayout.entity(named: relationship.destination) else { continue }
                if case .joinTable(let joinTable, let sourceColumn, let destinationColumn, _) = relationship.storage {
                    try validateJoinTable(
                        joinTable, from: sourceColumn, to: destinationColumn, of: relationship, entity, target)
                    continue
                }
                if case .inverseForeignKey(_, let column, _) = relationship.storage, relationship.hasHiddenForeignKey {
                    try validateHiddenForeignKey(column, of: relationship, entity, target)
                    continue
                }
                guard case .foreignKey(let column, _, _) = relationship.storage else { continue }
                if let dangling = try DanglingKeyCheck.firstDanglingKey(
                    db, column: column, of: entity, pointingTo: target, layout: destinationLayout)
                {
                    throw try violation(
                        "the relationship points to a \(target.name) that doesn't exist", entity: entity,
                        property: relationship.name, destinationKey: dangling.primaryKey)
                }
            }
        }
    }

    /// Every hidden foreign key of the to-many without inverse `entity.relationship` (in
    /// `target`'s rows) names an existing `entity` row (or a subentity's): no to-one checks it
    /// from the other side, as for a join table's owners.
    private func validateHiddenForeignKey(
        _ column: String, of relationship: RelationshipLayout, _ entity: EntityLayout, _ target: EntityLayout
    ) throws {
        if let key = try DanglingKeyCheck.firstDanglingKey(
            db, column: column, of: target, pointingTo: entity, layout: destinationLayout)?.primaryKey
        {
            throw MappingError(
                .validation(
                    "\(target.name) Z_PK \(key) is held by a \(entity.name) that doesn't exist (its \(column))"),
                mappingModel: currentMappingModel?.name, entity: entity.name, property: relationship.name)
        }
    }

    /// Every row of a join table links an existing `entity` row (or a subentity's) to an
    /// existing `target` row. A many-to-many is checked from both sides, each naming the row
    /// that holds the missing object; a to-many without inverse checks its owners here too.
    private func validateJoinTable(
        _ joinTable: String, from sourceColumn: String, to destinationColumn: String,
        of relationship: RelationshipLayout, _ entity: EntityLayout, _ target: EntityLayout
    ) throws {
        func exists(_ layout: EntityLayout, _ column: String) -> String {
            """
            EXISTS (SELECT 1 FROM "main".\(layout.tableName.quotedSQLIdentifier) AS "r"
                    WHERE "r"."Z_PK" = "j".\(column.quotedSQLIdentifier)
                      AND "r"."Z_ENT" IN (\(layout.subentityNumbers.map(String.init).joined(separator: ", "))))
            """
        }
        let rows =
            "SELECT \"j\".\(sourceColumn.quotedSQLIdentifier) FROM \"main\".\(joinTable.quotedSQLIdentifier) AS \"j\""
        if let key = try Int64.fetchOne(
            db,
            sql: "\(rows) WHERE \(exists(entity, sourceColumn)) AND NOT \(exists(target, destinationColumn)) LIMIT 1")
        {
            throw try violation(
                "the relationship points to a \(target.name) that doesn't exist", entity: entity,
                property: relationship.name, destinationKey: key)
        }
        guard relationship.inverse == nil else { return }
        if let key = try Int64.fetchOne(db, sql: "\(rows) WHERE NOT \(exists(entity, sourceColumn)) LIMIT 1") {
            throw MappingError(
                .validation(
                    "\(joinTable) links a \(entity.name) that doesn't exist (destination Z_PK \(key)) to a \(target.name)"
                ),
                mappingModel: currentMappingModel?.name, entity: entity.name, property: relationship.name)
        }
    }

    /// A validation error naming the source row the bad destination row was made from: the
    /// association of any entity mapping that made an `entity` (or a subentity) with that key.
    private func violation(_ reason: String, entity: EntityLayout, property: String, destinationKey: Int64) throws
        -> MappingError
    {
        var sourceKey: Int64?
        var mappingName: String?
        var mappingModel = currentMappingModel?.name
        let wanted = destinationModel[entity: entity.name]
        for table in lookupTables {
            guard let made = table.mapping.destinationEntity.flatMap({ destinationModel[entity: $0] }), let wanted,
                destinationModel.entity(made, isKindOf: wanted)
            else { continue }
            if let key = try Int64.fetchOne(
                db, sql: "SELECT MIN(source_pk) FROM \(table.qualifiedName) WHERE destination_pk = ?",
                arguments: [destinationKey])
            {
                sourceKey = key
                mappingName = table.mapping.name
                mappingModel = table.mappingModel ?? mappingModel
                break
            }
        }
        if sourceKey == nil, keepsPrimaryKeys, let model = currentMappingModel {
            // An in-place step keeps every key: the destination row *is* the source row. The
            // row's own entity (from its Z_ENT) names the mapping that carried it.
            let number = try Int.fetchOne(
                db,
                sql: "SELECT \"Z_ENT\" FROM \"main\".\(entity.tableName.quotedSQLIdentifier) WHERE \"Z_PK\" = ?",
                arguments: [destinationKey])
            let rowEntity = number.flatMap { destinationLayout.entity(number: $0)?.name } ?? entity.name
            if let mapping = model.entityMappings.first(where: {
                $0.destinationEntity == rowEntity && $0.sourceEntity != nil
            }) {
                sourceKey = destinationKey
                mappingName = mapping.name
            }
        }
        return MappingError(
            .validation("\(reason) (destination Z_PK \(destinationKey))"), mappingModel: mappingModel,
            entityMapping: mappingName, entity: entity.name, property: property, sourcePrimaryKey: sourceKey)
    }
}
