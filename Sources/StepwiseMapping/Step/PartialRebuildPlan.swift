import GRDB
import StepwiseModel
import StepwiseStore

/// Which tables a step keeps as they are and which it rebuilds, when its mapping model mixes
/// plain copies with real mappings: the usual shape of a hand-written `.xcmappingmodel`, where
/// one entity is transformed and every other entity mapping is a copy Xcode generated.
///
/// Rebuilding a whole store to change one entity writes every row of every table. Instead the
/// step works in a copy of the source, as the in-place path
/// does, and only the tables that a real mapping writes are rebuilt there
/// (``MigrationStep/migratePartially(_:from:to:access:models:sourceLayout:destinationLayout:metadata:started:)``):
/// their source versions are moved aside under scratch names
/// (``movedSourceTables``), the destination's are created empty under the real names, and the
/// three passes fill them reading the moved tables, with Core Data's order and hooks intact.
/// The kept tables are neither read row by row nor written.
///
/// **What may be kept.** An entity table is kept when each entity in it has exactly one entity
/// mapping into it, and that mapping is a *plain copy*: the same entity (name, version hash,
/// `Z_ENT`, table) in both versions, the same columns, no filter, and every property mapped from the
/// source property of the same name (`$source.name`), relationships also through Xcode's
/// `destinationInstancesForEntityMappingNamed:` form. Its rows keep their `Z_PK`s, so the
/// other mappings find them through an identity association (source key = destination key).
///
/// **Keys stay valid.** A rebuilt entity's rows get new `Z_PK`s (dense again, as Core Data
/// numbers them), so a kept foreign key into a rebuilt table would point at the old ones. A
/// kept table may hold foreign keys into kept tables, and into tables rebuilt one row per
/// source row, whose keys stage 2 moves to the new ones (``ForeignKeyRemap``: it writes only
/// the rows whose key changed, none when the source's keys were dense). Kept tables are
/// settled as a fixed point: a table referring to any other table isn't kept.
///
/// **No policy.** A step whose mapping names a policy rebuilds the whole store: a kept row
/// holds its links from the start, and a policy could see them in stage 1, where Core Data
/// shows none. Links stored in rebuilt tables (a rebuilt entity's foreign keys, join tables,
/// hidden foreign keys in a rebuilt table) are written by pass 2 as in any rebuild, the kept
/// mappings' relationship mappings included.
///
/// Anything this doesn't recognize makes ``make(mapping:source:destination:)`` return nil:
/// the step then rebuilds the whole store, which is always right.
struct PartialRebuildPlan {
    /// Destination entity and join tables that stay as they are (same name in both versions).
    var keptTables: Set<String>
    /// The plain-copy entity mappings, whose rows stay where they are.
    var keptMappings: Set<String>
    /// Source entity and join tables that aren't kept, by name: the scratch names they are
    /// moved to, so the destination's tables can take the real names.
    var movedSourceTables: [String: String]
    /// Destination entity and join tables created empty and filled by the passes.
    var rebuiltTables: [TableLayout]
    /// The foreign keys of kept tables into tables rebuilt one row per source row, moved to
    /// the rebuilt rows' keys in stage 2 (``ForeignKeyRemap``).
    var remappedForeignKeys: [ForeignKeyRemap]
    /// What happens to Core Data's private tables (``PrivateTableInPlace``).
    var privateTables: PrivateTablePlan

    /// The prefix of the scratch names source tables are moved to.
    static let movedTablePrefix = "stepwise_source_"

    /// The source layout with the moved tables under their scratch names: what the passes read.
    func movedSource(_ source: StoreLayout) -> StoreLayout {
        source.renamingTables(movedSourceTables)
    }

    /// The `Z_ENT`s of the destination entities whose rows are made anew (their keys restart).
    func rebuiltEntityNumbers(in destination: StoreLayout) -> [Int] {
        rebuiltTables.flatMap { table -> [Int] in
            guard case .entity = table.kind else { return [] }
            return table.entityNumbers
        }
    }

    /// A plan, or nil when the whole store should be rebuilt: nothing can be kept, or the
    /// mapping has a shape this plan doesn't handle.
    static func make(mapping: MappingModel, source: StoreLayout, destination: StoreLayout) -> PartialRebuildPlan? {
        // A policy may look at the destination in any stage, and in Core Data it would see no
        // link before stage 2 made it: kept rows hold theirs from the start. So a step with a
        // policy rebuilds the whole store, which keeps Core Data's stages exactly.
        guard mapping.entityMappings.allSatisfy({ ($0.policyName ?? "").isEmpty }) else { return nil }
        var mappingsByDestination: [String: [EntityMapping]] = [:]
        for entityMapping in mapping.entityMappings {
            if let name = entityMapping.destinationEntity, entityMapping.kind != .remove {
                mappingsByDestination[name, default: []].append(entityMapping)
            }
        }
        let plainCopies = Set(
            mapping.entityMappings.filter { isPlainCopy($0, source: source, destination: destination) }.map(\.name))
        // 1. Entity tables whose every entity comes from one plain copy of the same table.
        var kept: Set<String> = []
        for table in destination.tables {
            guard case .entity = table.kind, let sourceTable = source.table(named: table.name),
                case .entity = sourceTable.kind, sourceTable.name == table.name,
                sourceTable.entityNumbers == table.entityNumbers, sameColumns(sourceTable, table)
            else { continue }
            let allCopied = table.entityNumbers.allSatisfy { number in
                guard let entity = destination.entity(number: number) else { return false }
                guard let mappings = mappingsByDestination[entity.name] else {
                    // An abstract entity has no rows of its own, so nothing to map.
                    return entity.isAbstract
                }
                return mappings.count == 1 && plainCopies.contains(mappings[0].name)
            }
            if allCopied { kept.insert(table.name) }
        }
        // 2. The fixed point: a kept table's foreign keys must point into kept tables, or into
        //    tables rebuilt one row per source row, whose new keys they can be moved to.
        let oneToOne = oneToOneTables(mapping, mappingsByDestination, source: source, destination: destination)
        var changed = true
        while changed {
            changed = false
            // A kept table's link columns that a rebuilt mapping also sets (the other side of
            // a to-one): the kept column already holds the link (moved to new keys if need be),
            // so that mapping's relationship mapping is skipped, which is only the same when it
            // is the default one, `$source.<same name>`.
            for entityMapping in mapping.entityMappings where !plainCopies.contains(entityMapping.name) {
                guard let entity = entityMapping.destinationEntity.flatMap({ destination.entity(named: $0) })
                else { continue }
                for propertyMapping in entityMapping.relationshipMappings {
                    guard
                        case .inverseForeignKey(let table, _, _) = entity.relationship(named: propertyMapping.name)?
                            .storage,
                        kept.contains(table),
                        propertyMapping.valueExpression.flatMap(InPlacePlan.sourceRelationshipPath) != [
                            propertyMapping.name
                        ]
                    else { continue }
                    kept.remove(table)
                    changed = true
                }
            }
            for name in kept {
                guard let table = destination.table(named: name),
                    referencesOnlyKept(table, kept: kept, remappable: oneToOne, destination: destination)
                else {
                    kept.remove(name)
                    changed = true
                    continue
                }
            }
        }
        guard !kept.isEmpty else { return nil }
        // 3. Join tables: kept when both sides' tables are, and the table is the same.
        for table in destination.tables {
            guard case .join(let entityName, let relationshipName) = table.kind,
                let relationship = destination.entity(named: entityName)?.relationship(named: relationshipName),
                let owner = destination.entity(named: entityName),
                let target = destination.entity(named: relationship.destination),
                kept.contains(owner.tableName), kept.contains(target.tableName),
                let sourceTable = source.table(named: table.name), case .join = sourceTable.kind,
                sourceTable.name == table.name, sameColumns(sourceTable, table)
            else { continue }
            kept.insert(table.name)
        }
        let keptMappings = Set(
            mapping.entityMappings.filter { entityMapping in
                guard plainCopies.contains(entityMapping.name), let name = entityMapping.destinationEntity,
                    let entity = destination.entity(named: name)
                else { return false }
                return kept.contains(entity.tableName)
            }.map(\.name))
        var moved: [String: String] = [:]
        for table in source.tables where !kept.contains(table.name) {
            switch table.kind {
            case .entity, .join: moved[table.name] = movedTablePrefix + table.name
            case .bookkeeping: continue
            }
        }
        let rebuilt = destination.tables.filter { table in
            switch table.kind {
            case .entity, .join: !kept.contains(table.name)
            case .bookkeeping: false
            }
        }
        var remaps: [ForeignKeyRemap] = []
        for table in destination.tables where kept.contains(table.name) {
            for column in table.columns {
                guard case .foreignKey(let entityName, let relationshipName) = column.role,
                    let target = destination.entity(named: entityName)?.relationship(named: relationshipName)
                        .flatMap({ destination.entity(named: $0.destination) }),
                    !kept.contains(target.tableName), let targetTable = destination.table(named: target.tableName)
                else { continue }
                let owners = table.entityNumbers.filter { number in
                    destination.entity(number: number)?.relationship(named: relationshipName)?.declaringEntity
                        == entityName
                }
                let targetMappings = targetTable.entityNumbers.flatMap { number in
                    destination.entity(number: number).flatMap { mappingsByDestination[$0.name] }?.map(\.name) ?? []
                }
                remaps.append(
                    ForeignKeyRemap(
                        table: table.name, column: column.name, entityNumbers: owners, targetMappings: targetMappings))
            }
        }
        return PartialRebuildPlan(
            keptTables: kept, keptMappings: keptMappings, movedSourceTables: moved, rebuiltTables: rebuilt,
            remappedForeignKeys: remaps,
            privateTables: PrivateTablePlan(models: [mapping], source: source, destination: destination))
    }

    /// The destination entity tables a step rebuilds one row per source row: each concrete
    /// entity in them has exactly one mapping, from the entity of the same name and `Z_ENT`,
    /// with no policy and no filter, and the source table holds the same entities. A key into
    /// such a table can be moved to the new row's key through the mapping's associations.
    private static func oneToOneTables(
        _ mapping: MappingModel, _ mappingsByDestination: [String: [EntityMapping]], source: StoreLayout,
        destination: StoreLayout
    ) -> Set<String> {
        var tables: Set<String> = []
        for table in destination.tables {
            guard case .entity = table.kind, let sourceTable = source.table(named: table.name),
                sourceTable.entityNumbers == table.entityNumbers
            else { continue }
            let oneToOne = table.entityNumbers.allSatisfy { number in
                guard let entity = destination.entity(number: number) else { return false }
                guard let mappings = mappingsByDestination[entity.name] else { return entity.isAbstract }
                guard mappings.count == 1, let only = mappings.first else { return false }
                return (only.kind == .copy || only.kind == .transform) && only.filter == nil
                    && (only.policyName ?? "").isEmpty && only.sourceEntity == entity.name
                    && source.entity(named: entity.name)?.number == number
            }
            if oneToOne { tables.insert(table.name) }
        }
        return tables
    }

    /// Whether `entityMapping` copies an entity unchanged: same entity, same storage, no
    /// policy or filter, every property from the source property of the same name.
    static func isPlainCopy(_ entityMapping: EntityMapping, source: StoreLayout, destination: StoreLayout) -> Bool {
        guard entityMapping.kind == .copy || entityMapping.kind == .transform,
            (entityMapping.policyName ?? "").isEmpty, entityMapping.filter == nil,
            let name = entityMapping.destinationEntity, entityMapping.sourceEntity == name,
            let sourceEntity = source.entity(named: name), let destinationEntity = destination.entity(named: name),
            sourceEntity.number == destinationEntity.number, sourceEntity.tableName == destinationEntity.tableName,
            let sourceModelEntity = source.model[entity: name],
            let destinationModelEntity = destination.model[entity: name],
            VersionHasher.entityHash(of: sourceModelEntity, in: source.model)
                == VersionHasher.entityHash(of: destinationModelEntity, in: destination.model),
            sourceEntity.attributes.map(\.storageSignature) == destinationEntity.attributes.map(\.storageSignature),
            sourceEntity.relationships.map(\.storageSignature)
                == destinationEntity.relationships.map(\.storageSignature)
        else { return false }
        let attributes = Dictionary(
            entityMapping.attributeMappings.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for attribute in destinationEntity.attributes {
            guard let propertyMapping = attributes[attribute.name], propertyMapping.widening == nil,
                propertyMapping.userInfo[MappingInference.defaultForNullKey] == nil,
                case .keyPath(.source, let path) = propertyMapping.valueExpression, path == [attribute.name]
            else { return false }
        }
        let relationships = Dictionary(
            entityMapping.relationshipMappings.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for relationship in destinationEntity.relationships {
            guard let expression = relationships[relationship.name]?.valueExpression,
                InPlacePlan.sourceRelationshipPath(expression) == [relationship.name]
            else { return false }
        }
        return true
    }

    /// Whether every key column of `table` points into a kept table, or (a to-one's foreign
    /// key) into a table whose keys can be moved (`remappable`).
    private static func referencesOnlyKept(
        _ table: TableLayout, kept: Set<String>, remappable: Set<String>, destination: StoreLayout
    ) -> Bool {
        for column in table.columns {
            switch column.role {
            case .foreignKey(let entityName, let relationshipName):
                guard
                    let target = destination.entity(named: entityName)?.relationship(named: relationshipName)
                        .flatMap({ destination.entity(named: $0.destination) }),
                    kept.contains(target.tableName) || remappable.contains(target.tableName)
                else { return false }
            case .hiddenForeignKey(let entityName, _):
                // The hidden key of a to-many without inverse lives in the members' table and
                // holds the owner's key.
                guard let owner = destination.entity(named: entityName), kept.contains(owner.tableName)
                else { return false }
            case .joinSource, .joinDestination, .bookkeeping:
                return false
            case .hiddenForeignKeyEntity:
                // The holder's Z_ENT beside a hidden key: kept entity numbers are renumbered only
                // in the to-ones' entity columns, so the table is rebuilt.
                return false
            case .primaryKey, .entityNumber, .optimisticLock, .attribute, .foreignKeyEntity, .order:
                continue
            }
        }
        return true
    }

    /// Whether two tables have the same columns, with the same types, in the same order.
    private static func sameColumns(_ a: TableLayout, _ b: TableLayout) -> Bool {
        a.columns.map { "\($0.name.uppercased()) \($0.type)" } == b.columns.map { "\($0.name.uppercased()) \($0.type)" }
    }
}

extension AttributeLayout {
    /// What must not change for a column to be kept: name, column and stored type.
    fileprivate var storageSignature: String { "\(name) \(column) \(columnType)" }
}

extension RelationshipLayout {
    /// What must not change for a relationship's storage to be kept.
    fileprivate var storageSignature: String {
        "\(name) \(destination) \(inverse ?? "-") \(isToMany) \(isOrdered) \(storage) \(hasHiddenForeignKey)"
    }
}

/// A foreign-key column of a kept table whose target is rebuilt one row per source row: stage
/// 2 moves each key to the new row's, through the target mappings' associations.
struct ForeignKeyRemap {
    /// The kept table and its column.
    var table: String
    var column: String
    /// The `Z_ENT`s of the rows that hold the relationship.
    var entityNumbers: [Int]
    /// The entity mappings that made the target table's rows (one per entity).
    var targetMappings: [String]
}
