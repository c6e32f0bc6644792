import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// The values of derived attributes (``Derivation``) in the stores a step writes, and the
/// `Z_DA_…` triggers that keep them current: the one place a step handles them.
///
/// A rebuild writes its rows with the triggers suspended, so bulk inserts don't fire a
/// per-row update each, then computes every derived value once, in SQL, and puts the triggers
/// back (``suspendTriggers(in:)``, ``computeValues(_:in:)``, ``restore(_:in:)``). An in-place or
/// partial step removes the source's triggers before it alters the tables, and creates the
/// destination's once the values are computed (``createTriggers(_:in:)``).
package enum DerivedValues {
    /// The prefix Core Data names its derived-attribute triggers with
    /// (`Z_DA_ZASSET_ZDERIVEDCAMERACAPTUREDEVICE_…` in the Photos stores of the corpus,
    /// `real-stores/RhetTbull-PhotoScript`, macOS 13 and 15).
    static let triggerPrefix = "Z_DA_"

    /// The derived-attribute triggers of `db`'s main schema, removed; returns the statements
    /// that create them again, in the order SQLite holds them.
    static func suspendTriggers(in db: Database) throws -> [String] {
        let triggers = try Row.fetchAll(
            db,
            sql: """
                SELECT "name", "sql" FROM "main"."sqlite_master"
                WHERE "type" = 'trigger' AND substr("name", 1, ?) = ? AND "sql" IS NOT NULL ORDER BY "rowid"
                """,
            arguments: [triggerPrefix.utf8.count, triggerPrefix])
        for trigger in triggers {
            let name: String = trigger["name"]
            try db.execute(sql: "DROP TRIGGER \"main\".\(name.quotedSQLIdentifier)")
        }
        return triggers.map { $0["sql"] }
    }

    /// Creates again the triggers ``suspendTriggers(in:)`` removed.
    static func restore(_ statements: [String], in db: Database) throws {
        for statement in statements { try db.execute(sql: statement) }
    }

    /// Computes the derived values of `layout`'s rows that Core Data's triggers would have
    /// written, in SQL: each derived column from its sources, and `now()` stamps where a row
    /// has none. A stamp carried from the source store is kept: it is the time of that row's
    /// last save, and a step is not one.
    package static func computeValues(_ layout: StoreLayout, in db: Database) throws {
        for column in columns(layout) {
            if column.isNow {
                try db.execute(sql: column.stampMissingStatement)
            } else if let statement = column.recomputeStatement {
                try db.execute(sql: statement)
            }
        }
    }

    /// Puts `layout`'s derived-attribute triggers in a store whose own were removed by
    /// ``suspendTriggers(in:)``, as an in-place or partial step leaves it: the destination's
    /// derivations, not the source's.
    static func createTriggers(_ layout: StoreLayout, in db: Database) throws {
        try restore(triggerStatements(layout), in: db)
    }

    /// The statements that create `layout`'s derived-attribute triggers.
    static func triggerStatements(_ layout: StoreLayout) -> [String] {
        layout.derivedAttributes.flatMap(\.triggerStatements)
    }

    /// A derived attribute's column: where it lives, which rows have it, how it is computed.
    package struct Column: Sendable {
        /// The entity that declares the attribute.
        package var entity: String
        /// The attribute.
        package var attribute: String
        package var table: String
        package var column: String
        /// `Z_ENT`s of the declaring entity and its descendants, comma-separated.
        package var entityNumbers: String
        /// Whether the value is `now()`, the time of the row's last save: not computed from
        /// other values, only stamped where missing.
        package var isNow: Bool
        /// The UPDATE that computes the column for every row from its sources; nil for `now()`.
        package var recomputeStatement: String?

        /// Stamps the rows that have no `now()` value.
        package var stampMissingStatement: String {
            """
            UPDATE "main".\(table.quotedSQLIdentifier) SET \(column.quotedSQLIdentifier) = NSCoreDataNow()
            WHERE \(column.quotedSQLIdentifier) IS NULL AND "Z_ENT" IN (\(entityNumbers))
            """
        }
    }

    /// The derived columns of `layout`, once each (at their declaring entity).
    package static func columns(_ layout: StoreLayout) -> [Column] {
        layout.entities.flatMap { entity in
            entity.attributes.compactMap { attribute -> Column? in
                guard attribute.declaringEntity == entity.name,
                    let derivation = layout.model[entity: entity.name]?.attribute(named: attribute.name)?.derivation
                else { return nil }
                let isNow = derivation.kind == .now
                return Column(
                    entity: entity.name, attribute: attribute.name, table: attribute.table, column: attribute.column,
                    entityNumbers: entity.subentityNumbers.map(String.init).joined(separator: ", "), isNow: isNow,
                    recomputeStatement: isNow ? nil : recomputeStatement(of: attribute, in: layout))
            }
        }
    }

    /// The UPDATE computing `attribute`'s derived column for all rows.
    private static func recomputeStatement(of attribute: AttributeLayout, in layout: StoreLayout) -> String? {
        layout.derivedAttributes.first {
            $0.entityName == attribute.declaringEntity && $0.attributeName == attribute.name
        }?.recomputeStatement
    }
}
