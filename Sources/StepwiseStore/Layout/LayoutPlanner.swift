import StepwiseModel

/// Computes a ``StoreLayout`` from a validated model; the rules are documented there.
///
/// Works in passes: entity numbers, then the per-table name numbering (which needs every
/// entity of a table, in Z_ENT order), then relationships (a to-many's storage depends on
/// its inverse's name), then tables and indexes.
struct LayoutPlanner {
    struct Plan {
        var entities: [EntityLayout]
        var tables: [TableLayout]
        var indexes: [IndexLayout]
    }

    /// The column `Z<n><NAME>` a to-many without inverse keeps in its destination's rows.
    private struct HiddenForeignKey {
        var declaringEntity: String
        var declaringNumber: Int
        var relationship: String
        var column: String
    }

    let model: ObjectModel
    /// The Core Data release whose forms to use.
    let release: CoreDataRelease
    /// An existing store's join tables, to settle the choices Core Data makes in a way no rule
    /// predicts (see ``StoreLayout``, "Which side names a join table"); nil lays out a new store.
    let existing: LayoutChoices?
    /// Every entity in Z_ENT order.
    private var ordered: [Entity] = []
    private var numbers: [String: Int] = [:]
    /// Entity name → property name → the uppercased name numbered within its table
    /// (`PENDINGSTATE1`): the column is `Z` + this.
    private var baseNames: [String: [String: String]] = [:]
    /// Declaring entity → relationship name → storage.
    private var relationshipStorage: [String: [String: RelationshipLayout.Storage]] = [:]
    /// Destination entity → the hidden foreign keys of to-manys without inverse pointing at it
    /// (Core Data 1241 and later), in column order.
    private var hiddenForeignKeys: [String: [HiddenForeignKey]] = [:]
    private var joinTables: [TableLayout] = []
    private var joinIndexes: [IndexLayout] = []
    /// Join-table column names already given, uppercased: Core Data makes them unique across the
    /// whole store (Wire's `Z_16USERS.Z_24USERS1`, next to `Z_20USERS.Z_24USERS`).
    private var joinColumnNames: Set<String> = []

    init(model: ObjectModel, release: CoreDataRelease = .newest, existing: LayoutChoices? = nil) {
        self.model = model
        self.release = release
        self.existing = existing
    }

    func plan() throws(StoreError) -> Plan {
        var planner = self
        try planner.numberEntities()
        planner.numberNames()
        try planner.planRelationships()
        return try planner.assemble()
    }

    // MARK: - Passes

    /// Z_ENT: roots in Core Data's name order (``CoreDataNameOrder``, case-insensitive), each
    /// followed depth-first by its subentities in the same order.
    private mutating func numberEntities() throws(StoreError) {
        ordered = model.rootEntities.flatMap { model.hierarchy(from: $0) }
        guard ordered.count == model.entities.count else {
            throw unsupported("some entities are not reachable from a root entity")
        }
        for (index, entity) in ordered.enumerated() {
            numbers[entity.name] = index + 1
        }
    }

    /// Gives every stored property with a column in its table a name unique within the table.
    /// Entities are visited in Z_ENT order and each entity's own properties by name, so the
    /// lower Z_ENT keeps a shared name and later ones get `1`, `2`… (Apptentive's
    /// `ZPENDINGSTATE1`).
    ///
    /// A to-many has no column in its table and takes no number: Screen Time's
    /// `CloudOrganization.settings` (a to-one) is `ZSETTINGS` and `LocalOrganization.settings`
    /// `ZSETTINGS1`, although `FamilyOrganization.settings`, a to-many, sits between them in Z_ENT
    /// order (RMAdminStore-Local, Core Data 1044). Its join-table column is named after it as it
    /// is, then made unique among join-table columns (``uniqueJoinColumn(_:)``).
    private mutating func numberNames() {
        for root in model.rootEntities {
            // The fixed columns are Z_PK, Z_ENT and Z_OPT: reserve their suffixes.
            var used: Set<String> = ["_PK", "_ENT", "_OPT"]
            for entity in model.hierarchy(from: root) {
                let properties = entity.properties.filter { !$0.isTransient }.sorted { $0.name < $1.name }
                for property in properties.filter({ !$0.isFlattenedElement }) + compositeLeaves(of: entity) {
                    let name = property.storageName.uppercased()
                    if case .relationship(let relationship) = property, relationship.isToMany {
                        baseNames[entity.name, default: [:]][property.name] = name
                        continue
                    }
                    var candidate = name
                    var suffix = 1
                    while used.contains(candidate) {
                        candidate = name + String(suffix)
                        suffix += 1
                    }
                    used.insert(candidate)
                    baseNames[entity.name, default: [:]][property.name] = candidate
                }
            }
        }
    }

    /// The stored leaves of the entity's flattened composites, in declared order. They are
    /// numbered after the entity's other properties, each by its own name: a SwiftData struct
    /// `Author { person, place, year, id }` is stored in `ZPERSON`, `ZPLACE`, `ZYEAR` and `ZID1`
    /// beside the entity's own `ZID` (issue 24, a real SwiftData store), though `author` sorts
    /// before `id`. Their order among themselves is the declared one, which that store can't
    /// tell from a sorted one; no store in the corpus has a composite.
    private func compositeLeaves(of entity: Entity) -> [Property] {
        entity.attributes.filter { $0.isFlattenedElement && !$0.isTransient }.map { .attribute($0) }
    }

    /// Entities are visited by name in Core Data's order, not by Z_ENT: join-table columns are numbered in that
    /// order. Wire's `SystemMessage.users` (Z_ENT 16) gets `Z_24USERS1` because `Reaction.users`
    /// (Z_ENT 20), whose entity name sorts first, already took `Z_24USERS` (zmessaging 2.21 to
    /// 2.101); the same order gives the side that names a join table (see ``StoreLayout``).
    private mutating func planRelationships() throws(StoreError) {
        for entity in ordered.sorted(by: { CoreDataNameOrder.precedes($0.name, $1.name) }) {
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) where !relationship.isTransient {
                let inverse = self.inverse(of: relationship)
                if relationship.isToOne {
                    try planToOne(relationship, of: entity, inverse: inverse)
                } else if let inverse, inverse.relationship.isToOne {
                    // The rows live in the destination's table, under the inverse's foreign key.
                    let inverseBase = try baseName(inverse.relationship.name, of: inverse.entity)
                    relationshipStorage[entity.name, default: [:]][relationship.name] = .inverseForeignKey(
                        table: tableName(of: inverse.entity), column: "Z" + inverseBase,
                        orderColumn: relationship.isOrdered ? "Z_FOK_" + inverseBase : nil)
                } else if inverse == nil, !relationship.isOrdered, release.storesInverselessToManyAsForeignKeys {
                    try planHiddenForeignKey(relationship, of: entity)
                } else if try ownsJoinTable(relationship, of: entity, inverse: inverse) {
                    try planJoinTable(relationship, of: entity, inverse: inverse)
                }
            }
        }
    }

    /// A to-many without inverse from Core Data 1241: `Z<n><NAME>` in the destination's table,
    /// n the declaring entity's Z_ENT (CartKit's `Z2MODIFIERS`, Photos'
    /// `Z3LIBRARYSCOPEASSETCONTRIBUTORS`). Its name can't meet a property's column: a property
    /// name doesn't start with a digit.
    private mutating func planHiddenForeignKey(_ relationship: Relationship, of entity: Entity) throws(StoreError) {
        guard let destination = model[entity: relationship.destination] else {
            throw unsupported("relationship '\(entity.name).\(relationship.name)' has no destination")
        }
        let number = try number(of: entity)
        let column = "Z\(number)" + relationship.name.uppercased()
        hiddenForeignKeys[destination.name, default: []].append(
            HiddenForeignKey(
                declaringEntity: entity.name, declaringNumber: number, relationship: relationship.name, column: column))
        hiddenForeignKeys[destination.name]?.sort {
            ($0.declaringNumber, $0.relationship) < ($1.declaringNumber, $1.relationship)
        }
        relationshipStorage[entity.name, default: [:]][relationship.name] = .inverseForeignKey(
            table: tableName(of: destination), column: column, orderColumn: nil)
    }

    private mutating func planToOne(
        _ relationship: Relationship, of entity: Entity, inverse: (relationship: Relationship, entity: Entity)?
    ) throws(StoreError) {
        let base = try baseName(relationship.name, of: entity)
        guard let destination = model[entity: relationship.destination] else {
            throw unsupported("relationship '\(entity.name).\(relationship.name)' has no destination")
        }
        // Without the destination's Z_ENT, a foreign key into a multi-entity hierarchy
        // would need a fetch to know which subentity it points at.
        let entityColumn =
            model.subentities(of: destination).isEmpty ? nil : "Z\(try number(of: destination))_" + base
        let inverseIsOrdered = inverse.map { $0.relationship.isToMany && $0.relationship.isOrdered } ?? false
        relationshipStorage[entity.name, default: [:]][relationship.name] = .foreignKey(
            column: "Z" + base, entityColumn: entityColumn, orderColumn: inverseIsOrdered ? "Z_FOK_" + base : nil)
    }

    /// Whether `relationship` names the join table it shares with its inverse (see
    /// ``StoreLayout``, "Which side names a join table").
    private func ownsJoinTable(
        _ relationship: Relationship, of entity: Entity, inverse: (relationship: Relationship, entity: Entity)?
    ) throws(StoreError) -> Bool {
        guard let inverse else { return true }
        if inverse.entity.name == entity.name && inverse.relationship.name == relationship.name { return true }
        if inverse.entity.name != entity.name { return entity.name < inverse.entity.name }
        // Both sides belong to one entity. Core Data's choice follows no rule of the model:
        // Wire's UserClient names its pairs after `ignoredByClients`/`trustedByClients` in 2.3,
        // after `ignoredClients`/`trustedClients` from 2.4, and one of each from 2.96, with the
        // same relationships throughout. An existing store tells; a new one gets the side whose
        // name sorts first.
        if let existing {
            let number = try number(of: entity)
            let mine = existing.columns(ofTable: "Z_\(number)" + relationship.name.uppercased()) != nil
            let theirs = existing.columns(ofTable: "Z_\(number)" + inverse.relationship.name.uppercased()) != nil
            if mine != theirs { return mine }
        }
        return relationship.name < inverse.relationship.name
    }

    /// `name`, or `name` followed by the first of `1`, `2`… that no join-table column has yet.
    private mutating func uniqueJoinColumn(_ name: String) -> String {
        var candidate = name
        var suffix = 1
        while joinColumnNames.contains(candidate.uppercased()) {
            candidate = name + String(suffix)
            suffix += 1
        }
        joinColumnNames.insert(candidate.uppercased())
        return candidate
    }

    private mutating func planJoinTable(
        _ relationship: Relationship, of entity: Entity, inverse: (relationship: Relationship, entity: Entity)?
    ) throws(StoreError) {
        let ownerNumber = try number(of: entity)
        guard let destination = model[entity: relationship.destination] else {
            throw unsupported("relationship '\(entity.name).\(relationship.name)' has no destination")
        }
        let tableName = "Z_\(ownerNumber)" + relationship.name.uppercased()
        let sourceColumn: String
        if let inverse {
            // The column holding the owner's Z_PK is named after the inverse, which points at it.
            let sourceEntity = model[entity: inverse.relationship.destination] ?? entity
            sourceColumn = uniqueJoinColumn(
                "Z_\(try number(of: sourceEntity))" + (try baseName(inverse.relationship.name, of: inverse.entity)))
        } else {
            sourceColumn = uniqueJoinColumn("Z_\(ownerNumber)" + relationship.name.uppercased() + "INVERSE")
        }
        // A relationship that is its own inverse gets `Z_1FRIENDS, Z_1FRIENDS1` this way too.
        let destinationColumn = uniqueJoinColumn(
            "Z_\(try number(of: destination))" + (try baseName(relationship.name, of: entity)))
        let isOwnInverse = inverse.map { $0.entity.name == entity.name && $0.relationship.name == relationship.name }
        let destinationOrder = relationship.isOrdered ? "Z_FOK_" + destinationColumn.dropFirst(2) : nil
        let sourceOrder =
            (inverse?.relationship.isOrdered ?? false) && isOwnInverse != true
            ? "Z_FOK_" + sourceColumn.dropFirst(2) : nil

        var columns = [
            ColumnLayout(
                name: sourceColumn, type: ColumnType.integer.rawValue,
                role: .joinSource(entity: entity.name, relationship: relationship.name)),
            ColumnLayout(
                name: destinationColumn, type: ColumnType.integer.rawValue,
                role: .joinDestination(entity: entity.name, relationship: relationship.name)),
        ]
        if let destinationOrder {
            columns.append(
                ColumnLayout(
                    name: destinationOrder, type: ColumnType.integer.rawValue,
                    role: .order(entity: entity.name, relationship: relationship.name)))
        }
        if let sourceOrder, let inverse {
            columns.append(
                ColumnLayout(
                    name: sourceOrder, type: ColumnType.integer.rawValue,
                    role: .order(entity: inverse.entity.name, relationship: inverse.relationship.name)))
        }
        var primaryKey = [sourceColumn, destinationColumn]
        // Core Data writes a self-referential pair's columns in either order (Wire's
        // `Z_14IGNOREDBYCLIENTS (Z_14IGNOREDCLIENTS, Z_14IGNOREDBYCLIENTS)` in 1.27, but
        // `Z_25TRUSTEDBYCLIENTS (Z_25TRUSTEDBYCLIENTS, Z_25TRUSTEDCLIENTS)` in 2.96): an
        // existing store's order is kept. The names say which column is which, so the order
        // changes nothing else.
        if let order = existing?.columns(ofTable: tableName) {
            let position = { (name: String) in order.firstIndex(of: name.uppercased()) ?? Int.max }
            if position(destinationColumn) < position(sourceColumn) {
                primaryKey.reverse()
                columns.swapAt(0, 1)
            }
        }
        joinTables.append(
            TableLayout(
                name: tableName, kind: .join(entity: entity.name, relationship: relationship.name), columns: columns,
                primaryKey: primaryKey, uniqueConstraints: [], entityNumbers: []))
        if release.indexesJoinTables {
            // Led by the column named after the relationship that names the table, whatever the
            // columns' order (Wire 2.96's `Z_25TRUSTEDBYCLIENTS_Z_25TRUSTEDBYCLIENTS_INDEX`).
            joinIndexes.append(
                IndexLayout(
                    name: "\(tableName)_\(destinationColumn)_INDEX", table: tableName,
                    elements: [.init(column: destinationColumn), .init(column: sourceColumn)],
                    kind: .joinTable(entity: entity.name, relationship: relationship.name)))
        }

        relationshipStorage[entity.name, default: [:]][relationship.name] = .joinTable(
            table: tableName, sourceColumn: sourceColumn, destinationColumn: destinationColumn,
            orderColumn: destinationOrder)
        if let inverse, isOwnInverse != true {
            relationshipStorage[inverse.entity.name, default: [:]][inverse.relationship.name] = .joinTable(
                table: tableName, sourceColumn: destinationColumn, destinationColumn: sourceColumn,
                orderColumn: sourceOrder)
        }
    }

    // MARK: - Assembly

    private func assemble() throws(StoreError) -> Plan {
        var entityLayouts: [EntityLayout] = []
        for entity in ordered {
            entityLayouts.append(try entityLayout(entity))
        }
        var tables: [TableLayout] = []
        var indexes: [IndexLayout] = []
        for root in model.rootEntities {
            let (table, tableIndexes) = try entityTable(root: root, layouts: entityLayouts)
            tables.append(table)
            indexes += tableIndexes
        }
        tables += joinTables
        indexes += joinIndexes
        tables += [StoreLayout.primaryKeyTable, StoreLayout.metadataTable]
        try checkNamesAreUnique(tables: tables, indexes: indexes)
        return Plan(entities: entityLayouts, tables: tables, indexes: indexes)
    }

    private func entityLayout(_ entity: Entity) throws(StoreError) -> EntityLayout {
        let lineage = model.ancestors(of: entity).reversed() + [entity]
        let root = lineage.first ?? entity
        let table = tableName(of: root)
        var attributes: [AttributeLayout] = []
        var relationships: [RelationshipLayout] = []
        for declaring in lineage {
            for attribute in declaring.attributes where !attribute.isTransient {
                attributes.append(
                    AttributeLayout(
                        name: attribute.name, type: attribute.type, declaringEntity: declaring.name, table: table,
                        column: "Z" + (try baseName(attribute.name, of: declaring)),
                        columnType: ColumnType(attribute.type)))
            }
            for relationship in declaring.relationships where !relationship.isTransient {
                guard let storage = relationshipStorage[declaring.name]?[relationship.name] else {
                    throw unsupported("relationship '\(declaring.name).\(relationship.name)' has no storage")
                }
                relationships.append(
                    RelationshipLayout(
                        name: relationship.name, declaringEntity: declaring.name,
                        destination: relationship.destination, inverse: relationship.inverse,
                        isToMany: relationship.isToMany, isOrdered: relationship.isOrdered, storage: storage,
                        hasHiddenForeignKey: hiddenForeignKeys[relationship.destination]?.contains {
                            $0.declaringEntity == declaring.name && $0.relationship == relationship.name
                        } ?? false))
            }
        }
        var superNumber = 0
        if let parentName = entity.parentName, let parent = model[entity: parentName] {
            superNumber = try number(of: parent)
        }
        var subentityNumbers: [Int] = []
        for member in model.hierarchy(from: entity) {
            subentityNumbers.append(try number(of: member))
        }
        return EntityLayout(
            name: entity.name, number: try number(of: entity), superNumber: superNumber,
            parentName: entity.parentName, rootName: root.name, tableName: table, isAbstract: entity.isAbstract,
            subentityNumbers: subentityNumbers.sorted(), attributes: attributes, relationships: relationships)
    }

    /// The table of a root entity with its columns in Core Data's order, its uniqueness
    /// constraints and its indexes.
    private func entityTable(root: Entity, layouts: [EntityLayout]) throws(StoreError) -> (TableLayout, [IndexLayout]) {
        let table = tableName(of: root)
        let hierarchy = model.hierarchy(from: root)
        // Column order (corpus README §5): INTEGER columns of every entity in Z_ENT order
        // (attributes by name, then foreign keys by name, then hidden foreign keys), then
        // FLOAT+TIMESTAMP interleaved by name, then DECIMAL, then VARCHAR, then BLOB, each group
        // again entity by entity.
        var groups = [[ColumnLayout]](repeating: [], count: ColumnType.columnGroupCount)
        var indexes: [IndexLayout] = []
        var constraints: [UniqueConstraintLayout] = []
        if hierarchy.count > 1 {
            indexes.append(
                IndexLayout(
                    name: table + "_Z_ENT_INDEX", table: table, elements: [.init(column: "Z_ENT")],
                    kind: .entityNumber))
        }
        for entity in hierarchy {
            let attributes = entity.attributes.filter { !$0.isTransient }.sorted { $0.name < $1.name }
            for attribute in attributes {
                let column = "Z" + (try baseName(attribute.name, of: entity))
                let type = ColumnType(attribute.type)
                groups[type.columnGroup].append(
                    ColumnLayout(
                        name: column, type: type.rawValue,
                        role: .attribute(entity: entity.name, property: attribute.name)))
            }
            let toOnes = entity.relationships.filter { !$0.isTransient && $0.isToOne }.sorted { $0.name < $1.name }
            for relationship in toOnes {
                guard
                    case .foreignKey(let column, let entityColumn, let orderColumn) =
                        relationshipStorage[entity.name]?[relationship.name]
                else { continue }
                groups[0].append(
                    ColumnLayout(
                        name: column, type: ColumnType.integer.rawValue,
                        role: .foreignKey(entity: entity.name, relationship: relationship.name)))
                if let entityColumn {
                    groups[0].append(
                        ColumnLayout(
                            name: entityColumn, type: ColumnType.integer.rawValue,
                            role: .foreignKeyEntity(entity: entity.name, relationship: relationship.name)))
                }
                if let orderColumn, let inverseName = relationship.inverse {
                    // The position belongs to the ordered to-many on the other side.
                    let owner =
                        model[entity: relationship.destination].flatMap {
                            model.declaringEntity(ofProperty: inverseName, from: $0)
                        }?.name ?? relationship.destination
                    groups[0].append(
                        ColumnLayout(
                            name: orderColumn, type: ColumnType.integer.rawValue,
                            role: .order(entity: owner, relationship: inverseName)))
                }
                indexes.append(
                    IndexLayout(
                        name: "\(table)_\(column)_INDEX", table: table, elements: [.init(column: column)],
                        kind: .foreignKey(entity: entity.name, relationship: relationship.name)))
            }
            // After the entity's to-ones: CartKit's `ZITEM, Z2MODIFIERS`, Photos' `ZPARTICIPANT,
            // Z3LIBRARYSCOPEASSETCONTRIBUTORS` although `libraryScope…` sorts before `participant`.
            for hidden in hiddenForeignKeys[entity.name] ?? [] {
                groups[0].append(
                    ColumnLayout(
                        name: hidden.column, type: ColumnType.integer.rawValue,
                        role: .hiddenForeignKey(entity: hidden.declaringEntity, relationship: hidden.relationship)))
                indexes.append(
                    IndexLayout(
                        name: "\(table)_\(hidden.column)_INDEX", table: table, elements: [.init(column: hidden.column)],
                        kind: .foreignKey(entity: hidden.declaringEntity, relationship: hidden.relationship)))
            }
            let entityNamed = release.namesIndexesAfterEntities
            // An attribute that a fetch index covers alone is indexed on its own too, beside the
            // fetch index: Core Data collects such properties as indexed
            // (`-[NSEntityDescription _propertiesOnlySubsetFromIndexes:]`), and every store with
            // one has both (DuckDuckGo's Bookmarks, 1251 and 1333: `Z_BookmarkEntity_byIsPendingDeletion`
            // and `Z_BookmarkEntity_isPendingDeletion`; SyncMetadata, 1338: `…_byKey` and `…_key`).
            let indexedByAFetchIndex = Set(
                entity.fetchIndexes.filter { $0.elements.count == 1 }.map { $0.elements[0].property })
            for attribute in attributes where attribute.isIndexed || indexedByAFetchIndex.contains(attribute.name) {
                let column = "Z" + (try baseName(attribute.name, of: entity))
                indexes.append(
                    IndexLayout(
                        name: entityNamed ? "Z_\(entity.name)_\(attribute.name)" : "\(table)_\(column)_INDEX",
                        table: table, elements: [.init(column: column)],
                        kind: .attribute(entity: entity.name, property: attribute.name), spellsCollation: entityNamed))
            }
            let layout = layouts.first { $0.name == entity.name }
            for properties in entity.compoundIndexes where !properties.isEmpty {
                let columns = try indexableColumns(properties, of: entity, layout: layout, place: "a compound index")
                indexes.append(
                    IndexLayout(
                        name: entityNamed
                            ? "Z_\(entity.name)_" + properties.joined(separator: "_")
                            : ([table] + columns).joined(separator: "_"),
                        table: table, elements: columns.map { IndexLayout.Element(column: $0) },
                        kind: .compound(entity: entity.name, properties: properties), spellsCollation: entityNamed))
            }
            for fetchIndex in entity.fetchIndexes where !fetchIndex.elements.isEmpty {
                // A fetch index on one to-one alone would repeat the foreign key's own index:
                // Core Data doesn't create it (Screen Time's `Usage.byUser` has no index, beside
                // `ZUSAGE_ZUSER_INDEX` and `Z_Usage_byUserAndDevice`; RMAdminStore-Local, 1044).
                if fetchIndex.elements.count == 1,
                    model.allRelationships(of: entity).contains(where: {
                        $0.name == fetchIndex.elements[0].property && $0.isToOne
                    })
                {
                    continue
                }
                let columns = try indexableColumns(
                    fetchIndex.elements.map(\.property), of: entity, layout: layout,
                    place: "fetch index '\(fetchIndex.name)'")
                let elements = zip(columns, fetchIndex.elements).map { column, element in
                    IndexLayout.Element(column: column, isAscending: element.isAscending)
                }
                indexes.append(
                    IndexLayout(
                        name: "Z_\(entity.name)_\(fetchIndex.name)", table: table, elements: elements,
                        kind: .fetchIndex(entity: entity.name, name: fetchIndex.name), spellsCollation: true))
            }
            for properties in entity.uniquenessConstraints where !properties.isEmpty {
                let columns = try indexableColumns(
                    properties, of: entity, layout: layout, place: "a uniqueness constraint")
                if release.writesUniquenessConstraintsAsIndexes {
                    // `Z_<Entity>_UNIQUE_<property>_…`, named after the declaring entity and its
                    // property names (Screen Time's `Z_Blueprint_UNIQUE_identifier`).
                    indexes.append(
                        IndexLayout(
                            name: "Z_\(entity.name)_UNIQUE_" + properties.joined(separator: "_"), table: table,
                            elements: columns.map { IndexLayout.Element(column: $0) },
                            kind: .uniquenessConstraint(entity: entity.name, properties: properties),
                            spellsCollation: true))
                }
                // Two entities of one hierarchy may declare the same constraint; keep one.
                guard !constraints.contains(where: { $0.columns == columns }) else { continue }
                constraints.append(
                    UniqueConstraintLayout(
                        name: columns.joined(separator: "_"), columns: columns, entity: entity.name,
                        properties: properties))
            }
        }
        let fixed = [
            ColumnLayout(name: "Z_PK", type: ColumnType.integer.rawValue, role: .primaryKey),
            ColumnLayout(name: "Z_ENT", type: ColumnType.integer.rawValue, role: .entityNumber),
            ColumnLayout(name: "Z_OPT", type: ColumnType.integer.rawValue, role: .optimisticLock),
        ]
        var entityNumbers: [Int] = []
        for entity in hierarchy {
            entityNumbers.append(try number(of: entity))
        }
        var tableLayout = TableLayout(
            name: table, kind: .entity(root: root.name), columns: fixed + groups.flatMap { $0 },
            primaryKey: ["Z_PK"], uniqueConstraints: constraints, entityNumbers: entityNumbers)
        tableLayout.uniqueConstraintsAreInline = !release.writesUniquenessConstraintsAsIndexes
        // Core Data creates each index `IF NOT EXISTS` (`NSSQLBinaryIndex`), so of two with one
        // name (an attribute indexed on its own and a fetch index named after it) the first stays.
        var names: Set<String> = []
        return (tableLayout, indexes.filter { names.insert($0.name.uppercased()).inserted })
    }

    /// The columns of properties listed in an index or constraint: attributes and to-ones only.
    private func indexableColumns(
        _ properties: [String], of entity: Entity, layout: EntityLayout?, place: String
    ) throws(StoreError) -> [String] {
        var columns: [String] = []
        for property in properties {
            guard let column = layout?.column(for: property) else {
                throw unsupported(
                    "\(place) of entity '\(entity.name)' lists '\(property)', which has no column (to-many or transient)"
                )
            }
            columns.append(column)
        }
        return columns
    }

    /// SQLite names are case-insensitive; two equal names would make the DDL fail later,
    /// so report them now with the model's words.
    private func checkNamesAreUnique(tables: [TableLayout], indexes: [IndexLayout]) throws(StoreError) {
        // An entity named `_METADATA` would take Core Data's own table: say so, not "case".
        let reserved = [
            StoreLayout.modelCacheTableName, StoreLayout.primaryKeyTable.name, StoreLayout.metadataTable.name,
        ]
        for table in tables where reserved.contains(table.name.uppercased()) {
            if case .entity(let root) = table.kind {
                throw unsupported(
                    "entity '\(root)' would be stored in \(table.name), a table Core Data keeps for itself; rename the entity"
                )
            }
        }
        var tableNames: Set<String> = [StoreLayout.modelCacheTableName]
        for table in tables {
            guard tableNames.insert(table.name.uppercased()).inserted else {
                throw unsupported(
                    "two tables would be named \(table.name) (entity or relationship names differ only by case?)")
            }
            var columnNames: Set<String> = []
            for column in table.columns where !columnNames.insert(column.name.uppercased()).inserted {
                throw unsupported("table \(table.name) would have two columns named \(column.name)")
            }
        }
        var indexNames: Set<String> = []
        for index in indexes where !indexNames.insert(index.name.uppercased()).inserted {
            throw unsupported("two indexes would be named \(index.name)")
        }
    }

    // MARK: - Helpers

    /// The inverse of a relationship and the entity declaring it, if stored.
    private func inverse(of relationship: Relationship) -> (relationship: Relationship, entity: Entity)? {
        guard let inverseName = relationship.inverse, let destination = model[entity: relationship.destination],
            let owner = model.declaringEntity(ofProperty: inverseName, from: destination),
            let inverse = owner.relationship(named: inverseName), !inverse.isTransient
        else { return nil }
        return (inverse, owner)
    }

    private func number(of entity: Entity) throws(StoreError) -> Int {
        guard let number = numbers[entity.name] else {
            throw unsupported("entity '\(entity.name)' has no entity number")
        }
        return number
    }

    private func baseName(_ property: String, of entity: Entity) throws(StoreError) -> String {
        guard let name = baseNames[entity.name]?[property] else {
            throw unsupported("property '\(entity.name).\(property)' has no column name")
        }
        return name
    }

    private func tableName(of entity: Entity) -> String {
        "Z" + model.root(of: entity).name.uppercased()
    }

    private func unsupported(_ reason: String) -> StoreError {
        StoreError(path: "model version '\(model.name)'", kind: .unsupportedModel(reason))
    }
}
