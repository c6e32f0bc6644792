import GRDB
import StepwiseStore

/// Associations written by pass 1's row loop, several rows per `INSERT`.
///
/// One statement per association cost a fifth of a policy's row loop. While the loop runs,
/// ``MigrationManager/associate(source:destination:mapping:)`` appends to this buffer, and
/// the buffer is written, in order, as soon as it holds ``rows`` associations and before
/// anything reads a lookup table: ``MigrationManager/lookupTable(for:)``, through which
/// every reader finds its table (the manager's lookups, the set-based passes, counts), and
/// ``MigrationManager/flushPrimaryKeys()``, which runs after every pass and hook. So no
/// reader ever sees a table without an association made before it asked. Rows go in with
/// the same `INSERT OR REPLACE`, one after the other: a later duplicate still replaces an
/// earlier one. Memory stays bounded by ``rows``.
final class AssociationBuffer {
    /// Associations per multi-row insert.
    static let rows = 64

    /// Per lookup table (by index): the pending (source, destination, entity) values.
    var pending: [Int: [DatabaseValue]] = [:]
    /// Per lookup table (by index): the insert of ``rows`` associations.
    var inserts: [Int: BoundStatement] = [:]
}

extension MigrationManager {
    /// Runs `body` with associations buffered, and writes what is left of them at the end.
    func bufferingAssociations<T>(_ body: () throws -> T) throws -> T {
        guard associationBuffer == nil else { return try body() }
        associationBuffer = AssociationBuffer()
        // On an error the step's transaction is rolled back: what is pending is dropped.
        defer { associationBuffer = nil }
        let result = try body()
        try flushAssociations()
        return result
    }

    /// Appends one association to the buffer, writing the table's pending ones when full.
    func buffer(_ table: LookupTable, _ source: Int64, _ destination: Int64, _ entity: Int) throws {
        guard let buffer = associationBuffer else { return }
        var values = buffer.pending.removeValue(forKey: table.index) ?? []
        values.reserveCapacity(AssociationBuffer.rows * 3)
        values.append(source.databaseValue)
        values.append(destination.databaseValue)
        values.append(entity.databaseValue)
        guard values.count == AssociationBuffer.rows * 3 else {
            buffer.pending[table.index] = values
            return
        }
        let insert: BoundStatement
        if let known = buffer.inserts[table.index] {
            insert = known
        } else {
            let rows = Array(repeating: "(?, ?, ?)", count: AssociationBuffer.rows).joined(separator: ", ")
            insert = try BoundStatement(
                db.makeStatement(
                    sql:
                        "INSERT OR REPLACE INTO \(table.qualifiedName) (source_pk, destination_pk, destination_entity) VALUES \(rows)"
                ))
            buffer.inserts[table.index] = insert
        }
        try insert.execute(values)
        values.removeAll(keepingCapacity: true)
        buffer.pending[table.index] = values
    }

    /// Writes every pending association, one statement each (fewer than a full insert's).
    func flushAssociations() throws {
        guard let buffer = associationBuffer, buffer.pending.contains(where: { !$0.value.isEmpty }) else { return }
        let pending = buffer.pending
        buffer.pending = [:]
        for (index, values) in pending.sorted(by: { $0.key < $1.key }) where !values.isEmpty {
            guard let table = lookupTables.first(where: { $0.index == index }) else { continue }
            let statement = try associateStatement(table)
            var offset = 0
            while offset + 2 < values.count {
                try statement.execute(Array(values[offset..<offset + 3]))
                offset += 3
            }
        }
    }
}
