import GRDB
import StepwiseModel
import StepwiseStore

/// Pass 2: create relationships.
///
/// A relationship mapping whose expression is
/// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "<Mapping>", $source.<path>)`
/// or a plain `$source.<path>` (inferred mappings) runs set-based: the source path becomes
/// `(owner, target)` pairs (``SourceRelationshipPath``), both ends are translated through the
/// lookup tables, and the destination's storage is written in one statement: an
/// `UPDATE … FROM` for foreign keys, an `INSERT` for join tables. Ordered relationships keep
/// their source order, written as positions 1024, 2048, … like Core Data's `Z_FOK_` values.
/// Anything else (a policy, unless it keeps the default hook and says so with
/// ``EntityMigrationPolicy/createsRelationshipsByDefault``; a `FUNCTION` of the policy) runs
/// row by row.
extension MigrationManager {
    /// Runs pass 2 for one entity mapping; returns the number of links written.
    func createRelationships(for mapping: EntityMapping, policy: EntityMigrationPolicy?) throws -> Int {
        // Policies may insert objects in pass 2: Z_MAX is exact again when the pass ends.
        try flushPrimaryKeys()
        let links = try createRelationshipsUnflushed(for: mapping, policy: policy)
        try flushPrimaryKeys()
        return links
    }

    private func createRelationshipsUnflushed(for mapping: EntityMapping, policy: EntityMigrationPolicy?) throws
        -> Int
    {
        guard mapping.sourceEntity != nil, let destinationName = mapping.destinationEntity,
            let destinationEntity = destinationLayout.entity(named: destinationName),
            mapping.kind != .remove, mapping.kind != .add
        else { return 0 }
        // Pass 2 visits the instances pass 1 made for this mapping: the bar's denominator.
        let total = progress == nil ? 0 : try count(of: mapping)
        progress?(.passStarted(pass: 2, entityMapping: mapping.name, total: total))
        var rowByRow: [PropertyMapping] = []
        var links = 0
        // A policy that keeps the default pass-2 hook may have its links written in SQL too.
        let setBasedAllowed = policy == nil || policy?.createsRelationshipsByDefault == true
        if setBasedAllowed {
            for relationshipMapping in mapping.relationshipMappings where relationshipMapping.valueExpression != nil {
                do {
                    if let written = try linkSetBased(relationshipMapping, of: mapping, destinationEntity) {
                        links += written
                    } else {
                        rowByRow.append(relationshipMapping)
                    }
                } catch is MappingError {
                    // A mapping error comes from resolving the expression (an unknown entity
                    // mapping), before any statement ran. Row by row meets it again on the
                    // first instance and names the entity mapping, property and source row.
                    rowByRow.append(relationshipMapping)
                }
            }
            if rowByRow.isEmpty {
                progress?(.rows(pass: 2, entityMapping: mapping.name, done: total))
                return links
            }
        }
        // Row by row: the policy's hook (or the default) for every destination instance.
        let activePolicy = policy ?? EntityMigrationPolicy()
        var remaining = mapping
        if setBasedAllowed { remaining.relationshipMappings = rowByRow }
        let table = try lookupTable(for: mapping.name)
        var batch: [(Int64, ObjectID)] = []
        func flush() throws {
            for (sourceKey, destination) in batch {
                do {
                    try activePolicy.createRelationships(forDestination: destination, in: remaining, manager: self)
                } catch let error as MappingError {
                    throw error.adding(
                        entityMapping: mapping.name, entity: destinationName, sourcePrimaryKey: sourceKey)
                } catch let error as StoreError {
                    throw MappingError(
                        error, otherwise: .policyFailed(ErrorText.describe(error)), entityMapping: mapping.name,
                        entity: destinationName, sourcePrimaryKey: sourceKey)
                } catch {
                    throw MappingError(
                        .policyFailed(ErrorText.describe(error)), entityMapping: mapping.name, entity: destinationName,
                        sourcePrimaryKey: sourceKey)
                }
                links += 1
            }
            batch.removeAll(keepingCapacity: true)
        }
        // Read the keys in pages of 1000 (keyset pagination on the destination instance)
        // instead of holding a cursor open: the hooks write to the destination in between, and
        // memory stays bounded by the page size. Each destination instance comes once, as in
        // Core Data, even when a policy merged several source rows into it; its first source
        // row names it in errors.
        var lastKey: (Int64, Int) = (-1, -1)
        while true {
            let page = try Row.fetchAll(
                db,
                sql: """
                    SELECT destination_pk, destination_entity, MIN(source_pk) AS source_pk FROM \(table.qualifiedName)
                    WHERE (destination_pk, destination_entity) > (?, ?)
                    GROUP BY destination_pk, destination_entity ORDER BY destination_pk, destination_entity LIMIT 1000
                    """,
                arguments: [lastKey.0, lastKey.1])
            if page.isEmpty { break }
            for row in page {
                let number: Int = row["destination_entity"]
                let name = destinationLayout.entity(number: number)?.name ?? destinationName
                batch.append((row["source_pk"], ObjectID(entity: name, primaryKey: row["destination_pk"])))
                lastKey = (row["destination_pk"], number)
            }
            try flush()
            // A page is 1000 rows; the flag is checked between pages.
            try cancellation?.check()
            progress?(.rows(pass: 2, entityMapping: mapping.name, done: links))
        }
        return links
    }

    /// One relationship mapping as set-based SQL, or nil when it must run row by row.
    private func linkSetBased(
        _ relationshipMapping: PropertyMapping, of mapping: EntityMapping, _ destinationEntity: EntityLayout
    ) throws -> Int? {
        guard let link = try setBasedLink(relationshipMapping, of: mapping, destinationEntity) else { return nil }
        let (relationship, pairs, targets) = (link.relationship, link.pairs, link.targets)
        guard !targets.isEmpty else { return 0 }
        let owners = try lookupTable(for: mapping.name)
        let targetUnion = targets.map {
            "SELECT source_pk, destination_pk, destination_entity FROM \($0.qualifiedName)"
        }.joined(separator: " UNION ALL ")
        // Positions only where an order column stores them: the window sorts every pair by
        // owner, which an unordered relationship (most of them) doesn't need.
        let position =
            relationship.storage.writesPosition
            ? "ROW_NUMBER() OVER (PARTITION BY \"o\".\"destination_pk\" ORDER BY \"p\".\"position\", \"p\".\"target\") * 1024"
            : "NULL"
        let mapped = """
            SELECT "o"."destination_pk" AS owner, "t"."destination_pk" AS target, "t"."destination_entity" AS target_entity,
                   \(position) AS position
            FROM (\(pairs.sql)) AS "p"
            JOIN \(owners.qualifiedName) AS "o" ON "o"."source_pk" = "p"."owner"
            JOIN (\(targetUnion)) AS "t" ON "t"."source_pk" = "p"."target"
            """
        func table(_ name: String) -> String { "\"main\".\(name.quotedSQLIdentifier)" }
        switch relationship.storage {
        case .foreignKey(let column, let entityColumn, _):
            if try insertedLinkIsFinal(
                relationshipMapping, of: mapping, table: destinationEntity.tableName, column: column)
            {
                return insertedLinks.counts[mapping.name]?[relationshipMapping.name] ?? 0
            }
            let entityAssignment = entityColumn.map { ", \($0.quotedSQLIdentifier) = \"x\".target_entity" } ?? ""
            let changed = Self.changedCondition(
                table(destinationEntity.tableName), [(column, "\"x\".target"), (entityColumn, "\"x\".target_entity")])
            try db.execute(
                sql: """
                    UPDATE \(table(destinationEntity.tableName))
                    SET \(column.quotedSQLIdentifier) = "x".target\(entityAssignment)
                    FROM (\(mapped)) AS "x"
                    WHERE \(table(destinationEntity.tableName)).\"Z_PK\" = "x".owner AND (\(changed))
                    """)
            if db.changesCount > 0 { insertedLinks.changedColumns.insert([destinationEntity.tableName, column]) }
        case .inverseForeignKey(let inverseTable, let column, let orderColumn):
            if relationship.hasHiddenForeignKey {
                try refuseSharedMembers(
                    of: relationship, in: destinationEntity, mapping: mapping, mapped: mapped,
                    table: table(inverseTable), column: column)
            }
            if try insertedInverseIsFinal(link, of: mapping, table: inverseTable, column: column) { return 0 }
            // A hidden key's entity column holds the owner's Z_ENT: every owner here is one of
            // this mapping's destination entity.
            let ownerEntity = relationship.hiddenEntityColumn.map { _ in "\(destinationEntity.number)" }
            let orderAssignment =
                [(orderColumn, "\"x\".position"), (relationship.hiddenEntityColumn, ownerEntity ?? "NULL")]
                .compactMap { column, value in column.map { ", \($0.quotedSQLIdentifier) = \(value)" } }.joined()
            let changed = Self.changedCondition(
                table(inverseTable),
                [
                    (column, "\"x\".owner"), (orderColumn, "\"x\".position"),
                    (relationship.hiddenEntityColumn, ownerEntity ?? "NULL"),
                ])
            try db.execute(
                sql: """
                    UPDATE \(table(inverseTable))
                    SET \(column.quotedSQLIdentifier) = "x".owner\(orderAssignment)
                    FROM (\(mapped)) AS "x"
                    WHERE \(table(inverseTable)).\"Z_PK\" = "x".target AND (\(changed))
                    """)
            if db.changesCount > 0 { insertedLinks.changedColumns.insert([inverseTable, column]) }
        case .joinTable(let joinTable, let sourceColumn, let destinationColumn, let orderColumn):
            var columns = [sourceColumn, destinationColumn]
            var values = ["\"x\".owner", "\"x\".target"]
            // A pair the other side already linked is kept. When this side is ordered, its
            // position still goes into its own order column: a many-to-many ordered on both
            // sides keeps one position per side in each row, and the other side's statement
            // wrote only its own.
            var insert = "INSERT OR IGNORE INTO"
            var onConflict = ""
            if let orderColumn {
                columns.append(orderColumn)
                values.append("\"x\".position")
                let order = orderColumn.quotedSQLIdentifier
                insert = "INSERT INTO"
                // `WHERE true` tells SQLite's parser that `ON CONFLICT` belongs to the INSERT.
                onConflict =
                    "WHERE true ON CONFLICT DO UPDATE SET \(order) = excluded.\(order) WHERE \(order) IS NOT excluded.\(order)"
            }
            try db.execute(
                sql: """
                    \(insert) \(table(joinTable)) (\(columns.map(\.quotedSQLIdentifier).joined(separator: ", ")))
                    SELECT \(values.joined(separator: ", ")) FROM (\(mapped)) AS "x" \(onConflict)
                    """)
        }
        // Rows already holding their link aren't rewritten (``changedCondition(_:_:)``); the
        // report still counts the links pass 1's INSERT wrote for this relationship.
        return db.changesCount + (insertedLinks.counts[mapping.name]?[relationshipMapping.name] ?? 0)
    }

    /// Throws when an object would belong to two owners of a to-many without inverse stored
    /// under a hidden foreign key, which holds one owner per object: the `UPDATE` would keep
    /// one link and drop the others without a word. A join table (one an existing store kept, or a
    /// relationship with a to-many inverse in the source) can hold such pairs; Core Data can't
    /// store them. An owner already written by another mapping counts too.
    private func refuseSharedMembers(
        of relationship: RelationshipLayout, in owner: EntityLayout, mapping: EntityMapping, mapped: String,
        table: String, column: String
    ) throws {
        let shared = try Row.fetchOne(
            db,
            sql: """
                SELECT "x".target, COUNT(DISTINCT "x".owner) FROM (\(mapped)) AS "x"
                GROUP BY "x".target HAVING COUNT(DISTINCT "x".owner) > 1 LIMIT 1
                """)
        let heldElsewhere =
            try shared == nil
            ? Int64.fetchOne(
                db,
                sql: """
                    SELECT "x".target FROM (\(mapped)) AS "x" JOIN \(table) AS "d" ON "d"."Z_PK" = "x".target
                    WHERE "d".\(column.quotedSQLIdentifier) IS NOT NULL AND "d".\(column.quotedSQLIdentifier) IS NOT "x".owner
                    LIMIT 1
                    """) : nil
        guard let key = shared?[0] as Int64? ?? heldElsewhere else { return }
        throw MappingError(
            .validation(
                "\(relationship.destination) Z_PK \(key) would be in the '\(relationship.name)' of more than one \(owner.name); "
                    + "a to-many without inverse stores one owner per object (Core Data keeps it in a hidden foreign key, "
                    + "\(column)), so the upgrade would lose all but one of those links"),
            mappingModel: currentMappingModel?.name, entityMapping: mapping.name, entity: owner.name,
            property: relationship.name)
    }

    /// `column IS NOT value OR …` for the assignments of an `UPDATE`: a row that already holds
    /// every value is left alone instead of rewritten with the same values. Both sides of a
    /// relationship often store the same foreign key (`Recipe.ingredients` and
    /// `Ingredient.recipe`): the second mapping then finds every row set and writes no page
    /// and no index entry. `changesCount` counts the rows written, not the links that hold.
    private static func changedCondition(_ table: String, _ assignments: [(String?, String)]) -> String {
        assignments.compactMap { column, value in
            column.map { "\(table).\($0.quotedSQLIdentifier) IS NOT \(value)" }
        }.joined(separator: " OR ")
    }

    /// Completes what Core Data keeps automatically: the second foreign key of each
    /// one-to-one, and the positions of ordered to-manys whose inverse alone was mapped.
    ///
    /// With `oneToOnesOnly`, only the first: pass 2 calls it after a set-based entity mapping
    /// when policies run later in the stage, so that they see both ends of a one-to-one, as
    /// Core Data's inverse maintenance shows them. Positions wait for the end of the step:
    /// numbered before every link is made, they would clash with the later ones'.
    func completeInverses(oneToOnesOnly: Bool = false) throws {
        try flushPrimaryKeys()
        for entity in destinationLayout.entities {
            for relationship in entity.relationships where relationship.declaringEntity == entity.name {
                guard case .foreignKey(let column, _, let orderColumn) = relationship.storage,
                    let inverseName = relationship.inverse,
                    let target = destinationLayout.entity(named: relationship.destination)
                else { continue }
                let table = "\"main\".\(entity.tableName.quotedSQLIdentifier)"
                let targetTable = "\"main\".\(target.tableName.quotedSQLIdentifier)"
                if case .foreignKey(let inverseColumn, _, _) = target.relationship(named: inverseName)?.storage {
                    // One-to-one: fill this side from the other where only the other was set.
                    // Driven by the other side's keys (read in order from its foreign-key
                    // index), not by this side's NULLs: a row left NULL that no target points
                    // at, the usual case, costs nothing instead of a lookup each. The value is
                    // the one the lookup per row found: the smallest Z_PK pointing at the row.
                    try db.execute(
                        sql: """
                            UPDATE \(table) SET \(column.quotedSQLIdentifier) = "x".pk
                            FROM (SELECT "t".\(inverseColumn.quotedSQLIdentifier) AS owner, MIN("t"."Z_PK") AS pk
                                  FROM \(targetTable) AS "t" WHERE "t".\(inverseColumn.quotedSQLIdentifier) IS NOT NULL
                                  GROUP BY "t".\(inverseColumn.quotedSQLIdentifier)) AS "x"
                            WHERE \(table)."Z_PK" = "x".owner AND \(table).\(column.quotedSQLIdentifier) IS NULL
                              AND \(table)."Z_ENT" IN (\(entity.subentityNumbers.map(String.init).joined(separator: ", ")))
                            """)
                }
                if let orderColumn, !oneToOnesOnly {
                    try db.execute(
                        sql: """
                            UPDATE \(table) SET \(orderColumn.quotedSQLIdentifier) = "x".position
                            FROM (SELECT "Z_PK" AS pk, ROW_NUMBER() OVER (PARTITION BY \(column.quotedSQLIdentifier) ORDER BY "Z_PK") * 1024 AS position
                                  FROM \(table) WHERE \(column.quotedSQLIdentifier) IS NOT NULL) AS "x"
                            WHERE \(table)."Z_PK" = "x".pk AND \(table).\(orderColumn.quotedSQLIdentifier) IS NULL
                            """)
                }
            }
        }
    }
}

extension RelationshipLayout.Storage {
    /// Whether pass 2 writes positions for this storage: an ordered to-many's order column.
    fileprivate var writesPosition: Bool {
        switch self {
        case .foreignKey: false
        case .inverseForeignKey(_, _, let orderColumn): orderColumn != nil
        case .joinTable(_, _, _, let orderColumn): orderColumn != nil
        }
    }
}
