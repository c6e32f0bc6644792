import GRDB
import StepwiseModel
import StepwiseStore

/// The `ALTER TABLE` statements that turn a copy of the source into the destination, when an
/// inferred step only renames, adds or drops columns and tables.
///
/// Rewriting rows is the expensive part of a step; SQLite can rename a table
/// (`ALTER TABLE … RENAME TO`), rename a column (`RENAME COLUMN`, SQLite 3.25), add one
/// (`ADD COLUMN`) and drop one (`DROP COLUMN`, SQLite 3.35) without touching the rows. So when
/// a mapping keeps every kept column's declared type and stored values (no widening but one
/// that ``TypeWidening/keepsStoredValues``) and every relationship's storage, the step alters a
/// copy of the source instead of building a new file. Primary keys are kept, which keeps every
/// foreign key valid. Entity numbers may change (an entity added or removed renumbers those
/// that sort after it): ``InPlaceRenumbering`` moves the rows to the new ones.
///
/// The plan is conservative: anything it doesn't recognize makes ``make(mapping:source:destination:allowsRenumbering:)``
/// return nil, and the caller verifies the altered schema against the destination layout
/// before trusting it (``InPlaceMigration``), falling back to the rebuilding path otherwise.
struct InPlacePlan {
    /// One destination entity table and where its columns come from.
    struct TablePlan {
        var destination: TableLayout
        /// The source table it continues, nil for a new (empty) table.
        var source: String?
        /// Destination column → source column, for kept (possibly renamed) columns.
        var keptColumns: [String: String]
        /// Destination columns to add, with the value to store and the entities that get it.
        var addedColumns: [(column: ColumnLayout, value: DatabaseValue, entityNumbers: [Int])]
        /// Destination columns whose NULLs get a default (optional → non-optional).
        var defaultsForNull: [(column: String, value: DatabaseValue, entityNumbers: [Int])]
        /// Source columns that no destination column uses.
        var droppedColumns: [String]
        /// Source `Z_ENT`s whose rows are removed (entities with a *remove* mapping).
        var removedEntityNumbers: [Int]
        /// Source `Z_ENT`s of the entities mapped into this table: with ``removedEntityNumbers``,
        /// every number its rows may hold.
        var sourceEntityNumbers: [Int] = []
        /// The source root's `Z_ENT`, whose `Z_PRIMARYKEY` row counts the table's keys.
        var sourceRootNumber: Int?
        /// For each kept entity column: the source foreign key beside it, the entity column and
        /// the source table its key names (``InPlaceRenumbering/sourceFits(_:in:)``).
        var sourceEntityColumnTargets: [(key: String, entityColumn: String, table: String)] = []

        /// The source names of the kept entity columns (`Z<n>_<NAME>`), which hold entity numbers.
        var sourceEntityColumns: [String] {
            destination.columns.compactMap { column in
                guard case .foreignKeyEntity = column.role else { return nil }
                return keptColumns[column.name]
            }
        }
    }

    /// A destination join table continuing a source join table, whose name and columns may
    /// differ (they carry entity numbers: `Z_16USERS` with `Z_16SYSTEMMESSAGES`).
    struct JoinTablePlan {
        var source: String
        var destination: TableLayout
        /// Destination column → source column.
        var columns: [String: String]
    }

    var tables: [TablePlan]
    /// Source tables (entity and join tables) that disappear.
    var droppedTables: [String]
    /// Join tables kept, renamed where their names carry entity numbers that change.
    var joinTables: [JoinTablePlan]
    /// Source `Z_ENT` → destination `Z_ENT`, for the mapped entities whose number changes.
    var renumbering: [Int: Int] = [:]
    /// Destination `Z_ENT` → the source `Z_ENT` whose `Z_MAX` its `Z_PRIMARYKEY` row keeps.
    var primaryKeySources: [Int: Int] = [:]

    /// The source `Z_ENT`s of every mapped entity.
    var mappedSourceNumbers: [Int] { Array(primaryKeySources.values) }
    /// What happens to Core Data's private tables (``PrivateTableInPlace``).
    var privateTables: PrivateTablePlan

    /// A plan, or nil when the step needs rows to be rewritten.
    ///
    /// - parameter allowsRenumbering: Whether entity numbers may change (else such a step
    ///   rebuilds).
    static func make(
        mapping: MappingModel, source: StoreLayout, destination: StoreLayout, allowsRenumbering: Bool
    ) -> InPlacePlan? {
        // A policy is code that must see the rows (a mapping edited after inference may still
        // say it is inferred): never skip it by altering the schema instead.
        guard mapping.isInferred,
            mapping.entityMappings.allSatisfy({ ($0.policyName ?? "").isEmpty })
        else { return nil }
        var mappingsByDestination: [String: EntityMapping] = [:]
        var removedBySourceTable: [String: [Int]] = [:]
        var renumbering: [Int: Int] = [:]
        var primaryKeySources: [Int: Int] = [:]
        var mergesMappings = false
        for entityMapping in mapping.entityMappings {
            switch entityMapping.kind {
            case .copy, .transform:
                guard let sourceName = entityMapping.sourceEntity,
                    let destinationName = entityMapping.destinationEntity,
                    let sourceEntity = source.entity(named: sourceName),
                    let destinationEntity = destination.entity(named: destinationName),
                    entityMapping.filter == nil
                else { return nil }
                // Two mappings into one entity: the last one counts, as it always did; only a
                // renumbering step needs each destination's one source (its Z_MAX).
                if mappingsByDestination[destinationName] != nil { mergesMappings = true }
                mappingsByDestination[destinationName] = entityMapping
                primaryKeySources[destinationEntity.number] = sourceEntity.number
                if sourceEntity.number != destinationEntity.number {
                    renumbering[sourceEntity.number] = destinationEntity.number
                }
            case .remove:
                guard let sourceName = entityMapping.sourceEntity, let sourceEntity = source.entity(named: sourceName)
                else { return nil }
                removedBySourceTable[sourceEntity.tableName, default: []].append(sourceEntity.number)
            case .add:
                continue
            case .custom:
                return nil
            }
        }
        if !renumbering.isEmpty, !allowsRenumbering || mergesMappings { return nil }
        // Rows keep their entity, so every source entity must continue as a destination
        // entity, or have its rows removed.
        let mappedSources = Set(mappingsByDestination.values.compactMap(\.sourceEntity))
        let removedNumbers = Set(removedBySourceTable.values.joined())
        for entity in source.entities
        where !mappedSources.contains(entity.name) && !removedNumbers.contains(entity.number) {
            return nil
        }
        // Whether a source entity's rows are a destination entity's: the same number when none
        // changes (as before renumbering was possible), else the entity the mapping makes of it.
        let continues: (String, String) -> Bool = { sourceName, destinationName in
            if renumbering.isEmpty {
                return source.entity(named: sourceName)?.number == destination.entity(named: destinationName)?.number
            }
            return mappingsByDestination[destinationName]?.sourceEntity == sourceName
        }
        var tables: [TablePlan] = []
        var usedSourceTables: Set<String> = []
        for table in destination.tables {
            guard case .entity = table.kind else { continue }
            let entities = table.entityNumbers.compactMap { destination.entity(number: $0) }
            let sourceTables = Set(
                entities.compactMap { entity in
                    mappingsByDestination[entity.name]?.sourceEntity.flatMap { source.entity(named: $0)?.tableName }
                })
            guard sourceTables.count <= 1 else { return nil }
            guard let sourceTableName = sourceTables.first, let sourceTable = source.table(named: sourceTableName)
            else {
                // A new table: every entity in it must be new (an add mapping), so it starts empty.
                tables.append(
                    TablePlan(
                        destination: table, source: nil, keptColumns: [:], addedColumns: [], defaultsForNull: [],
                        droppedColumns: [], removedEntityNumbers: []))
                continue
            }
            // One source table can continue as one destination table only.
            guard usedSourceTables.insert(sourceTable.name).inserted else { return nil }
            guard
                var plan = planColumns(
                    of: table, from: sourceTable, mappings: mappingsByDestination, source: source,
                    destination: destination, removed: removedBySourceTable[sourceTable.name] ?? [],
                    continues: continues)
            else { return nil }
            plan.sourceEntityNumbers = entities.compactMap { entity in
                mappingsByDestination[entity.name]?.sourceEntity.flatMap { source.entity(named: $0)?.number }
            }
            if !renumbering.isEmpty {
                // The root's Z_PRIMARYKEY row counts the table's keys: it must continue the
                // source root's, or new objects could be given keys already in use.
                guard case .entity(let rootName) = table.kind, let root = destination.entity(named: rootName),
                    let sourceRoot = primaryKeySources[root.number].flatMap({ source.entity(number: $0) }),
                    sourceRoot.isRoot, sourceRoot.tableName == sourceTable.name
                else { return nil }
                plan.sourceRootNumber = sourceRoot.number
                for relationship in sourceTable.entityNumbers.compactMap({ source.entity(number: $0) })
                    .flatMap(\.relationships)
                {
                    guard case .foreignKey(let key, let entityColumn?, _) = relationship.storage,
                        plan.sourceEntityColumns.contains(entityColumn),
                        !plan.sourceEntityColumnTargets.contains(where: { $0.entityColumn == entityColumn }),
                        let target = source.entity(named: relationship.destination)
                    else { continue }
                    plan.sourceEntityColumnTargets.append((key, entityColumn, target.tableName))
                }
            }
            tables.append(plan)
        }
        var joinTables: [JoinTablePlan] = []
        for table in destination.tables {
            guard case .join(let entityName, let relationshipName) = table.kind else { continue }
            if let sourceTable = source.table(named: table.name),
                Set(sourceTable.columns.map { "\($0.name) \($0.type)" })
                    == Set(table.columns.map { "\($0.name) \($0.type)" }), renumbering.isEmpty
            {
                // Identical: same name, same columns.
                joinTables.append(
                    JoinTablePlan(
                        source: sourceTable.name, destination: table,
                        columns: Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, $0.name) })))
                usedSourceTables.insert(sourceTable.name)
                continue
            }
            guard !renumbering.isEmpty,
                let plan = joinTableOrigin(
                    of: table, entityName, relationshipName, mappings: mappingsByDestination, source: source,
                    destination: destination, continues: continues),
                usedSourceTables.insert(plan.source).inserted
            else { return nil }
            joinTables.append(plan)
        }
        let dropped = source.tables.compactMap { table -> String? in
            if case .bookkeeping = table.kind { return nil }
            return usedSourceTables.contains(table.name) ? nil : table.name
        }
        return InPlacePlan(
            tables: tables, droppedTables: dropped, joinTables: joinTables, renumbering: renumbering,
            primaryKeySources: primaryKeySources,
            privateTables: PrivateTablePlan(models: [mapping], source: source, destination: destination))
    }

    /// The column plan of one destination table continuing `sourceTable`, or nil.
    private static func planColumns(
        of table: TableLayout, from sourceTable: TableLayout, mappings: [String: EntityMapping], source: StoreLayout,
        destination: StoreLayout, removed: [Int], continues: (String, String) -> Bool
    ) -> TablePlan? {
        var kept: [String: String] = [:]
        var added: [(column: ColumnLayout, value: DatabaseValue, entityNumbers: [Int])] = []
        var defaults: [(column: String, value: DatabaseValue, entityNumbers: [Int])] = []
        for column in table.columns {
            switch column.role {
            case .primaryKey, .entityNumber, .optimisticLock:
                kept[column.name] = column.name
            case .attribute(let entityName, let property):
                guard
                    let origin = attributeOrigin(
                        entityName, property, in: table, mappings: mappings, source: source, destination: destination)
                else { return nil }
                switch origin {
                case .column(let sourceColumn, let defaultForNull, let numbers):
                    guard sourceTable.column(named: sourceColumn)?.type == column.type,
                        !kept.values.contains(sourceColumn)
                    else { return nil }
                    kept[column.name] = sourceColumn
                    if let defaultForNull { defaults.append((column.name, defaultForNull, numbers)) }
                case .new(let value, let numbers):
                    added.append((column, value, numbers))
                }
            case .foreignKey(let entityName, let relationship), .foreignKeyEntity(let entityName, let relationship),
                .order(let entityName, let relationship):
                guard
                    let sourceColumn = relationshipColumnOrigin(
                        column, entityName, relationship, in: table, mappings: mappings, source: source,
                        destination: destination, continues: continues),
                    sourceTable.column(named: sourceColumn)?.type == column.type, !kept.values.contains(sourceColumn)
                else { return nil }
                kept[column.name] = sourceColumn
            case .hiddenForeignKey(let entityName, let relationship):
                guard
                    let sourceColumn = hiddenForeignKeyOrigin(
                        entityName, relationship, in: sourceTable, mappings: mappings, source: source,
                        destination: destination, continues: continues),
                    sourceTable.column(named: sourceColumn)?.type == column.type, !kept.values.contains(sourceColumn)
                else { return nil }
                kept[column.name] = sourceColumn
            case .joinSource, .joinDestination, .bookkeeping, .hiddenForeignKeyEntity:
                // A hidden key's entity column holds Z_ENTs that only the to-ones' entity columns
                // are renumbered in: the rebuilding path writes it.
                return nil
            }
        }
        let dropped = sourceTable.columns.map(\.name).filter { !kept.values.contains($0) }
        return TablePlan(
            destination: table, source: sourceTable.name, keptColumns: kept, addedColumns: added,
            defaultsForNull: defaults, droppedColumns: dropped, removedEntityNumbers: removed)
    }

    private enum AttributeOrigin {
        case column(String, defaultForNull: DatabaseValue?, entityNumbers: [Int])
        case new(DatabaseValue, entityNumbers: [Int])
    }

    /// Where the attribute column of `entityName.property` comes from: the one source column
    /// every mapping into this table reads it from, or nothing (a new column).
    private static func attributeOrigin(
        _ entityName: String, _ property: String, in table: TableLayout, mappings: [String: EntityMapping],
        source: StoreLayout, destination: StoreLayout
    ) -> AttributeOrigin? {
        guard let declaring = destination.model[entity: entityName],
            let attribute = declaring.attribute(named: property)
        else { return nil }
        var sourceColumns: Set<String> = []
        var sawNew = false
        var defaultForNull: DatabaseValue?
        var numbers: [Int] = []
        for number in table.entityNumbers {
            guard let entity = destination.entity(number: number),
                let modelEntity = destination.model[entity: entity.name],
                destination.model.entity(modelEntity, isKindOf: declaring)
            else { continue }
            numbers.append(number)
            guard let mapping = mappings[entity.name] else { continue }
            let propertyMapping = mapping.attributeMappings.first { $0.name == property }
            guard let expression = propertyMapping?.valueExpression else {
                sawNew = true
                continue
            }
            // Most widenings change the stored value (`CAST(x AS TEXT)`): they need the rebuilding
            // path. Those that keep it (Boolean → Integer 32: both INTEGER columns, 0 and 1 stay)
            // keep the column, as the rebuilding path would copy it; the declared types are
            // compared by the caller.
            guard case .keyPath(.source, let path) = expression, path.count == 1,
                propertyMapping?.widening?.keepsStoredValues ?? true,
                let sourceName = mapping.sourceEntity,
                let sourceAttribute = source.entity(named: sourceName)?.attribute(named: path[0]),
                // A column gaining or losing external storage changes form (ExternalBinaryValue):
                // its values must be rewritten, which the rebuilding path does.
                source.storesExternally(sourceAttribute)
                    == (attribute.type == .binary && attribute.allowsExternalBinaryDataStorage)
            else { return nil }
            let sourceColumn = sourceAttribute.column
            sourceColumns.insert(sourceColumn)
            if propertyMapping?.userInfo[MappingInference.defaultForNullKey] != nil {
                defaultForNull = ValueConversion.defaultValue(of: attribute)
            }
        }
        if sourceColumns.isEmpty {
            return .new(ValueConversion.defaultValue(of: attribute), entityNumbers: numbers)
        }
        guard sourceColumns.count == 1, !sawNew, let column = sourceColumns.first else { return nil }
        return .column(column, defaultForNull: defaultForNull, entityNumbers: numbers)
    }

    /// The source column a relationship column continues: the same role of the source
    /// relationship the mapping reads, in a table that is kept (so its keys stay valid).
    private static func relationshipColumnOrigin(
        _ column: ColumnLayout, _ entityName: String, _ relationshipName: String, in table: TableLayout,
        mappings: [String: EntityMapping], source: StoreLayout, destination: StoreLayout,
        continues: (String, String) -> Bool
    ) -> String? {
        // An order column (`Z_FOK_<X>`) belongs to the ordered to-many on the other side, but
        // lives beside the to-one `X` of this table, whose source storage has its counterpart.
        var (entityName, relationshipName) = (entityName, relationshipName)
        if case .order = column.role, let partner = toOne(holdingOrderColumn: column.name, in: table, of: destination) {
            (entityName, relationshipName) = (partner.declaringEntity, partner.name)
        }
        var found: Set<String> = []
        for number in table.entityNumbers {
            guard let entity = destination.entity(number: number), let mapping = mappings[entity.name],
                entity.relationship(named: relationshipName)?.declaringEntity == entityName,
                let sourceEntity = mapping.sourceEntity.flatMap({ source.entity(named: $0) })
            else { continue }
            guard
                let expression = mapping.relationshipMappings.first(where: { $0.name == relationshipName })?
                    .valueExpression,
                let path = sourceRelationshipPath(expression), path.count == 1,
                let sourceRelationship = sourceEntity.relationship(named: path[0]),
                let destinationRelationship = entity.relationship(named: relationshipName),
                sourceRelationship.isToMany == destinationRelationship.isToMany,
                sourceRelationship.isOrdered == destinationRelationship.isOrdered,
                continues(sourceRelationship.destination, destinationRelationship.destination)
            else { return nil }
            guard case .foreignKey(let fk, let entityColumn, let order) = sourceRelationship.storage else { return nil }
            switch column.role {
            case .foreignKey: found.insert(fk)
            case .foreignKeyEntity:
                guard let entityColumn else { return nil }
                found.insert(entityColumn)
            case .order:
                guard let order else { return nil }
                found.insert(order)
            default: return nil
            }
        }
        guard found.count == 1, let origin = found.first else { return nil }
        // A row whose entity no longer has the relationship must not keep its key: when the
        // destination moves to a subentity (Artsy's `Image.showWithImageInInstallation`, now
        // `InstallShotImage`'s), the source's plain `Image` rows hold keys in the same column,
        // and the inverse to-many would read them back. The rebuilding path leaves them NULL.
        for number in table.entityNumbers {
            guard let entity = destination.entity(number: number),
                entity.relationship(named: relationshipName)?.declaringEntity != entityName,
                let sourceEntity = mappings[entity.name]?.sourceEntity.flatMap({ source.entity(named: $0) })
            else { continue }
            for relationship in sourceEntity.relationships {
                switch relationship.storage {
                case .foreignKey(let key, let entityColumn, let order)
                where [key, entityColumn, order].contains(where: { $0?.uppercased() == origin.uppercased() }):
                    return nil
                default:
                    continue
                }
            }
        }
        return origin
    }

    /// The source column a hidden foreign key continues (the to-many without inverse
    /// `entityName.relationshipName`): the hidden key of the source to-many
    /// every mapping of an owner reads, itself without inverse and kept in `sourceTable`, the
    /// table this one continues. Owners and members keep their `Z_PK`s in place, so its values
    /// stay valid. Anything else (a join table an existing source store kept, an ordered one whose
    /// positions move) needs the rebuilding path, which moves the links.
    private static func hiddenForeignKeyOrigin(
        _ entityName: String, _ relationshipName: String, in sourceTable: TableLayout,
        mappings: [String: EntityMapping], source: StoreLayout, destination: StoreLayout,
        continues: (String, String) -> Bool
    ) -> String? {
        var found: Set<String> = []
        for entity in destination.entities {
            guard let destinationRelationship = entity.relationship(named: relationshipName),
                destinationRelationship.declaringEntity == entityName
            else { continue }
            // An owner with no mapping has no rows in place (its entity is new).
            guard let mapping = mappings[entity.name] else { continue }
            guard let sourceEntity = mapping.sourceEntity.flatMap({ source.entity(named: $0) }),
                let expression = mapping.relationshipMappings.first(where: { $0.name == relationshipName })?
                    .valueExpression,
                let path = sourceRelationshipPath(expression), path.count == 1,
                let sourceRelationship = sourceEntity.relationship(named: path[0]),
                sourceRelationship.hasHiddenForeignKey,
                sourceRelationship.isOrdered == destinationRelationship.isOrdered,
                continues(sourceRelationship.destination, destinationRelationship.destination),
                case .inverseForeignKey(let table, let column, nil) = sourceRelationship.storage,
                table.uppercased() == sourceTable.name.uppercased()
            else { return nil }
            found.insert(column)
        }
        return found.count == 1 ? found.first : nil
    }

    /// The to-one of `table`'s entities whose foreign key has the order column `column`.
    private static func toOne(holdingOrderColumn column: String, in table: TableLayout, of layout: StoreLayout)
        -> RelationshipLayout?
    {
        for number in table.entityNumbers {
            for relationship in layout.entity(number: number)?.relationships ?? [] {
                if case .foreignKey(_, _, let order) = relationship.storage, order?.uppercased() == column.uppercased()
                {
                    return relationship
                }
            }
        }
        return nil
    }

    /// `$source.x` or `FUNCTION($manager, "destinationInstances…", "M", $source.x)` → `[x]`.
    static func sourceRelationshipPath(_ expression: Expression) -> [String]? {
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
}
