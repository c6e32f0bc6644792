import GRDB
import StepwiseStore

/// A relationship key path in the source store (`$source.country.continent`,
/// `$source.countries.@distinctUnionOfSets.moods`) as one SQL query of
/// `(owner, target, position)` rows: every source object and the objects the path reaches
/// from it, with the order of an ordered relationship.
///
/// Each hop follows the relationship's storage: a to-one's foreign key, a to-many's inverse
/// foreign key, or a join table. Collection operators that flatten (`@distinctUnionOfSets`…)
/// are what joins do anyway; `DISTINCT` removes duplicates.
///
/// A single hop through a foreign key or an inverse foreign key can't yield a pair twice (a
/// row has one value per column, and `Z_PK` is unique), so its query has no `DISTINCT`: on a
/// million links that is a temporary B-tree of every pair saved.
struct SourceRelationshipPath {
    /// `SELECT [DISTINCT] owner, target, position FROM …`.
    let sql: String
    /// The entity the path ends at.
    let finalEntity: EntityLayout

    /// Builds the query, or returns nil when the path is not made only of relationships.
    init?(layout: StoreLayout, from entityName: String, path: [String], schema: String) {
        guard var entity = layout.entity(named: entityName) else { return nil }
        let components = path.filter { !$0.hasPrefix("@") }
        guard !components.isEmpty, path.allSatisfy({ !$0.hasPrefix("@") || $0.contains("nionOf") }) else {
            return nil
        }
        func table(_ name: String) -> String { "\(schema.quotedSQLIdentifier).\(name.quotedSQLIdentifier)" }
        var clauses = ["FROM \(table(entity.tableName)) AS \"p0\""]
        var alias = "p0"
        var position = "NULL"
        var mayRepeat = components.count > 1
        for (index, component) in components.enumerated() {
            guard let relationship = entity.relationship(named: component),
                let destination = layout.entity(named: relationship.destination)
            else { return nil }
            let next = "p\(index + 1)"
            switch relationship.storage {
            case .foreignKey(let column, _, _):
                clauses.append(
                    "JOIN \(table(destination.tableName)) AS \"\(next)\" ON \"\(next)\".\"Z_PK\" = \"\(alias)\".\(column.quotedSQLIdentifier)"
                )
                position = "NULL"
            case .inverseForeignKey(let inverseTable, let column, let orderColumn):
                clauses.append(
                    "JOIN \(table(inverseTable)) AS \"\(next)\" ON \"\(next)\".\(column.quotedSQLIdentifier) = \"\(alias)\".\"Z_PK\""
                )
                position = orderColumn.map { "\"\(next)\".\($0.quotedSQLIdentifier)" } ?? "NULL"
            case .joinTable(let joinTable, let sourceColumn, let destinationColumn, let orderColumn):
                let link = "l\(index + 1)"
                clauses.append(
                    "JOIN \(table(joinTable)) AS \"\(link)\" ON \"\(link)\".\(sourceColumn.quotedSQLIdentifier) = \"\(alias)\".\"Z_PK\""
                )
                clauses.append(
                    "JOIN \(table(destination.tableName)) AS \"\(next)\" ON \"\(next)\".\"Z_PK\" = \"\(link)\".\(destinationColumn.quotedSQLIdentifier)"
                )
                position = orderColumn.map { "\"\(link)\".\($0.quotedSQLIdentifier)" } ?? "NULL"
                // Nothing stops a join table from holding the same pair twice.
                mayRepeat = true
            }
            alias = next
            entity = destination
        }
        // A position is only meaningful for a single ordered hop.
        if components.count > 1 { position = "NULL" }
        sql =
            "SELECT \(mayRepeat ? "DISTINCT " : "")\"p0\".\"Z_PK\" AS owner, \"\(alias)\".\"Z_PK\" AS target, \(position) AS position "
            + clauses.joined(separator: " ")
        finalEntity = entity
    }
}
