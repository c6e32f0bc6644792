import GRDB
import StepwiseModel
import StepwiseStore

/// Which tables a step keeps as they are and which it rebuilds, when its mapping model mixes
/// plain copies with real mappings: the usual shape of a hand-written `.xcmappingmodel`, where
/// one entity is transformed and every other entity mapping is a copy Xcode generated.
///
/// Rebuilding a whole store to change one entity writes every row of every table. Instead the
/// step works in a copy of the source (or the consumed source itself), as the in-place path
/// does, and only the tables that a real mapping writes are rebuilt there
/// (``MigrationStep/migratePartially(from:to:access:models:sourceLayout:destinationLayout:metadata:started:)``):
/// their source versions are moved aside under scratch names
/// (``movedSourceTables``), the destination's are created empty under the real names, and the
/// three passes fill them reading the moved tables, with Core Data's order and hooks intact.
/// The kept tables are neither read row by row nor written.
///
/// **What may be kept.** An entity table is kept when each entity in it has exactly one entity
/// mapping into it, and that mapping is a *plain copy*: the same entity (name, version hash,
/// `Z_ENT`, table) in both versions, the same columns, no policy, no filter, and every property mapped from the
/// source property of the same name (`$source.name`), relationships also through Xcode's
/// `destinationInstancesForEntityMappingNamed:` form. Its rows keep their `Z_PK`s, so the
/// other mappings find them through an identity association (source key = destination key).
///
/// **Keys stay valid.** A kept table may hold foreign keys only into kept tables: a rebuilt
/// entity's rows get new `Z_PK`s, and a kept foreign key to one would point at the old ones.
/// So kept tables are settled as a fixed point: a table referring to one that isn't kept isn't
/// kept either. Links stored in rebuilt tables (a rebuilt entity's foreign keys, join tables,
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
        // 2. The fixed point: a kept table's foreign keys must point into kept tables.
        var changed = true
        while changed {
            changed = false
            for name in kept {
                guard let table = destination.table(named: name),
                    referencesOnlyKept(table, kept: kept, destination: destination)
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
        return PartialRebuildPlan(
            keptTables: kept, keptMappings: keptMappings, movedSourceTables: moved, rebuiltTables: rebuilt,
            privateTables: PrivateTablePlan(models: [mapping], source: source, destination: destination))
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
                sourcePath(of: expression) == [relationship.name]
            else { return false }
        }
        return true
    }

    /// `$source.x` or `FUNCTION($manager, "destinationInstances…", "M", $source.x)` → `[x]`.
    private static func sourcePath(of expression: Expression) -> [String]? {
        switch expression {
        case .keyPath(.source, let path):
            return path
        case .function(.keyPath(.manager, []), MappingInference.destinationInstancesSelector, let arguments):
            guard arguments.count == 2, case .keyPath(.source, let path) = arguments[1] else { return nil }
            return path
        default:
            return nil
        }
    }

    /// Whether every key column of `table` points into a kept table.
    private static func referencesOnlyKept(_ table: TableLayout, kept: Set<String>, destination: StoreLayout) -> Bool {
        for column in table.columns {
            switch column.role {
            case .foreignKey(let entityName, let relationshipName):
                guard
                    let target = destination.entity(named: entityName)?.relationship(named: relationshipName)
                        .flatMap({ destination.entity(named: $0.destination) }),
                    kept.contains(target.tableName)
                else { return false }
            case .hiddenForeignKey(let entityName, _):
                // The hidden key of a to-many without inverse lives in the members' table and
                // holds the owner's key.
                guard let owner = destination.entity(named: entityName), kept.contains(owner.tableName)
                else { return false }
            case .joinSource, .joinDestination, .bookkeeping:
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
