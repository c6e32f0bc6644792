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

    let model: ObjectModel
    /// The Core Data release whose forms to use.
    let release: CoreDataRelease
    /// An existing store's join tables, to keep the choices Core Data made for it where they
    /// differ from a new store's (see ``StoreLayout``, "Which side names a join table"); nil lays
    /// out a new store.
    let existing: LayoutChoices?
    /// Every entity in Z_ENT order.
    var ordered: [Entity] = []
    var numbers: [String: Int] = [:]
    /// Entity name → property name → the uppercased name numbered within its table
    /// (`PENDINGSTATE1`): the column is `Z` + this.
    var baseNames: [String: [String: String]] = [:]
    /// Declaring entity → relationship name → storage.
    var relationshipStorage: [String: [String: RelationshipLayout.Storage]] = [:]
    /// Destination entity → the hidden foreign keys of to-manys without inverse pointing at it,
    /// in column order.
    var hiddenForeignKeys: [String: [HiddenForeignKey]] = [:]
    var joinTables: [TableLayout] = []
    var joinIndexes: [IndexLayout] = []
    /// Root entity → join-table column name → the last number added to it: Core Data's
    /// `NSSQLStoreMappingGenerator` of that hierarchy (``uniqueJoinColumn(_:in:)``).
    var joinColumnNames: [String: [String: Int]] = [:]

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
    /// is, then made unique among the join-table columns of its hierarchy
    /// (``uniqueJoinColumn(_:in:)``).
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

    /// The order of an entity's attribute columns within each type group: by name, a composite's
    /// leaves at the place of the composite's own name, in declared order among themselves.
    ///
    /// A real SwiftData store (Core Data 1327, issue 43) shows it: `SDFolder { folderType, id,
    /// imageData, name }`, `folderType` a composite of `systemAll`, `systemStandard`,
    /// `systemRecentlyDeleted` and `user`, is `ZSDFOLDER (Z_PK, Z_ENT, Z_OPT, ZPARENTFOLDER,
    /// ZSYSTEMALL, ZSYSTEMSTANDARD, ZSYSTEMRECENTLYDELETED, ZUSER, ZNAME, ZID, ZIMAGEDATA)`:
    /// the four strings before `ZNAME`, as `folderType` sorts before `name`, and
    /// `ZSYSTEMSTANDARD` before `ZSYSTEMRECENTLYDELETED`, as declared. Core Data sorts the
    /// entity's properties by name and then expands each composite in place
    /// (`_flattenElements:` walks the elements in order).
    static func columnOrder(of attributes: [Attribute]) -> [Attribute] {
        // The flattened model lists leaves in declared order (`Attribute.flattenedElements`):
        // sorting by the composite's name, ties by position, keeps that order.
        func topLevelName(_ attribute: Attribute) -> Substring {
            attribute.name.split(separator: Attribute.elementPathSeparator, maxSplits: 1).first ?? ""
        }
        return attributes.enumerated().sorted { left, right in
            let (leftName, rightName) = (topLevelName(left.element), topLevelName(right.element))
            return leftName != rightName ? leftName < rightName : left.offset < right.offset
        }.map(\.element)
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
                let hidden = hiddenForeignKeys[relationship.destination]?.first {
                    $0.declaringEntity == declaring.name && $0.relationship == relationship.name
                }
                relationships.append(
                    RelationshipLayout(
                        name: relationship.name, declaringEntity: declaring.name,
                        destination: relationship.destination, inverse: relationship.inverse,
                        isToMany: relationship.isToMany, isOrdered: relationship.isOrdered, storage: storage,
                        hasHiddenForeignKey: hidden != nil, hiddenEntityColumn: hidden?.entityColumn))
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
            let attributes = Self.columnOrder(of: entity.attributes.filter { !$0.isTransient })
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
            // Its entity and position columns follow it, as a to-one's do.
            for hidden in hiddenForeignKeys[entity.name] ?? [] {
                groups[0].append(
                    ColumnLayout(
                        name: hidden.column, type: ColumnType.integer.rawValue,
                        role: .hiddenForeignKey(entity: hidden.declaringEntity, relationship: hidden.relationship)))
                if let entityColumn = hidden.entityColumn {
                    groups[0].append(
                        ColumnLayout(
                            name: entityColumn, type: ColumnType.integer.rawValue,
                            role: .hiddenForeignKeyEntity(
                                entity: hidden.declaringEntity, relationship: hidden.relationship)))
                }
                if let orderColumn = hidden.orderColumn {
                    groups[0].append(
                        ColumnLayout(
                            name: orderColumn, type: ColumnType.integer.rawValue,
                            role: .order(entity: hidden.declaringEntity, relationship: hidden.relationship)))
                }
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
    func inverse(of relationship: Relationship) -> (relationship: Relationship, entity: Entity)? {
        model.storedInverse(of: relationship)
    }

    func number(of entity: Entity) throws(StoreError) -> Int {
        guard let number = numbers[entity.name] else {
            throw unsupported("entity '\(entity.name)' has no entity number")
        }
        return number
    }

    func baseName(_ property: String, of entity: Entity) throws(StoreError) -> String {
        guard let name = baseNames[entity.name]?[property] else {
            throw unsupported("property '\(entity.name).\(property)' has no column name")
        }
        return name
    }

    func tableName(of entity: Entity) -> String {
        StoreLayout.tableName(ofRoot: model.root(of: entity).name)
    }

    func unsupported(_ reason: String) -> StoreError {
        StoreError(path: "model version '\(model.name)'", kind: .unsupportedModel(reason))
    }
}

extension ObjectModel {
    /// The inverse of `relationship` and the entity declaring it (the destination or one of its
    /// ancestors), when it is stored: nil for a relationship without inverse or a transient one.
    /// The layout and Core Data's pairing of many-to-manys (``ManyToManyPairing``) look inverses
    /// up alike.
    func storedInverse(of relationship: Relationship) -> (relationship: Relationship, entity: Entity)? {
        guard let inverseName = relationship.inverse, let destination = self[entity: relationship.destination],
            let owner = declaringEntity(ofProperty: inverseName, from: destination),
            let inverse = owner.relationship(named: inverseName), !inverse.isTransient
        else { return nil }
        return (inverse, owner)
    }
}
