import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Pass 1: create destination instances and their attributes.
///
/// An entity mapping reads exactly its source entity's rows (`Z_ENT` = that entity), not
/// its subentities', which have mappings of their own (corpus README §6.6).
///
/// Two ways to run it:
/// - **set-based**, when the mapping has no policy and its filter and attribute expressions
///   are key paths and literals: two `INSERT … SELECT` statements, no row materialized in
///   Swift. Primary keys are renumbered densely, in source order, as Core Data does
///   (corpus README §6.7): `Z_MAX + ROW_NUMBER() OVER (ORDER BY Z_PK)`.
/// - **row by row** otherwise: a cursor streams the source rows and the policy's
///   ``EntityMigrationPolicy/createDestinationInstances(forSource:in:manager:)`` runs for each.
extension MigrationManager {
    /// Runs pass 1 for one entity mapping; returns the number of destination instances created.
    func createInstances(for mapping: EntityMapping, policy: EntityMigrationPolicy?) throws -> (
        rows: Int, setBased: Bool
    ) {
        // The set-based form reads Z_MAX in SQL, and pass 1 reserves keys in ranges
        // (``flushPrimaryKeys()``): Z_MAX is exact before the pass and again after it.
        try flushPrimaryKeys()
        let result = try createInstancesUnflushed(for: mapping, policy: policy)
        try flushPrimaryKeys()
        return result
    }

    private func createInstancesUnflushed(for mapping: EntityMapping, policy: EntityMigrationPolicy?) throws -> (
        rows: Int, setBased: Bool
    ) {
        guard let sourceName = mapping.sourceEntity, mapping.kind != .remove, mapping.kind != .add else {
            return (0, true)
        }
        guard let sourceEntity = sourceLayout.entity(named: sourceName) else {
            throw MappingError(.unknownEntity(sourceName, version: sourceModel.name), entityMapping: mapping.name)
        }
        // An abstract entity has no rows of its own (every Z_ENT is a concrete entity's), and
        // a mapping reads exactly its source entity's rows: nothing to create. Inferred
        // mappings have one per abstract entity (GeographicRegion, ATRecord, ATAbstractMessage).
        if sourceEntity.isAbstract { return (0, true) }
        guard let destinationName = mapping.destinationEntity,
            let destinationEntity = destinationLayout.entity(named: destinationName)
        else {
            throw MappingError(
                .unknownEntity(mapping.destinationEntity ?? "(none)", version: destinationModel.name),
                entityMapping: mapping.name)
        }
        if destinationEntity.isAbstract {
            throw MappingError(
                .invalidValue("the destination entity is abstract and can't have instances"),
                entityMapping: mapping.name, entity: destinationName)
        }
        if let progress {
            // The bar's denominator: the source rows this mapping reads (before its filter).
            let total = try source.count(sourceEntity.name, includingSubentities: false)
            progress(.passStarted(pass: 1, entityMapping: mapping.name, total: total))
        }
        do {
            if policy == nil, let rows = try createInstancesSetBased(mapping, sourceEntity, destinationEntity) {
                progress?(.rows(pass: 1, entityMapping: mapping.name, done: rows))
                return (rows, true)
            }
        } catch let error as MappingError {
            // Compiling a key path to a missing source property fails here: name the mapping.
            throw error.adding(entityMapping: mapping.name)
        }
        // Associations are written several at a time while the rows stream (AssociationBuffer).
        let rows = try bufferingAssociations {
            try createInstancesRowByRow(mapping, sourceEntity, policy: policy ?? EntityMigrationPolicy())
        }
        return (rows, false)
    }

    /// The set-based form, or nil when an expression can't be written in SQL.
    private func createInstancesSetBased(
        _ mapping: EntityMapping, _ sourceEntity: EntityLayout, _ destinationEntity: EntityLayout
    ) throws -> Int? {
        guard let entity = destinationModel[entity: destinationEntity.name] else { return nil }
        // A composite mapped as a whole by what a key path can't say (a policy's FUNCTION) is
        // split into its leaves row by row (``InstancePlan/WholeComposite``).
        let stored = destinationModel.allAttributes(of: entity).filter { !$0.isTransient }.map(\.name)
        guard InstancePlan.WholeComposite.all(in: mapping, names: stored).isEmpty else { return nil }
        var compiler = SQLExpressionCompiler(
            planner: try SourceJoinPlanner(
                layout: sourceLayout, sourceEntity: sourceEntity.name, alias: "s", schema: sourceSchema))
        var filterSQL = "1"
        var filterArguments: [DatabaseValue] = []
        if let filter = mapping.filter {
            guard let fragment = try compiler.compile(filter) else { return nil }
            filterSQL = fragment.sql
            filterArguments = fragment.arguments
        }
        var columns: [String] = []
        var values: [String] = []
        var valueArguments: [DatabaseValue] = []
        for attribute in destinationModel.allAttributes(of: entity) where !attribute.isTransient {
            guard let column = destinationEntity.attribute(named: attribute.name)?.column else { continue }
            let defaultValue = ValueConversion.defaultValue(of: attribute)
            var sql: String
            var arguments: [DatabaseValue] = []
            if let expression = mapping.attributeMappings.first(where: { $0.name == attribute.name })?.valueExpression {
                guard
                    try ExternalDataCopy.allowsSQL(
                        for: attribute, expression: expression,
                        widening: mapping.attributeMappings.first(where: { $0.name == attribute.name })?.widening,
                        planner: compiler.planner),
                    let fragment = try compiler.compile(expression)
                else { return nil }
                sql = fragment.sql
                arguments = fragment.arguments
                if let widening = mapping.attributeMappings.first(where: { $0.name == attribute.name })?.widening {
                    sql = widening.sqlExpression(converting: sql)
                } else if attribute.type == .string, !Self.isTextColumn(expression, of: sourceEntity) {
                    // A Double would otherwise be spelled by the column's affinity, with 15
                    // digits: not always the same number, nor the row-by-row path's text.
                    sql = ValueConversion.stringAttributeSQL(sql)
                }
                if !attribute.isOptional, !defaultValue.isNull {
                    // Core Data's inferred mapping gives a required attribute its default
                    // where the source had nil (optional → non-optional with a default).
                    sql = "COALESCE(\(sql), ?)"
                    arguments.append(defaultValue)
                }
            } else if defaultValue.isNull {
                continue
            } else {
                sql = "?"
                arguments = [defaultValue]
            }
            columns.append(column)
            values.append(sql)
            valueArguments += arguments
        }
        let linked = try foreignKeysWrittenOnInsert(of: mapping, destinationEntity).filter {
            !columns.contains($0.column)
        }
        for foreignKey in linked {
            columns.append(foreignKey.column)
            values.append(foreignKey.sql)
        }
        let lookup = try lookupTable(for: mapping.name)
        let root = try destinationLayout.rootNumber(of: destinationEntity)
        let sourceTable = compiler.planner.fromClause
        let joins = compiler.joinClause
        // 1. Allocate destination keys in source order, after the root's current Z_MAX.
        // A lone entity's rows are all of its table, whatever their Z_ENT, as Core Data reads them.
        let ownRows = sourceEntity.ownRowsCondition(alias: "s") ?? "1"
        let selected = "FROM \(sourceTable) \(joins) WHERE \(ownRows) AND (\(filterSQL))"
        let selectedArguments = StatementArguments(filterArguments)
        try db.execute(
            sql: """
                INSERT INTO \(lookup.qualifiedName) (source_pk, destination_pk, destination_entity)
                SELECT "s"."Z_PK", (SELECT "Z_MAX" FROM "main"."Z_PRIMARYKEY" WHERE "Z_ENT" = ?) + \(
                    try denseRank(selected, selectedArguments)), ?
                \(selected)
                """,
            arguments: [root.databaseValue, destinationEntity.number.databaseValue] + selectedArguments)
        let created = db.changesCount
        guard created > 0 else { return 0 }
        // 2. Copy the rows, computing every attribute in SQL.
        let columnList = (["Z_PK", "Z_ENT", "Z_OPT"] + columns).map(\.quotedSQLIdentifier).joined(separator: ", ")
        let valueList = (["\"m\".\"destination_pk\"", "?", "1"] + values).joined(separator: ", ")
        let deferred = try IndexesBuiltAfterInsert(db, table: destinationEntity.tableName)
        do {
            try db.execute(
                sql: """
                    INSERT INTO "main".\(destinationEntity.tableName.quotedSQLIdentifier) (\(columnList))
                    SELECT \(valueList)
                    FROM \(lookup.qualifiedName) AS "m"
                    JOIN \(sourceTable) ON "s"."Z_PK" = "m"."source_pk" \(joins)
                    """,
                arguments: StatementArguments([destinationEntity.number.databaseValue] + valueArguments))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            // A uniqueness constraint still checked per statement (an inline one, Core Data up
            // to 1043: ``UniquenessCheckedAtEnd``) failed somewhere in the batch. Forget the
            // batch and let the row-by-row path run it again: it stops at the exact row.
            try db.execute(sql: "DELETE FROM \(lookup.qualifiedName)")
            try deferred.rebuild()
            return nil
        }
        try deferred.rebuild()
        // The links the INSERT wrote, for pass 2's report: the new rows are the keys after
        // the old Z_MAX, the only ones of the table in that range.
        for foreignKey in linked {
            let (relationship, column) = (foreignKey.relationship, foreignKey.column)
            if foreignKey.complete { insertedLinks.complete[[mapping.name, relationship]] = foreignKey.link }
            insertedLinks.counts[mapping.name, default: [:]][relationship] =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT COUNT(*) FROM "main".\(destinationEntity.tableName.quotedSQLIdentifier)
                        WHERE \(column.quotedSQLIdentifier) IS NOT NULL
                          AND "Z_PK" > (SELECT "Z_MAX" FROM "main"."Z_PRIMARYKEY" WHERE "Z_ENT" = ?)
                        """,
                    arguments: [root]) ?? 0
        }
        try db.execute(
            sql: "UPDATE \"main\".\"Z_PRIMARYKEY\" SET \"Z_MAX\" = \"Z_MAX\" + ? WHERE \"Z_ENT\" = ?",
            arguments: [created, root])
        return created
    }

    /// The SQL for the rank of `"s"."Z_PK"` among the keys `selected` (a `FROM … WHERE …`)
    /// yields, 1 for the smallest: `ROW_NUMBER() OVER (ORDER BY "s"."Z_PK")`, Core Data's
    /// dense renumbering in source order (corpus README §6.7). Where those keys have no gap
    /// (`MAX - MIN + 1 = COUNT`, what a store Core Data renumbered holds) the rank is
    /// `Z_PK - MIN + 1`, the same number without the window's sort of every key; one read of
    /// the keys tells which. Sparse keys keep the window.
    private func denseRank(_ selected: String, _ arguments: StatementArguments) throws -> String {
        let window = "ROW_NUMBER() OVER (ORDER BY \"s\".\"Z_PK\")"
        guard
            let bounds = try Row.fetchOne(
                db, sql: "SELECT MIN(\"s\".\"Z_PK\"), MAX(\"s\".\"Z_PK\"), COUNT(*) \(selected)",
                arguments: arguments),
            let low = bounds[0] as Int64?, let high = bounds[1] as Int64?, let count = bounds[2] as Int64?,
            case let (span, overflow) = high.subtractingReportingOverflow(low), !overflow, span < Int64.max,
            span + 1 == count, low > Int64.min + 1
        else { return window }
        // COUNT(*) counts rows, so a join that repeated a key would make the counts differ.
        return "(\"s\".\"Z_PK\" - \(low - 1))"
    }

    /// Whether `expression` reads a VARCHAR column of the source entity (`$source.name`): TEXT
    /// affinity stores numbers as text, so such a column never holds a REAL to convert.
    private static func isTextColumn(_ expression: Expression, of sourceEntity: EntityLayout) -> Bool {
        guard case .keyPath(.source, let path) = expression, path.count == 1 else { return false }
        return sourceEntity.attribute(named: path[0])?.columnType == .varchar
    }

    /// Streams the source rows through the policy, one at a time.
    private func createInstancesRowByRow(
        _ mapping: EntityMapping, _ sourceEntity: EntityLayout, policy: EntityMigrationPolicy
    ) throws -> Int {
        let before = try count(of: mapping)
        // The filter runs in Swift here, with the same semantics as its SQL form.
        let cursor = try source.cursor(sourceEntity.name, includingSubentities: false)
        var done = 0
        while let object = try cursor.next() {
            if let filter = mapping.filter, try !matches(filter, source: object, in: mapping) { continue }
            do {
                try policy.createDestinationInstances(forSource: object, in: mapping, manager: self)
            } catch let error as MappingError {
                throw error.adding(
                    entityMapping: mapping.name, entity: sourceEntity.name, sourcePrimaryKey: object.id.primaryKey)
            } catch let error as StoreError {
                throw MappingError(
                    error, entityMapping: mapping.name, entity: sourceEntity.name,
                    sourcePrimaryKey: object.id.primaryKey)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
                let constraint = uniqueConstraint(named: error.message)
                throw MappingError(
                    .validation("a uniqueness constraint failed: \(error.message ?? "constraint")"),
                    entityMapping: mapping.name, entity: constraint?.entity ?? mapping.destinationEntity,
                    property: constraint?.properties.joined(separator: ", "), sourcePrimaryKey: object.id.primaryKey)
            } catch {
                throw MappingError(
                    .policyFailed(ErrorText.describe(error)), entityMapping: mapping.name, entity: sourceEntity.name,
                    sourcePrimaryKey: object.id.primaryKey)
            }
            done += 1
            if done % StepCancellation.rowInterval == 0 { try cancellation?.check() }
            if done % 1_000 == 0 { progress?(.rows(pass: 1, entityMapping: mapping.name, done: done)) }
        }
        progress?(.rows(pass: 1, entityMapping: mapping.name, done: done))
        return try count(of: mapping) - before
    }

    /// The destination's uniqueness constraint that SQLite's message names
    /// (`UNIQUE constraint failed: ZTAG.ZNAME, ZTAG.ZKIND`), so errors can name its properties.
    func uniqueConstraint(named message: String?) -> UniqueConstraintLayout? {
        guard let message, let range = message.range(of: "failed: ") else { return nil }
        let failed = Set(
            message[range.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        for table in destinationLayout.tables {
            for constraint in table.uniqueConstraints
            where Set(constraint.columns.map { "\(table.name).\($0)" }) == failed {
                return constraint
            }
        }
        return nil
    }

    /// How many destination instances a mapping has associated with source rows: a
    /// destination merged from several source rows counts once.
    func count(of mapping: EntityMapping) throws -> Int {
        let table = try lookupTable(for: mapping.name)
        return try Int.fetchOne(
            db,
            sql: "SELECT COUNT(*) FROM (SELECT DISTINCT destination_pk, destination_entity FROM \(table.qualifiedName))"
        ) ?? 0
    }
}

extension StoreLayout {
    /// The `Z_ENT` of the root of an entity's hierarchy, whose `Z_PRIMARYKEY` row holds `Z_MAX`.
    func rootNumber(of entity: EntityLayout) throws -> Int {
        try entityNumber(entity.rootName)
    }
}
