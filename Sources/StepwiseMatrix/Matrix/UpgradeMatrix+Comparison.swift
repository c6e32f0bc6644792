import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore

extension UpgradeMatrix {
    /// Compares the row counts and carried values of the copied entities, between the seeded
    /// store and the upgraded one; returns the number of values compared.
    func compare(
        _ copied: [CopiedEntity], seeded: URL, upgraded: URL, layouts: (source: StoreLayout, target: StoreLayout),
        pair: Pair
    ) throws -> Int {
        let (sourceLayout, targetLayout) = layouts
        // One connection, the seeded store attached, so that SQLite can compare an entity's
        // rows of both stores in one query (IdenticalRows).
        let queue = try DatabaseQueue(path: upgraded.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        var compared = 0
        try queue.inDatabase { db in
            IdenticalRows.prepare(db)
            try db.execute(sql: "ATTACH DATABASE ? AS \"seeded\"", arguments: [seeded.path])
            defer { try? db.execute(sql: "DETACH DATABASE \"seeded\"") }
            for chain in copied {
                guard let from = sourceLayout.entity(named: chain.source),
                    let to = targetLayout.entity(named: chain.destination)
                else { continue }
                compared += try compare(
                    chain, from: from, to: to, db, pair: pair, stores: (seeded, sourceLayout, upgraded, targetLayout))
            }
        }
        return compared
    }

    private func compare(
        _ chain: CopiedEntity, from: EntityLayout, to: EntityLayout, _ db: Database, pair: Pair,
        stores: (seeded: URL, source: StoreLayout, upgraded: URL, target: StoreLayout)
    ) throws -> Int {
        let before = IdenticalRows.Side(schema: "seeded", table: from.tableName, entity: from.number)
        let after = IdenticalRows.Side(schema: "main", table: to.tableName, entity: to.number)
        let (sourceCount, targetCount) = (try IdenticalRows.count(db, before), try IdenticalRows.count(db, after))
        guard sourceCount == targetCount else {
            let renamed = chain.destination == chain.source ? "" : " (now '\(chain.destination)')"
            throw UpgradeMatrixFailure(
                pair: pair, check: .rowCount, entity: chain.source,
                detail:
                    "the seeded store has \(sourceCount) rows, the upgraded store \(targetCount)\(renamed). If a policy inserts or deletes '\(chain.destination)' objects on purpose, declare it on the policy (`override var writesOtherEntities: [String: Set<String>] { [\"\(chain.destination)\": []] }`), and the matrix lists the count as unchecked; otherwise the mapping loses or duplicates rows."
            )
        }
        // Each carried attribute: its name and layout in the seeded store, then in the upgraded one.
        let columns = chain.attributes.sorted { $0.key < $1.key }.compactMap { destination, original in
            from.attribute(named: original).flatMap { old in
                to.attribute(named: destination).map { (original, destination, old, $0) }
            }
        }
        guard !columns.isEmpty else { return 0 }
        // SQLite compares the whole entity in one query when it can; an external-storage value
        // is compared by its real bytes, which SQL can't read.
        let inRow = columns.allSatisfy { _, _, old, new in
            !stores.source.storesExternally(old) && !stores.target.storesExternally(new)
        }
        let types = (
            try IdenticalRows.declaredTypes(db, table: from.tableName, schema: "seeded"),
            try IdenticalRows.declaredTypes(db, table: to.tableName, schema: "main")
        )
        let pairs = columns.map { _, _, old, new in
            IdenticalRows.Column(
                old.column, new.column,
                declaredTypes: (types.0[old.column.uppercased()], types.1[new.column.uppercased()]))
        }
        if inRow, try IdenticalRows.areIdentical(db, before, after, columns: pairs, count: sourceCount) {
            return sourceCount * columns.count
        }
        let rowsSQL = "SELECT * FROM %@ WHERE \"Z_ENT\" = ? ORDER BY \"Z_PK\""
        let sourceRows = try Row.fetchCursor(
            db, sql: rowsSQL.replacingOccurrences(of: "%@", with: before.from), arguments: [from.number])
        let targetRows = try Row.fetchCursor(
            db, sql: rowsSQL.replacingOccurrences(of: "%@", with: after.from), arguments: [to.number])
        var compared = 0
        while let before = try sourceRows.next(), let after = try targetRows.next() {
            for (original, destination, oldAttribute, newAttribute) in columns {
                let (oldColumn, newColumn) = (oldAttribute.column, newAttribute.column)
                // An external-storage value is compared by its real bytes (ExternalBinaryValue).
                let oldValue = try ExternalDataComparison.bytes(
                    before, oldColumn, store: stores.seeded, layout: stores.source, entity: from, attribute: original)
                let newValue = try ExternalDataComparison.bytes(
                    after, newColumn, store: stores.upgraded, layout: stores.target, entity: to,
                    attribute: destination)
                compared += 1
                guard !CanonicalValue.areIdentical(oldValue, newValue) else { continue }
                let (old, new) = (CanonicalValue(oldValue), CanonicalValue(newValue))
                let renamed = destination == original ? "" : " (now '\(chain.destination).\(destination)')"
                throw UpgradeMatrixFailure(
                    pair: pair, check: .value, entity: chain.source, sourcePrimaryKey: before["Z_PK"],
                    property: original,
                    detail:
                        "the seeded store holds \(old), the upgraded store holds \(new) (its Z_PK \(after["Z_PK"] as Int64? ?? -1))\(renamed)"
                )
            }
        }
        return compared
    }

    /// What the comparison of two paths' stores leaves out: the matrix's ignored properties,
    /// and every `now()` stamp a step writes, which is the time of that step and differs by
    /// path (the consistency check makes sure every row has one).
    func pathComparisonIgnores(_ layout: StoreLayout) -> Set<String> {
        let stamps = DerivedValues.columns(layout).filter(\.isNow)
        return ignoredProperties.union(stamps.map { "\($0.entity).\($0.attribute)" })
    }

    /// Compares the stores two paths made; a difference names the object of the all-at-once
    /// result and, for a copied entity, the seeded row it came from.
    ///
    /// - parameter identicalRows: What SQLite answered when asked whether their rows are
    ///   identical (``checkResult(_:target:layout:pair:path:checked:)``), or nil when it wasn't
    ///   asked: identical leaves nothing to compare, "can't tell" goes object by object.
    func compareContents(
        _ direct: URL, _ stepwise: URL, path: String, copied: [CopiedEntity], seeded: SeededStore,
        target: ObjectModel, layout: StoreLayout, pair: Pair, identicalRows: Bool? = nil
    ) throws {
        let ignoring = pathComparisonIgnores(layout)
        // Both paths usually give the very same rows: SQLite says so in a query per entity,
        // and only stores it can't vouch for are read object by object.
        let identical =
            try identicalRows
            ?? IdenticalRows.storesAreIdentical(direct, stepwise, layout: layout, ignoring: ignoring)
        if identical { return }
        let first = try StoreContent.read(storeAt: direct, layout: layout, ignoring: ignoring)
        let second = try StoreContent.read(storeAt: stepwise, layout: layout, ignoring: ignoring)
        guard let difference = try first.firstDifference(from: second) else { return }
        var sourceKey: Int64?
        var entity = difference.entity
        if let key = difference.primaryKey, let chain = copied.first(where: { $0.destination == difference.entity }),
            let position = first.position(of: key, in: difference.entity)
        {
            // A copied entity keeps its rows' order: the n-th object is the n-th seeded row.
            sourceKey = seeded.primaryKey(of: chain.source, row: position)
            entity = chain.source == chain.destination ? chain.source : "\(chain.source) (now \(chain.destination))"
        }
        let object = difference.primaryKey.map { " for the object with Z_PK \($0)" } ?? ""
        throw UpgradeMatrixFailure(
            pair: pair, check: .pathIndependence, entity: entity, sourcePrimaryKey: sourceKey,
            property: difference.property,
            detail:
                "upgrading all at once gives \(difference.first)\(object), \(path) gives \(difference.second)")
    }
}
