import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore
import Testing

@Suite("SQLExpressionCompiler")
struct SQLExpressionCompilerTests {
    static let model = ObjectModel("Pantry") {
        Entity("Item") {
            Attribute("name", .string)
            Attribute("note", .string)
            Attribute("count", .integer64)
            Attribute("score", .double)
            Attribute("flag", .boolean)
            // BLOB affinity keeps every storage class as inserted: integers, reals, text, blobs.
            Attribute("raw", .binary)
            Relationship("kind", to: "Kind", inverse: "items")
            Relationship("tags", to: "Tag", inverse: "items").toMany()
        }
        Entity("Kind") {
            Attribute("label", .string)
            Relationship("items", to: "Item", inverse: "kind").toMany()
        }
        Entity("Tag") {
            Attribute("name", .string)
            Relationship("items", to: "Item", inverse: "tags").toMany()
        }
    }

    static func compiler() throws -> SQLExpressionCompiler {
        try SQLExpressionCompiler(layout: try StoreLayout(model: model), sourceEntity: "Item", alias: "s")
    }

    // MARK: - Exact SQL

    struct SQLCase: Sendable, CustomTestStringConvertible {
        var predicate: String
        var sql: String
        var arguments: [DatabaseValue]
        var testDescription: String { predicate }
    }

    static let sqlCases: [SQLCase] = [
        .init(predicate: #"name == "Ann""#, sql: #"(+"s"."ZNAME" IS ?)"#, arguments: ["Ann".databaseValue]),
        .init(predicate: "name != nil", sql: #"(+"s"."ZNAME" IS NOT ?)"#, arguments: [.null]),
        .init(
            predicate: #"name ==[c] "ÄNN""#, sql: #"(stepwise_fold_case("s"."ZNAME") IS ?)"#,
            arguments: ["änn".databaseValue]),
        .init(
            predicate: #"name ==[cd] "ÄNN""#, sql: #"(stepwise_fold_case_diacritics("s"."ZNAME") IS ?)"#,
            arguments: ["ann".databaseValue]),
        .init(predicate: "count > 2", sql: #"((+"s"."ZCOUNT" > ?) IS 1)"#, arguments: [2.databaseValue]),
        .init(predicate: "flag == YES", sql: #"(+"s"."ZFLAG" IS ?)"#, arguments: [1.databaseValue]),
        .init(
            predicate: #"name BEGINSWITH "a*""#,
            sql: #"(typeof("s"."ZNAME") = 'text' AND ("s"."ZNAME" GLOB (?)) IS 1)"#,
            arguments: ["a[*]*".databaseValue]),
        .init(
            predicate: #"name LIKE[c] "A?[*""#,
            sql: #"(typeof("s"."ZNAME") = 'text' AND (stepwise_fold_case("s"."ZNAME") GLOB (?)) IS 1)"#,
            arguments: ["a?[[]*".databaseValue]),
        .init(
            predicate: "name CONTAINS note",
            sql:
                #"(typeof("s"."ZNAME") = 'text' AND typeof("s"."ZNOTE") = 'text' AND ("s"."ZNAME" GLOB ('*' || stepwise_glob_escape("s"."ZNOTE") || '*')) IS 1)"#,
            arguments: []),
        .init(predicate: #"count BEGINSWITH 3"#, sql: "0", arguments: []),
        .init(
            predicate: #"count IN {1, nil}"#, sql: #"((+"s"."ZCOUNT" IS ?) OR (+"s"."ZCOUNT" IS ?))"#,
            arguments: [1.databaseValue, .null]),
        .init(predicate: "count IN {}", sql: "0", arguments: []),
        .init(predicate: "kind == nil", sql: #"("s"."ZKIND" IS NULL)"#, arguments: []),
        .init(predicate: "nil != kind", sql: #"("s"."ZKIND" IS NOT NULL)"#, arguments: []),
        .init(
            predicate: "kind.label == 'fruit' OR NOT count < 1.5",
            sql: #"((+"j1"."ZLABEL" IS ?) OR (NOT ((+"s"."ZCOUNT" < ?) IS 1)))"#,
            arguments: ["fruit".databaseValue, 1.5.databaseValue]),
        .init(predicate: "TRUEPREDICATE AND FALSEPREDICATE", sql: "(1 AND 0)", arguments: []),
    ]

    @Test(arguments: sqlCases)
    func compilesPredicateToExactSQL(_ example: SQLCase) throws {
        var compiler = try Self.compiler()
        let fragment = try #require(try compiler.compile(try ExpressionParser.parsePredicate(example.predicate)))
        #expect(fragment.sql == example.sql)
        #expect(fragment.arguments == example.arguments)
    }

    @Test func valueExpressionsAreColumnsOrBoundLiterals() throws {
        var compiler = try Self.compiler()
        #expect(try compiler.compile(Expression.source("name")) == SQLFragment(sql: #""s"."ZNAME""#))
        #expect(try compiler.compile(Expression.source("kind")) == SQLFragment(sql: #""s"."ZKIND""#))
        #expect(compiler.joinClause.isEmpty)
        #expect(try compiler.compile(Expression.source("kind", "label")) == SQLFragment(sql: #""j1"."ZLABEL""#))
        #expect(compiler.joinClause == #"LEFT JOIN "ZKIND" AS "j1" ON "j1"."Z_PK" = "s"."ZKIND""#)
        #expect(try compiler.compile(Expression.constant("x")) == SQLFragment(sql: "?", arguments: ["x".databaseValue]))
        #expect(try compiler.compile(Expression.constant(.yes)) == SQLFragment(sql: "?", arguments: [1.databaseValue]))
        #expect(try compiler.compile(Expression.constant(.null)) == SQLFragment(sql: "?", arguments: [.null]))
    }

    static let notCompiled: [String] = [
        #"FUNCTION($entityPolicy, "upper:", $source.name)"#,
        "$destination.name",
        "$manager",
        "$entityPolicy",
        "$source",
        "$source.tags",
        "$source.tags.@count",
        "$source.kind.items",
        "{1, 2}",
        "{$source.name}",
    ]

    @Test(arguments: notCompiled)
    func expressionsSQLCantComputeGiveNil(_ text: String) throws {
        var compiler = try Self.compiler()
        #expect(try compiler.compile(try ExpressionParser.parseExpression(text)) == nil)
    }

    static let notCompiledPredicates: [String] = [
        #"FUNCTION($entityPolicy, "isDraft:", $source) == 1"#,
        "$destination.name == 'x'",
        "kind == 3",
        "kind == $source.kind",
        "kind IN {nil}",
        "name IN $source.tags",
        "tags.@count > 2",
        "name == 'a' AND kind.label == $destination.name",
    ]

    @Test(arguments: notCompiledPredicates)
    func predicatesSQLCantComputeGiveNilAndAddNoJoin(_ text: String) throws {
        var compiler = try Self.compiler()
        #expect(try compiler.compile(try ExpressionParser.parsePredicate(text)) == nil)
        #expect(compiler.joinClause.isEmpty)
    }

    @Test func unknownPropertiesThrow() throws {
        var compiler = try Self.compiler()
        let error = #expect(throws: MappingError.self) {
            try compiler.compile(try ExpressionParser.parsePredicate("kind.colour == 'red'"))
        }
        #expect(error?.kind == .unknownProperty(entity: "Kind", property: "colour", version: "Pantry"))
    }

    // MARK: - Agreement between SQL and Swift

    /// One row of ZITEM: `raw` is stored as given, whatever its storage class.
    struct Item {
        var name: DatabaseValue
        var note: DatabaseValue
        var count: DatabaseValue
        var score: DatabaseValue
        var raw: DatabaseValue
        var kind: Int64?
    }

    static let items: [Item] = [
        Item(
            name: "Édith".databaseValue, note: "édith".databaseValue, count: 1.databaseValue, score: 1.5.databaseValue,
            raw: 5.databaseValue, kind: 1),
        Item(
            name: "edith".databaseValue, note: "EDITH".databaseValue, count: 2.databaseValue, score: 2.0.databaseValue,
            raw: "5".databaseValue, kind: 2),
        Item(
            name: "E\u{301}dith".databaseValue, note: .null, count: 3.databaseValue, score: 2.databaseValue,
            raw: 5.5.databaseValue, kind: nil),
        Item(
            name: "Straße".databaseValue, note: "STRASSE".databaseValue, count: .null, score: .null,
            raw: Data([0x35]).databaseValue, kind: 1),
        Item(
            name: "STRASSE".databaseValue, note: "ß".databaseValue, count: 10.databaseValue, score: (-1).databaseValue,
            raw: .null, kind: 3),
        Item(
            name: .null, note: "x".databaseValue, count: 0.databaseValue, score: 0.0.databaseValue,
            raw: "abc".databaseValue, kind: nil),
        Item(
            name: "100%".databaseValue, note: "%".databaseValue, count: 100.databaseValue, score: 100.5.databaseValue,
            raw: 12.databaseValue, kind: 2),
        Item(
            name: "a_b".databaseValue, note: "_".databaseValue, count: (-5).databaseValue, score: .null,
            raw: "a".databaseValue, kind: nil),
        Item(
            name: "a*b".databaseValue, note: "*".databaseValue, count: 5.databaseValue, score: 5.databaseValue,
            raw: "12".databaseValue, kind: nil),
        Item(
            name: "a?b".databaseValue, note: "?".databaseValue, count: 7.databaseValue, score: 7.25.databaseValue,
            raw: .null, kind: nil),
        Item(
            name: "[x]".databaseValue, note: "[".databaseValue, count: 8.databaseValue, score: .null, raw: .null,
            kind: nil),
        Item(
            name: "abc".databaseValue, note: "a?c".databaseValue, count: 2.databaseValue, score: 2.5.databaseValue,
            raw: .null, kind: 1),
        Item(
            name: "ABC".databaseValue, note: "a*".databaseValue, count: 3.databaseValue, score: .null, raw: .null,
            kind: 1),
        Item(
            name: "".databaseValue, note: "".databaseValue, count: 1.databaseValue, score: .null, raw: "".databaseValue,
            kind: nil),
        Item(name: "ﬁne".databaseValue, note: "FINE".databaseValue, count: .null, score: .null, raw: .null, kind: 2),
        Item(
            name: "Zoë".databaseValue, note: "zoe".databaseValue, count: 4.databaseValue, score: 4.databaseValue,
            raw: .null, kind: 3),
        Item(
            name: "12".databaseValue, note: "12".databaseValue, count: 12.databaseValue, score: 12.databaseValue,
            raw: 12.0.databaseValue, kind: nil),
    ]

    struct AgreementCase: Sendable, CustomTestStringConvertible {
        var predicate: String
        /// The names of the rows it selects, in Z_PK order, when checked by hand; nil rows are "nil".
        var expected: [String]?
        init(_ predicate: String, _ expected: [String]? = nil) {
            self.predicate = predicate
            self.expected = expected
        }
        var testDescription: String { predicate }
    }

    static let agreementCases: [AgreementCase] = [
        .init(#"name == "edith""#, ["edith"]),
        .init(#"name ==[c] "EDITH""#, ["edith"]),
        .init(#"name ==[cd] "edith""#, ["Édith", "edith", "E\u{301}dith"]),
        .init(#"name ==[d] "Edith""#, ["Édith", "E\u{301}dith"]),
        .init(#"name ==[c] "édith""#, ["Édith", "E\u{301}dith"]),
        .init(#"name != "edith""#),
        .init("name == nil", ["nil"]),
        .init("name != nil"),
        .init(#"name < "b""#),
        .init(#"name >= "É""#, ["Édith", "ﬁne"]),
        .init(#"name BEGINSWITH "a""#, ["a_b", "a*b", "a?b", "abc"]),
        .init(#"name BEGINSWITH[c] "a""#, ["a_b", "a*b", "a?b", "abc", "ABC"]),
        .init(#"name ENDSWITH "%""#, ["100%"]),
        .init(#"name CONTAINS "_""#, ["a_b"]),
        .init(#"name CONTAINS "*""#, ["a*b"]),
        .init(#"name CONTAINS "[""#, ["[x]"]),
        .init(#"name CONTAINS """#),
        .init(#"name LIKE "a*""#, ["a_b", "a*b", "a?b", "abc"]),
        .init(#"name LIKE "a?b""#, ["a_b", "a*b", "a?b"]),
        .init(#"name LIKE "a\\*b""#, ["a*b"]),
        .init(#"name LIKE "[*]""#, ["[x]"]),
        .init(#"name LIKE "%""#, []),
        .init(#"name LIKE[c] "*ss*""#, ["Straße", "STRASSE"]),
        .init(#"name CONTAINS[c] "STRASSE""#, ["Straße", "STRASSE"]),
        .init(#"name ENDSWITH[cd] "ITH""#, ["Édith", "edith", "E\u{301}dith"]),
        .init(#"name ==[c] "FINE""#, ["ﬁne"]),
        .init(#"name ==[cd] "ZOE""#, ["Zoë"]),
        .init(#"name ==[c] note"#),
        .init(#"name ==[cd] note"#),
        .init(#"name == note"#),
        .init(#"name CONTAINS note"#),
        .init(#"name BEGINSWITH[c] note"#),
        .init(#"name ENDSWITH note"#),
        .init(#"name LIKE note"#),
        .init(#"name LIKE[c] note"#),
        .init("count > 2"),
        .init("count == 2.0", ["edith", "abc"]),
        .init("score == 2", ["edith", "E\u{301}dith"]),
        .init("score < count"),
        .init("score >= 2 AND score <= 5"),
        .init("count IN {1, 3, nil}", ["Édith", "E\u{301}dith", "Straße", "ABC", "", "ﬁne"]),
        .init(#"name IN[c] {"EDITH", "abc"}"#, ["edith", "abc", "ABC"]),
        .init("NOT (count > 2)"),
        .init("NOT count < 5", ["Straße", "STRASSE", "100%", "a*b", "a?b", "[x]", "ﬁne", "12"]),
        .init("count > 2 OR name == nil"),
        .init("count > 2 AND NOT name BEGINSWITH 'a'"),
        .init("raw == 5"),
        .init(#"raw == "5""#),
        .init(#"raw > "a""#),
        .init("raw < 10"),
        .init("raw == 12", ["100%", "12"]),
        .init(#"raw BEGINSWITH "1""#, ["a*b"]),
        .init("raw != nil"),
        .init(#"name == "12""#, ["12"]),
        .init("name == 12", []),
        .init("count == '12'", []),
        .init("note < 1", []),
        .init("kind.label == 'fruit'", ["Édith", "Straße", "abc", "ABC"]),
        .init("kind.label ==[c] 'VEGETABLE' OR kind.label == nil"),
        .init("kind == nil"),
        .init("kind != nil AND NOT kind.label BEGINSWITH 'f'"),
        .init("count < nil", []),
        .init("NOT count < nil"),
        .init("TRUEPREDICATE"),
        .init("FALSEPREDICATE", []),
        .init("flag == NO"),
    ]

    @Test(arguments: agreementCases)
    func sqlSelectsTheRowsSwiftAccepts(_ example: AgreementCase) throws {
        let predicate = try ExpressionParser.parsePredicate(example.predicate)
        var compiler = try Self.compiler()
        let fragment = try #require(try compiler.compile(predicate), "should compile")
        let fixture = try Fixture()
        let sqlKeys = try fixture.select(fragment, compiler)

        let evaluatedKeys = try fixture.rows.filter { row in
            try ExpressionEvaluator(context: fixture.context(for: row)).evaluate(predicate)
        }.map(\.key)

        #expect(sqlKeys == evaluatedKeys)
        if let expected = example.expected {
            #expect(sqlKeys.map { fixture.name(of: $0) } == expected)
        }
    }

    @Test func agreementCoversEnoughPredicates() {
        #expect(Self.agreementCases.count >= 25)
        #expect(Self.agreementCases.filter { $0.expected != nil }.count >= 25)
    }

    /// An in-memory store with ``items`` and three kinds, plus the rows as the Swift evaluator
    /// sees them.
    struct Fixture: Sendable {
        struct Row: Sendable {
            var key: Int64
            var values: [String: MappingValue]
        }

        let queue: DatabaseQueue
        let rows: [Row]
        let kinds: [Int64: MappingValue] = [1: "fruit", 2: "Vegetable", 3: .null]

        init() throws {
            var configuration = Configuration()
            configuration.prepareDatabase { db in SQLExpressionCompiler.registerFunctions(in: db) }
            queue = try DatabaseQueue(configuration: configuration)
            let layout = try StoreLayout(model: SQLExpressionCompilerTests.model)
            rows = try queue.write { db in
                for statement in layout.createStatements { try db.execute(sql: statement) }
                let kinds = try #require(layout.entity(named: "Kind"))
                for (key, label) in [(1, "fruit"), (2, "Vegetable")] {
                    try db.execute(
                        sql: #"INSERT INTO "ZKIND" ("Z_PK", "Z_ENT", "ZLABEL") VALUES (?, ?, ?)"#,
                        arguments: [key, kinds.number, label])
                }
                try db.execute(
                    sql: #"INSERT INTO "ZKIND" ("Z_PK", "Z_ENT") VALUES (3, ?)"#, arguments: [kinds.number])
                let item = try #require(layout.entity(named: "Item"))
                for (index, row) in SQLExpressionCompilerTests.items.enumerated() {
                    try db.execute(
                        sql: """
                            INSERT INTO "ZITEM" ("Z_PK", "Z_ENT", "ZNAME", "ZNOTE", "ZCOUNT", "ZSCORE", "ZRAW", "ZKIND", "ZFLAG")
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            index + 1, item.number, row.name, row.note, row.count, row.score, row.raw, row.kind,
                            index % 2,
                        ])
                }
                // Read back what SQLite stored (affinity turns 2 into 2.0 in a FLOAT column).
                return try GRDB.Row.fetchAll(
                    db,
                    sql:
                        #"SELECT "Z_PK", "ZNAME", "ZNOTE", "ZCOUNT", "ZSCORE", "ZRAW", "ZKIND", "ZFLAG" FROM "ZITEM" ORDER BY "Z_PK""#
                ).map { stored in
                    let names = ["name", "note", "count", "score", "raw"]
                    var values: [String: MappingValue] = [:]
                    for (offset, name) in names.enumerated() {
                        values[name] = Self.mappingValue(stored[offset + 1] as DatabaseValue)
                    }
                    let kind: Int64? = stored[6]
                    values["kind"] = kind.map { .object(ObjectID(entity: "Kind", primaryKey: $0)) } ?? .null
                    values["flag"] = Self.mappingValue(stored[7] as DatabaseValue)
                    return Row(key: stored[0], values: values)
                }
            }
        }

        static func mappingValue(_ value: DatabaseValue) -> MappingValue {
            switch value.storage {
            case .null: return .null
            case .int64(let integer): return .integer(integer)
            case .double(let double): return .double(double)
            case .string(let string): return .string(string)
            case .blob(let data): return .data(data)
            }
        }

        func name(of key: Int64) -> String {
            guard case .string(let name)? = rows.first(where: { $0.key == key })?.values["name"] else { return "nil" }
            return name
        }

        /// The keys of the rows the fragment selects, in Z_PK order.
        func select(_ fragment: SQLFragment, _ compiler: SQLExpressionCompiler) throws -> [Int64] {
            let sql = """
                SELECT "s"."Z_PK" FROM \(compiler.planner.fromClause) \(compiler.joinClause)
                WHERE \(fragment.sql) ORDER BY "s"."Z_PK"
                """
            return try queue.read { db in
                try Int64.fetchAll(db, sql: sql, arguments: fragment.statementArguments)
            }
        }

        func context(for row: Row) -> RowContext {
            RowContext(row: row.values, kinds: kinds)
        }
    }

    /// `name`, `$source.name`, `kind.label` over one fixture row.
    struct RowContext: ExpressionContext {
        var row: [String: MappingValue]
        var kinds: [Int64: MappingValue]

        func value(ofKeyPath path: [String], from root: ExpressionVariable) throws -> MappingValue {
            guard root == .source || root == .evaluatedObject else { throw MappingError(.failed("no \(root)")) }
            switch path {
            case ["kind", "label"]:
                guard case .object(let kind)? = row["kind"] else { return .null }
                return kinds[kind.primaryKey] ?? .null
            case let path where path.count == 1:
                guard let value = row[path[0]] else { throw MappingError(.failed("no \(path[0])")) }
                return value
            default:
                throw MappingError(.failed("no \(path)"))
            }
        }

        func call(target: Expression, selector: String, arguments: [MappingValue]) throws -> MappingValue {
            throw MappingError(.unknownFunction(selector))
        }
    }
}
