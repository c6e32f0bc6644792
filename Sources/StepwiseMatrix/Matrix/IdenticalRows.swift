import Foundation
import GRDB
import StepwiseStore

/// Comparisons of a whole entity that SQLite answers in one query, standing in for the
/// matrix's row-by-row comparisons (``UpgradeMatrix/compare(_:seeded:upgraded:layouts:pair:)``
/// and ``StoreContent``) when they find every value identical.
///
/// Both stores are open in one connection (one attached), and rows are matched by `Z_PK`.
/// The answer is only ever "identical" or "can't tell": whenever a query finds a difference,
/// a key that isn't in both stores, or a column it can't compare exactly, the caller runs its
/// own comparison, which decides and names the row. So a check never passes here that the
/// row-by-row comparison would fail, and its messages are unchanged.
///
/// **Why "identical" here means what ``CanonicalValue/areIdentical(_:_:)`` means**: the same
/// storage class and the same bytes. Two values are compared as `+a IS +b COLLATE BINARY`:
/// the unary `+` drops the columns' affinities, so text never equals a number; text and blobs
/// compare with `memcmp` over their whole length, so `"é"` and `"e\u{301}"` differ; NULL `IS`
/// NULL. That leaves two ways for `IS` to call different values equal, an integer and a real of
/// the same value (`1`, `1.0`) and a real `0.0` and `-0.0`, and a column's declared type rules
/// both out when both columns have the same affinity among these (SQLite's "Type Affinity";
/// each stored value went through it):
/// - INTEGER and NUMERIC turn a real without fraction into an integer, `-0.0` into `0`;
/// - REAL turns every integer into a real, and keeps `-0.0` as `0.0`;
/// - TEXT turns every number into text.
/// Any other column (BLOB, no declared type, or two different affinities) is compared with
/// `typeof` on both sides and, for a real zero, the sign bit (``signBit``) as well.
///
/// Matching by key rather than by position (the row-by-row comparisons walk both stores in
/// `Z_PK` order) gives the same pairs of rows whenever both stores hold the same keys, which
/// the counts check: `Z_PK` is unique in its table, so when each side has `n` rows of the
/// entity and the join matches `n`, the key sets are equal.
enum IdenticalRows {
    /// One side of a comparison: an entity's rows in a table of an attached schema.
    struct Side {
        /// `"main"` or the attached schema's name.
        var schema: String
        var table: String
        /// The entity's `Z_ENT`.
        var entity: Int

        var from: String { "\(schema.quotedSQLIdentifier).\(table.quotedSQLIdentifier)" }
    }

    /// A column of the first side compared with a column of the second.
    struct Column {
        var first: String
        var second: String
        /// Whether both columns' affinity makes `IS` exact (see ``IdenticalRows``); else the
        /// storage classes and zero signs are compared too.
        var isExactByAffinity: Bool

        /// The two columns, whose declared types (nil when unknown) say how they compare.
        init(_ first: String, _ second: String, declaredTypes: (String?, String?)) {
            self.first = first
            self.second = second
            let (one, other) = (declaredTypes.0.map(Affinity.init), declaredTypes.1.map(Affinity.init))
            isExactByAffinity = one != nil && one == other && one != .blob
        }

        /// SQL true when the values differ (or may: see ``isExactByAffinity``).
        fileprivate func differs(_ firstAlias: String, _ secondAlias: String) -> String {
            let a = "\(firstAlias.quotedSQLIdentifier).\(first.quotedSQLIdentifier)"
            let b = "\(secondAlias.quotedSQLIdentifier).\(second.quotedSQLIdentifier)"
            let unequal = "+\(a) IS NOT +\(b) COLLATE BINARY"
            if isExactByAffinity { return unequal }
            return "(\(unequal) OR typeof(\(a)) <> typeof(\(b)) OR \(zeroSignsDiffer(a, b)))"
        }
    }

    /// SQL true when `a` is a real zero whose sign bit differs from `b`'s. In a `CASE`, so that
    /// SQLite calls ``signBit`` (a Swift function) for real zeros only: outside a `WHERE`,
    /// SQLite evaluates both operands of an `AND`, and a call for every value would copy each
    /// blob's bytes into Swift, costing more than the whole comparison.
    fileprivate static func zeroSignsDiffer(_ a: String, _ b: String) -> String {
        "CASE WHEN typeof(\(a)) = 'real' AND \(a) = 0 THEN stepwise_sign_bit(\(a)) <> stepwise_sign_bit(\(b)) ELSE 0 END"
    }

    /// SQL naming a real zero's sign (NULL for any other value): a grouping key that tells
    /// `0.0` from `-0.0`, calling ``signBit`` only for real zeros.
    fileprivate static func zeroSign(_ a: String) -> String {
        "CASE WHEN typeof(\(a)) = 'real' AND \(a) = 0 THEN stepwise_sign_bit(\(a)) END"
    }

    /// SQLite's column affinity, from a declared type by its rules (datatype3.html, 3.1).
    private enum Affinity {
        case integer, text, blob, real, numeric

        init(declaredType: String) {
            let type = declaredType.uppercased()
            if type.contains("INT") {
                self = .integer
            } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
                self = .text
            } else if type.contains("BLOB") || type.isEmpty {
                self = .blob
            } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
                self = .real
            } else {
                self = .numeric
            }
        }
    }

    /// A query compares at most this many columns, and a wider entity takes several: their
    /// tests are one `OR` chain, and SQLite limits an expression's depth to 1,000.
    private static let columnsPerQuery = 200

    /// Whether the `count` rows of `first` and of `second`, matched by `Z_PK`, hold identical
    /// values in each of `columns`. False means "can't tell", not "different": see
    /// ``IdenticalRows``. Both sides must hold `count` rows of their entity; the caller has
    /// counted them.
    static func areIdentical(_ db: Database, _ first: Side, _ second: Side, columns: [Column], count: Int) throws
        -> Bool
    {
        let join = """
            FROM \(first.from) AS "f" JOIN \(second.from) AS "s" ON "s"."Z_PK" = "f"."Z_PK"
            WHERE "f"."Z_ENT" = ? AND "s"."Z_ENT" = ?
            """
        return try joinedRowsAreIdentical(
            db, join: join, arguments: [first.entity, second.entity], columns: columns, count: count)
    }

    /// Whether the rows `join` pairs (as `"f"` and `"s"`) are `count` pairs holding identical
    /// values in each of `columns`: one scan per chunk of columns, counting the pairs and those
    /// that differ in any column (`CASE WHEN` stops at a row's first difference).
    private static func joinedRowsAreIdentical(
        _ db: Database, join: String, arguments: StatementArguments = [], columns: [Column], count: Int
    ) throws -> Bool {
        var start = 0
        repeat {
            let chunk = columns[start..<min(start + columnsPerQuery, columns.count)]
            let differs = chunk.isEmpty ? "0" : chunk.map { $0.differs("f", "s") }.joined(separator: " OR ")
            let sql = "SELECT count(*), count(CASE WHEN \(differs) THEN 1 END) \(join)"
            guard let row = try Row.fetchOne(db, sql: sql, arguments: arguments), (row[0] as Int) == count,
                (row[1] as Int) == 0
            else { return false }
            start += columnsPerQuery
        } while start < columns.count
        return true
    }

    /// Whether every row of `table` in `main` and in `other`, matched by `Z_PK`, holds
    /// identical values in each of `columns`: ``areIdentical(_:_:_:columns:count:)`` over the
    /// whole table, whatever the rows' entities (`Z_ENT` is one of the columns compared).
    /// False means "can't tell", as above.
    static func tableRowsAreIdentical(_ db: Database, table: String, columns: [Column]) throws -> Bool {
        let counts = try rowCounts(db, table: table)
        guard counts.main == counts.other else { return false }
        let name = table.quotedSQLIdentifier
        return try joinedRowsAreIdentical(
            db,
            join: "FROM \"main\".\(name) AS \"f\" JOIN \"other\".\(name) AS \"s\" ON \"s\".\"Z_PK\" = \"f\".\"Z_PK\"",
            columns: columns, count: counts.main)
    }

    /// The rows of `table` in `main` and in `other`, all entities together.
    static func rowCounts(_ db: Database, table: String) throws -> (main: Int, other: Int) {
        let name = table.quotedSQLIdentifier
        let counts = try Row.fetchOne(
            db, sql: "SELECT (SELECT count(*) FROM \"main\".\(name)), (SELECT count(*) FROM \"other\".\(name))")
        return (counts?[0] ?? 0, counts?[1] ?? 0)
    }

    /// The declared type of each column of `schema`'s `table`, by uppercased name.
    static func declaredTypes(_ db: Database, table: String, schema: String) throws -> [String: String] {
        let rows = try Row.fetchAll(
            db, sql: "SELECT \"name\", \"type\" FROM pragma_table_info(?, ?)", arguments: [table, schema])
        return Dictionary(
            rows.map { (($0["name"] as String).uppercased(), $0["type"] as String? ?? "") },
            uniquingKeysWith: { first, _ in first })
    }

    /// `stepwise_sign_bit(x)`: 1 when the real `x` has its sign bit set (`-0.0`), else 0. SQL
    /// compares `-0.0` equal to `0.0` and prints both as `0.0`; only the value's bits tell.
    static let signBit = DatabaseFunction("stepwise_sign_bit", argumentCount: 1, pure: true) { values in
        guard case .double(let number) = values[0].storage else { return 0 }
        return number.sign == .minus ? 1 : 0
    }

    /// Adds ``signBit`` to the connection: call once before comparing.
    static func prepare(_ db: Database) {
        db.add(function: signBit)
    }

    /// The rows of `entity` in `schema`'s `table`.
    static func count(_ db: Database, _ side: Side) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT count(*) FROM \(side.from) WHERE \"Z_ENT\" = ?", arguments: [side.entity]) ?? 0
    }

    /// Whether `table` holds the same rows in `first` and `second` schemas, as a multiset,
    /// compared over `columns` by value, and for a column whose affinity doesn't make values
    /// exact, storage class and zero sign too: for join tables, whose rows have no `Z_PK` to
    /// match by. False means "can't tell", as above.
    static func tablesAreIdentical(_ db: Database, table: String, first: String, second: String, columns: [Column])
        throws -> Bool
    {
        guard !columns.isEmpty, columns.count <= columnsPerQuery else { return false }
        let key = columns.map { column in
            let name = column.first.quotedSQLIdentifier
            let value = "\(name) COLLATE BINARY"
            return column.isExactByAffinity ? value : "\(value), typeof(\(name)), \(zeroSign(name))"
        }.joined(separator: ", ")
        func grouped(_ schema: String) -> String {
            """
            SELECT \(key), count(*) FROM \(schema.quotedSQLIdentifier).\(table.quotedSQLIdentifier)
            GROUP BY \(key)
            """
        }
        // Each row with its multiplicity: equal sets of (row, multiplicity) both ways are equal
        // multisets.
        for (one, other) in [(first, second), (second, first)] {
            let sql = "SELECT EXISTS (\(grouped(one)) EXCEPT \(grouped(other)))"
            if try Bool.fetchOne(db, sql: sql) ?? true { return false }
        }
        return true
    }
}

extension IdenticalRows {
    /// Whether two stores laid out as `layout` hold the same objects, as
    /// ``StoreContent/firstDifference(from:)`` compares them, leaving out the properties in
    /// `ignoring` (`"Entity.property"`). False means "can't tell", as above.
    ///
    /// Every concrete entity's rows are compared by `Z_PK` over every column of its table but
    /// `Z_OPT` and the columns of its ignored attributes (a table without ignored attributes
    /// in one pass, `Z_ENT` compared too), and every join table as a multiset of rows. That
    /// compares more than ``StoreContent`` does (keys, order columns, foreign keys of ignored
    /// relationships), never less, so "identical" here implies no difference there.
    static func storesAreIdentical(_ first: URL, _ second: URL, layout: StoreLayout, ignoring: Set<String>) throws
        -> Bool
    {
        let queue = try DatabaseQueue(path: first.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        return try queue.inDatabase { db in
            prepare(db)
            try db.execute(sql: "ATTACH DATABASE ? AS \"other\"", arguments: [second.path])
            defer { try? db.execute(sql: "DETACH DATABASE \"other\"") }
            // Each table's columns, compared by name: a table one path rebuilt and the other
            // altered holds the same columns in another order. Nil when the two differ.
            var tableColumns: [String: [Column]?] = [:]
            func columns(of table: String) throws -> [Column]? {
                if let known = tableColumns[table] { return known }
                let mine = try declaredTypes(db, table: table, schema: "main")
                let theirs = try declaredTypes(db, table: table, schema: "other")
                let found =
                    mine.isEmpty || Set(mine.keys) != Set(theirs.keys)
                    ? nil : mine.keys.sorted().map { Column($0, $0, declaredTypes: (mine[$0], theirs[$0])) }
                tableColumns[table] = found
                return found
            }
            var joinTables: Set<String> = []
            // The concrete entities of each table. A table none of whose entities has an
            // ignored attribute is compared in one pass, `Z_ENT` among its columns, rather
            // than once per entity: Core Data keeps a whole hierarchy in one wide table.
            var entitiesByTable: [String: [EntityLayout]] = [:]
            for entity in layout.entities where !entity.isAbstract {
                entitiesByTable[entity.tableName, default: []].append(entity)
                for relationship in entity.relationships {
                    if case .joinTable(let table, _, _, _) = relationship.storage { joinTables.insert(table) }
                }
            }
            func ignoredColumns(of entity: EntityLayout) -> Set<String> {
                Set(
                    entity.attributes.filter {
                        ignoring.contains("\(entity.name).\($0.name)")
                            || ignoring.contains("\($0.declaringEntity).\($0.name)")
                    }.map { $0.column.uppercased() })
            }
            for (table, entities) in entitiesByTable.sorted(by: { $0.key < $1.key }) {
                guard let all = try columns(of: table) else { return false }
                if entities.allSatisfy({ ignoredColumns(of: $0).isEmpty }) {
                    let compared = all.filter { $0.first != "Z_OPT" }
                    guard try tableRowsAreIdentical(db, table: table, columns: compared) else { return false }
                    continue
                }
                var rows = 0
                for entity in entities {
                    let ignored = ignoredColumns(of: entity)
                    let compared = all.filter { $0.first != "Z_OPT" && !ignored.contains($0.first) }
                    let mine = Side(schema: "main", table: entity.tableName, entity: entity.number)
                    let theirs = Side(schema: "other", table: entity.tableName, entity: entity.number)
                    let count = try count(db, mine)
                    guard try self.count(db, theirs) == count,
                        try areIdentical(db, mine, theirs, columns: compared, count: count)
                    else { return false }
                    rows += count
                }
                // Rows of no concrete entity (an abstract entity's `Z_ENT`, or an unknown one)
                // aren't compared entity by entity: identical only when neither store has any.
                let totals = try rowCounts(db, table: table)
                guard totals.main == rows, totals.other == rows else { return false }
            }
            for table in joinTables.sorted() {
                guard let all = try columns(of: table),
                    try tablesAreIdentical(db, table: table, first: "main", second: "other", columns: all)
                else { return false }
            }
            return true
        }
    }
}
