import GRDB
import StepwiseModel
import StepwiseStore

/// Turns key paths on the source entity into columns of one `SELECT`, adding a `LEFT JOIN`
/// for each to-one relationship followed.
///
/// ```swift
/// var planner = try SourceJoinPlanner(layout: layout, sourceEntity: "Country", alias: "s")
/// try planner.resolve(["name"])?.sql                // "s"."ZNAME"
/// try planner.resolve(["region", "continent"])?.sql // "j1"."ZCONTINENT"
/// planner.joinClause
/// // LEFT JOIN "ZGEOGRAPHICREGION" AS "j1" ON "j1"."Z_PK" = "s"."ZREGION"
/// let sql = "SELECT … FROM \(planner.fromClause) \(planner.joinClause) WHERE …"
/// ```
///
/// A to-one's value is its foreign key, the destination's `Z_PK`. Following it joins the
/// destination's table (the root table of its hierarchy, where `Z_PK` is unique) on that
/// key; a join is made once per (table alias, foreign key) and reused by every path through
/// it. `LEFT JOIN` keeps source rows whose relationship is nil, with NULL in the joined
/// columns, and can't multiply rows because `Z_PK` is unique.
///
/// Key paths that a single column can't express resolve to nil: to-many relationships,
/// collection operators (`@count`), transient properties, and properties that only some
/// subentities of a to-one's destination declare.
package struct SourceJoinPlanner: Sendable, Hashable {
    /// One `LEFT JOIN` the planner added.
    package struct Join: Sendable, Hashable {
        /// The joined table.
        package var table: String
        /// Its alias: `j1`, `j2`… in the order joins were added.
        package var alias: String
        /// The alias of the table holding the foreign key.
        package var parentAlias: String
        /// The foreign-key column in the parent table.
        package var foreignKeyColumn: String
        /// The schema the table is in (`src` for a migration step's attached source), if any.
        package var schema: String? = nil

        /// `LEFT JOIN "TABLE" AS "j1" ON "j1"."Z_PK" = "s"."ZFOREIGNKEY"`.
        package var sql: String {
            let on = "\(alias.quotedSQLIdentifier).\("Z_PK".quotedSQLIdentifier)"
            let key = "\(parentAlias.quotedSQLIdentifier).\(foreignKeyColumn.quotedSQLIdentifier)"
            let qualified = (schema.map { "\($0.quotedSQLIdentifier)." } ?? "") + table.quotedSQLIdentifier
            return "LEFT JOIN \(qualified) AS \(alias.quotedSQLIdentifier) ON \(on) = \(key)"
        }
    }

    /// The store layout of the source model version.
    package let layout: StoreLayout
    /// The entity whose rows are selected.
    package let sourceEntity: EntityLayout
    /// The alias of the source table in the `FROM` clause.
    package let alias: String
    /// The schema the source tables are in: `src` when a migration step attaches the source
    /// to the destination's connection; nil for the main schema.
    package let schema: String?
    /// The joins added so far, in order.
    package private(set) var joins: [Join] = []

    /// A planner for rows of `sourceEntity`, aliased `alias` in the `FROM` clause.
    ///
    /// - throws: ``MappingError`` with kind ``MappingError/Kind/unknownEntity(_:version:)``
    ///   when the layout has no such entity.
    package init(layout: StoreLayout, sourceEntity: String, alias: String = "s", schema: String? = nil)
        throws(MappingError)
    {
        guard let entity = layout.entity(named: sourceEntity) else {
            throw MappingError(.unknownEntity(sourceEntity, version: layout.model.name))
        }
        self.layout = layout
        self.sourceEntity = entity
        self.alias = alias
        self.schema = schema
    }

    /// `"ZTABLE" AS "s"`.
    package var fromClause: String {
        (schema.map { "\($0.quotedSQLIdentifier)." } ?? "") + sourceEntity.tableName.quotedSQLIdentifier
            + " AS \(alias.quotedSQLIdentifier)"
    }

    /// The joins as SQL, separated by spaces; empty when there are none.
    package var joinClause: String {
        joins.map(\.sql).joined(separator: " ")
    }

    /// The column holding the value at `path` from a source row, adding the joins it needs.
    ///
    /// - returns: nil when no single column holds the value (see the type's discussion).
    /// - throws: ``MappingError`` with kind ``MappingError/Kind/unknownProperty(entity:property:version:)``
    ///   when an entity on the path has no property of that name, nor any of its subentities.
    package mutating func resolve(_ path: [String]) throws(MappingError) -> ResolvedKeyPath? {
        guard !path.isEmpty else { return nil }
        var entity = sourceEntity
        var tableAlias = alias
        for (index, key) in path.enumerated() {
            let isLast = index == path.count - 1
            if key.hasPrefix("@") { return nil }
            // A composite's leaf is one attribute of the stored layout named by the rest of the
            // path (`author.person`, `Attribute.flattenedElements`).
            if index < path.count - 1, let attribute = entity.attribute(named: path[index...].joined(separator: ".")) {
                return ResolvedKeyPath(
                    tableAlias: tableAlias, column: attribute.column, entity: entity.name, target: .attribute(attribute)
                )
            }
            if let attribute = entity.attribute(named: key) {
                // An attribute has no keys of its own: leave `name.length` to the Swift path,
                // which reports it.
                guard isLast else { return nil }
                return ResolvedKeyPath(
                    tableAlias: tableAlias, column: attribute.column, entity: entity.name, target: .attribute(attribute)
                )
            }
            if let relationship = entity.relationship(named: key) {
                guard !relationship.isToMany, let foreignKey = relationship.foreignKeyColumn else { return nil }
                if isLast {
                    return ResolvedKeyPath(
                        tableAlias: tableAlias, column: foreignKey, entity: entity.name, target: .toOne(relationship))
                }
                guard let destination = layout.entity(named: relationship.destination) else {
                    throw MappingError(.unknownEntity(relationship.destination, version: layout.model.name))
                }
                tableAlias = join(destination.tableName, from: tableAlias, on: foreignKey)
                entity = destination
                continue
            }
            if isDeclaredElsewhere(key, from: entity) { return nil }
            throw MappingError(
                .unknownProperty(entity: entity.name, property: key, version: layout.model.name),
                entity: entity.name, property: key)
        }
        return nil
    }

    /// The alias of the join of `table` on `parentAlias.foreignKey`, added if new.
    private mutating func join(_ table: String, from parentAlias: String, on foreignKey: String) -> String {
        if let existing = joins.first(where: { $0.parentAlias == parentAlias && $0.foreignKeyColumn == foreignKey }) {
            return existing.alias
        }
        var number = joins.count + 1
        // The caller chose the source alias freely; never hand it out again.
        while "j\(number)" == alias || joins.contains(where: { $0.alias == "j\(number)" }) { number += 1 }
        let join = Join(
            table: table, alias: "j\(number)", parentAlias: parentAlias, foreignKeyColumn: foreignKey, schema: schema)
        joins.append(join)
        return join.alias
    }

    /// Whether `key` is a property of `entity` without a column (transient) or of one of
    /// its subentities: the value exists, but not in one column of this entity's rows.
    private func isDeclaredElsewhere(_ key: String, from entity: EntityLayout) -> Bool {
        guard let modelEntity = layout.model[entity: entity.name] else { return false }
        let own = layout.model.allProperties(of: modelEntity)
        let descendants = layout.model.hierarchy(from: modelEntity).flatMap(\.properties)
        return (own + descendants).contains { $0.name == key }
    }
}

/// Where a key path's value lives in the `SELECT` built by a ``SourceJoinPlanner``.
package struct ResolvedKeyPath: Sendable, Hashable {
    /// What the column holds.
    package enum Target: Sendable, Hashable {
        /// An attribute's value.
        case attribute(AttributeLayout)
        /// A to-one's foreign key: the destination's `Z_PK`, or NULL.
        case toOne(RelationshipLayout)
    }

    /// `s` for the source table, `j1`… for joined ones.
    package var tableAlias: String
    /// The column, such as `ZNAME`.
    package var column: String
    /// The entity whose property this is (the source entity, or a to-one's destination).
    package var entity: String
    package var target: Target

    /// The quoted column reference, `"j1"."ZCONTINENT"`.
    package var sql: String {
        "\(tableAlias.quotedSQLIdentifier).\(column.quotedSQLIdentifier)"
    }
}
