import GRDB
import StepwiseModel
import StepwiseStore

/// The `ALTER TABLE` statements that turn a copy of the source into the destination, when an
/// inferred step only renames, adds or drops columns and tables.
///
/// Rewriting rows is the expensive part of a step; SQLite can rename a table
/// (`ALTER TABLE … RENAME TO`), rename a column (`RENAME COLUMN`, SQLite 3.25), add one
/// (`ADD COLUMN`) and drop one (`DROP COLUMN`, SQLite 3.35) without touching the rows. So when
/// a mapping keeps every entity's `Z_ENT`, every kept column's declared type and stored values
/// (no widening but one that ``TypeWidening/keepsStoredValues``) and every relationship's
/// storage, the step alters a copy of the source instead of building a new file.
/// Primary keys are kept (no renumbering), which keeps every foreign key valid.
///
/// The plan is conservative: anything it doesn't recognize makes ``make(mapping:source:destination:)``
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
    }

    var tables: [TablePlan]
    /// Source tables (entity and join tables) that disappear.
    var droppedTables: [String]
    /// Join tables kept as they are.
    var keptJoinTables: [String]
    /// What happens to Core Data's private tables (``PrivateTableInPlace``).
    var privateTables: PrivateTablePlan

    /// A plan, or nil when the step needs rows to be rewritten.
    static func make(mapping: MappingModel, source: StoreLayout, destination: StoreLayout) -> InPlacePlan? {
        // A policy is code that must see the rows (a mapping edited after inference may still
        // say it is inferred): never skip it by altering the schema instead.
        guard mapping.isInferred,
            mapping.entityMappings.allSatisfy({ ($0.policyName ?? "").isEmpty })
        else { return nil }
        var mappingsByDestination: [String: EntityMapping] = [:]
        var removedBySourceTable: [String: [Int]] = [:]
        for entityMapping in mapping.entityMappings {
            switch entityMapping.kind {
            case .copy, .transform:
                guard let sourceName = entityMapping.sourceEntity,
                    let destinationName = entityMapping.destinationEntity,
                    let sourceEntity = source.entity(named: sourceName),
                    let destinationEntity = destination.entity(named: destinationName),
                    sourceEntity.number == destinationEntity.number, entityMapping.filter == nil
                else { return nil }
                mappingsByDestination[destinationName] = entityMapping
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
        // Rows keep their Z_ENT, so every source entity must continue as a destination entity
        // with the same number (checked above), or have its rows removed.
        let mappedSources = Set(mappingsByDestination.values.compactMap(\.sourceEntity))
        let removedNumbers = Set(removedBySourceTable.values.joined())
        for entity in source.entities
        where !mappedSources.contains(entity.name) && !removedNumbers.contains(entity.number) {
            return nil
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
                let plan = planColumns(
                    of: table, from: sourceTable, mappings: mappingsByDestination, source: source,
                    destination: destination, removed: removedBySourceTable[sourceTable.name] ?? [])
            else { return nil }
            tables.append(plan)
        }
        // Join tables must be identical: same name, same columns.
        var keptJoinTables: [String] = []
        for table in destination.tables {
            guard case .join = table.kind else { continue }
            guard let sourceTable = source.table(named: table.name),
                Set(sourceTable.columns.map { "\($0.name) \($0.type)" })
                    == Set(table.columns.map { "\($0.name) \($0.type)" })
            else { return nil }
            keptJoinTables.append(table.name)
            usedSourceTables.insert(sourceTable.name)
        }
        let dropped = source.tables.compactMap { table -> String? in
            if case .bookkeeping = table.kind { return nil }
            return usedSourceTables.contains(table.name) ? nil : table.name
        }
        return InPlacePlan(
            tables: tables, droppedTables: dropped, keptJoinTables: keptJoinTables,
            privateTables: PrivateTablePlan(models: [mapping], source: source, destination: destination))
    }

    /// The column plan of one destination table continuing `sourceTable`, or nil.
    private static func planColumns(
        of table: TableLayout, from sourceTable: TableLayout, mappings: [String: EntityMapping], source: StoreLayout,
        destination: StoreLayout, removed: [Int]
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
                        destination: destination),
                    sourceTable.column(named: sourceColumn)?.type == column.type, !kept.values.contains(sourceColumn)
                else { return nil }
                kept[column.name] = sourceColumn
            case .hiddenForeignKey(let entityName, let relationship):
                guard
                    let sourceColumn = hiddenForeignKeyOrigin(
                        entityName, relationship, in: sourceTable, mappings: mappings, source: source,
                        destination: destination),
                    sourceTable.column(named: sourceColumn)?.type == column.type, !kept.values.contains(sourceColumn)
                else { return nil }
                kept[column.name] = sourceColumn
            case .joinSource, .joinDestination, .bookkeeping:
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
        mappings: [String: EntityMapping], source: StoreLayout, destination: StoreLayout
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
                source.entity(named: sourceRelationship.destination)?.number
                    == destination.entity(named: destinationRelationship.destination)?.number
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
        return found.count == 1 ? found.first : nil
    }

    /// The source column a hidden foreign key continues (the to-many without inverse
    /// `entityName.relationshipName`, Core Data 1241): the hidden key of the source to-many
    /// every mapping of an owner reads, itself without inverse and kept in `sourceTable`, the
    /// table this one continues. Owners and members keep their `Z_PK`s in place, so its values
    /// stay valid. Anything else (a join table in the source, Core Data up to 1240) needs the
    /// rebuilding path, which moves the links.
    private static func hiddenForeignKeyOrigin(
        _ entityName: String, _ relationshipName: String, in sourceTable: TableLayout,
        mappings: [String: EntityMapping], source: StoreLayout, destination: StoreLayout
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
                source.entity(named: sourceRelationship.destination)?.number
                    == destination.entity(named: destinationRelationship.destination)?.number,
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
