import GRDB
import StepwiseModel
import StepwiseStore

/// What pass 2's set-based path needs to write one relationship mapping in SQL: the
/// destination relationship, the source path as `(owner, target)` pairs, and the lookup
/// tables that translate the targets.
struct SetBasedLink {
    let relationship: RelationshipLayout
    let pairs: SourceRelationshipPath
    let targets: [LookupTable]
    /// The source key path the expression follows.
    let path: [String]
}

extension MigrationManager {
    /// A relationship mapping whose expression is a plain `$source.<path>` or
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "<Mapping>", $source.<path>)`
    /// over relationships only, resolved; nil when it must run row by row.
    func setBasedLink(
        _ relationshipMapping: PropertyMapping, of mapping: EntityMapping, _ destinationEntity: EntityLayout
    ) throws -> SetBasedLink? {
        guard let expression = relationshipMapping.valueExpression,
            let sourceName = mapping.sourceEntity,
            let relationship = destinationEntity.relationship(named: relationshipMapping.name)
        else { return nil }
        // Which source path, and which lookup tables translate its targets.
        let path: [String]
        var namedMapping: String?
        switch expression {
        case .keyPath(.source, let keyPath):
            path = keyPath
        case .function(
            .keyPath(.manager, []), "destinationInstancesForEntityMappingNamed:sourceInstances:",
            let arguments):
            guard arguments.count == 2, case .constant(.string(let name)) = arguments[0],
                case .keyPath(.source, let keyPath) = arguments[1]
            else { return nil }
            path = keyPath
            namedMapping = name
        default:
            return nil
        }
        guard
            let pairs = SourceRelationshipPath(
                layout: sourceLayout, from: sourceName, path: path, schema: sourceSchema)
        else { return nil }
        let targets: [LookupTable]
        if let namedMapping, currentMappingModel?.isInferred != true {
            targets = [try lookupTable(for: namedMapping)]
        } else {
            // A plain key path, or an inferred mapping, whose named mapping stands for "the
            // mappings that made the destination entity (or a subentity) from these rows".
            targets = lookupTables(producing: relationship.destination, fromSourceTable: pairs.finalEntity.tableName)
        }
        return SetBasedLink(relationship: relationship, pairs: pairs, targets: targets, path: path)
    }

    /// The destination to-one foreign keys pass 1 can write while it inserts the rows, as
    /// `(column, SQL over the source row "s")`: a set-based link through one source to-one
    /// (`$source.chef`) into one lookup table. Its targets' keys are there when their
    /// mapping ran earlier in the step; otherwise the column stays NULL until pass 2.
    ///
    /// **Only a head start; pass 2 still decides.** Pass 2 runs the relationship mapping as
    /// it would have (``linkSetBased``): its `UPDATE` writes every row it has a pair for,
    /// with its own value, and skips a row already holding that value. A value written here
    /// is that same value: the target lookup translates the same source key (`LIMIT 1` picks
    /// one where a policy made several destinations from one row, and pass 2 then writes its
    /// own pick). A row pass 2 has no pair for gets NULL here too: its source key is NULL,
    /// or names no row of the table the lookup maps (a dangling source key, which no lookup
    /// row has, because the lookup was filled from that table's rows). So the store after
    /// pass 2 is the same; the foreign keys are written once, inside the `INSERT`, instead of
    /// a second time by an `UPDATE` of every row and of the column's index.
    ///
    /// `complete` tells whether the target lookup already holds every key it will (its mapping
    /// ran, or is this one, whose lookup is filled before the `INSERT`).
    ///
    /// **Only when no policy can see it early.** Core Data's stage 1 creates instances and
    /// attributes only; stage 2 creates relationships mapping by mapping. A foreign key written
    /// here is a link made in stage 1 and, for the mappings before this one, before their
    /// stage-2 turn. Between this `INSERT` and this mapping's own pass 2 run: pass 1 of every
    /// later entity mapping of the mapping model (`createDestinationInstances`,
    /// `endInstanceCreation`), and pass 2 of every earlier one (`createRelationships`,
    /// `endRelationshipCreation`). This mapping itself has no policy (the set-based pass 1 needs
    /// none). So when no entity mapping of the mapping model has a policy, no hook runs in that
    /// window and nothing can tell the head start from pass 2's own write; when one has, the
    /// column stays NULL until pass 2, as in Core Data. The `begin` hooks ran before any
    /// `INSERT`, and stage 3's hooks see every link either way. (A later mapping model of the
    /// step runs after this one's pass 2: every link is final by then.)
    func foreignKeysWrittenOnInsert(of mapping: EntityMapping, _ destinationEntity: EntityLayout) throws
        -> [InsertedForeignKey]
    {
        guard let sourceName = mapping.sourceEntity, let sourceEntity = sourceLayout.entity(named: sourceName),
            !mappingModelHasPolicies
        else { return [] }
        var written: [InsertedForeignKey] = []
        for relationshipMapping in mapping.relationshipMappings where relationshipMapping.valueExpression != nil {
            guard let link = try setBasedLink(relationshipMapping, of: mapping, destinationEntity),
                case .foreignKey(let column, nil, _) = link.relationship.storage,
                link.path.count == 1, link.targets.count == 1,
                case .foreignKey(let sourceColumn, _, _)? = sourceEntity.relationship(named: link.path[0])?.storage,
                link.targets[0].sourceTable == link.pairs.finalEntity.tableName,
                !written.contains(where: { $0.column == column })
            else { continue }
            let target = link.targets[0]
            let complete =
                try target.mapping.name == mapping.name
                || Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(target.qualifiedName))") == true
            written.append(
                InsertedForeignKey(
                    relationship: relationshipMapping.name, column: column,
                    sql: """
                        (SELECT "t"."destination_pk" FROM \(target.qualifiedName) AS "t"
                         WHERE "t"."source_pk" = "s".\(sourceColumn.quotedSQLIdentifier) LIMIT 1)
                        """,
                    complete: complete,
                    link: InsertedLink(
                        table: destinationEntity.tableName, column: column, targetLookup: target.index,
                        sourceEntity: sourceName, sourceRelationship: link.path[0])))
        }
        return written
    }
}

/// What pass 1's `INSERT`s wrote of pass 2's work (``MigrationManager/foreignKeysWrittenOnInsert(of:_:)``),
/// and which foreign-key columns pass 2 has changed since.
struct InsertedLinks {
    /// Per entity mapping name, then relationship name: the links the `INSERT` wrote, which
    /// pass 2 reports as its own.
    var counts: [String: [String: Int]] = [:]
    /// Per `[mapping, relationship]`: the links written with a complete target lookup.
    var complete: [[String]: InsertedLink] = [:]
    /// The `(table, column)` pairs a set-based pass-2 statement changed a row of.
    var changedColumns: Set<[String]> = []
}

extension MigrationManager {
    /// Whether pass 2 may leave a relationship as pass 1's `INSERT` wrote it, without its
    /// `UPDATE`, which would find every row already holding its value:
    /// - the `INSERT` wrote it through a complete target lookup: the same value from the
    ///   same lookup rows as the `UPDATE` (see ``foreignKeysWrittenOnInsert(of:_:)``);
    /// - no entity mapping of the mapping model has a policy, so no hook ran and no lookup
    ///   row was added, and every relationship mapping runs set-based: nothing but pass 2's
    ///   own statements writes a foreign key before this one;
    /// - none of those statements changed a row's value of this column.
    /// Then the column still holds exactly what the `UPDATE` would write.
    func insertedLinkIsFinal(
        _ relationshipMapping: PropertyMapping, of mapping: EntityMapping, table: String, column: String
    ) throws -> Bool {
        guard insertedLinks.complete[[mapping.name, relationshipMapping.name]] != nil,
            !insertedLinks.changedColumns.contains([table, column])
        else { return false }
        return try onlySetBasedLinks()
    }

    /// Whether pass 2 may leave a to-many's inverse foreign key as pass 1's `INSERT` wrote it
    /// for the inverse (`Recipe.ingredients` after `Ingredient.recipe` was written), without
    /// its `UPDATE`, which would find every row already holding its value:
    /// - the to-many has no order column, and re-links the inverse of the source to-one the
    ///   `INSERT` followed, through the lookup of the mapping that wrote it, whose own lookup
    ///   was the `INSERT`'s target: the same `(owner, target)` pairs, seen from the other end;
    /// - as for ``insertedLinkIsFinal(_:of:table:column:)``: no policy in the mapping model
    ///   (so a lookup holds one destination per source row: both ends pick the same one), every
    ///   relationship mapping set-based, and no pass-2 statement changed the column since.
    func insertedInverseIsFinal(
        _ link: SetBasedLink, of mapping: EntityMapping, table: String, column: String
    ) throws -> Bool {
        guard case .inverseForeignKey(_, _, nil) = link.relationship.storage,
            let inverse = link.relationship.inverse, link.path.count == 1, link.targets.count == 1,
            let inserted = insertedLinks.complete[[link.targets[0].mapping.name, inverse]],
            inserted.table == table, inserted.column == column,
            inserted.targetLookup == (try lookupTable(for: mapping.name)).index,
            let sourceName = mapping.sourceEntity,
            let sourceRelationship = sourceLayout.entity(named: sourceName)?.relationship(named: link.path[0]),
            sourceRelationship.destination == inserted.sourceEntity,
            sourceRelationship.inverse == inserted.sourceRelationship,
            !insertedLinks.changedColumns.contains([table, column])
        else { return false }
        return try onlySetBasedLinks()
    }

    /// Whether an entity mapping of the current mapping model has a policy, whose hooks may
    /// observe the destination between passes (true when there is no current mapping model).
    var mappingModelHasPolicies: Bool {
        guard let model = currentMappingModel else { return true }
        return model.entityMappings.contains { !($0.policyName ?? "").isEmpty }
    }

    /// Whether no entity mapping of the current mapping model has a policy and every
    /// relationship mapping of it runs set-based.
    private func onlySetBasedLinks() throws -> Bool {
        guard let model = currentMappingModel, !mappingModelHasPolicies else { return false }
        for entityMapping in model.entityMappings {
            guard entityMapping.kind != .remove, entityMapping.kind != .add,
                let name = entityMapping.destinationEntity, let entity = destinationLayout.entity(named: name)
            else { continue }
            for other in entityMapping.relationshipMappings where other.valueExpression != nil {
                guard try setBasedLink(other, of: entityMapping, entity) != nil else { return false }
            }
        }
        return true
    }
}

/// A foreign key pass 1's `INSERT` writes (``MigrationManager/foreignKeysWrittenOnInsert(of:_:)``).
struct InsertedForeignKey {
    let relationship: String
    let column: String
    /// Its value, an SQL expression over the source row `"s"`.
    let sql: String
    /// Whether the target lookup held every key it will when the `INSERT` ran.
    let complete: Bool
    let link: InsertedLink
}

/// Where an `INSERT` wrote a foreign key from, for pass 2 to recognize the same links.
struct InsertedLink: Hashable {
    /// The destination table and column written.
    let table: String
    let column: String
    /// The ``LookupTable/index`` that translated the source keys.
    let targetLookup: Int
    /// The mapping's source entity, and the source to-one followed.
    let sourceEntity: String
    let sourceRelationship: String
}
