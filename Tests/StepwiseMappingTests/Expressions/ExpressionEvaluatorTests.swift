import Foundation
import StepwiseMapping
import StepwiseStore
import Testing

/// A context over fixed values: `$source.x` and a bare `x` read `values["x"]`; functions
/// are closures by selector that receive the target's description and the arguments.
struct FixedContext: ExpressionContext, Sendable {
    var values: [String: MappingValue]
    var functions: [String: @Sendable (String, [MappingValue]) -> MappingValue] = [:]

    func value(ofKeyPath path: [String], from root: ExpressionVariable) throws -> MappingValue {
        let key = ((root == .source || root == .evaluatedObject) ? path : [root.description] + path)
            .joined(separator: ".")
        guard let value = values[key] else { throw MappingError(.failed("no value for \(key)")) }
        return value
    }

    func call(target: Expression, selector: String, arguments: [MappingValue]) throws -> MappingValue {
        guard let function = functions[selector] else { throw MappingError(.unknownFunction(selector)) }
        return function(target.description, arguments)
    }
}

@Suite("ExpressionEvaluator")
struct ExpressionEvaluatorTests {
    static let context = FixedContext(
        values: [
            "name": "Édith",
            "nickname": "edith",
            "decomposed": "E\u{301}dith",
            "street": "Straße",
            "count": 3,
            "ratio": 3.0,
            "half": 0.5,
            "missing": .null,
            "chef": .object(ObjectID(entity: "Chef", primaryKey: 7)),
            "nochef": .null,
            "recipes": .objects([ObjectID(entity: "Recipe", primaryKey: 1), ObjectID(entity: "Recipe", primaryKey: 2)]),
            "moods": .array(["happy", "sad"]),
            "flag": 1,
            "file": "report*.txt",
            "raw": .data(Data([1, 2, 3])),
            "$destination.title": "Chef Édith",
        ],
        functions: [
            "upper:": { _, arguments in
                guard case .string(let text)? = arguments.first else { return .null }
                return .string(text.uppercased())
            },
            "describe:with:": { target, arguments in
                .string("\(target) \(arguments.map(\.literalDescription).joined(separator: " "))")
            },
        ])

    static let evaluator = ExpressionEvaluator(context: context)

    struct PredicateCase: Sendable, CustomTestStringConvertible {
        var text: String
        var holds: Bool
        init(_ text: String, _ holds: Bool) {
            self.text = text
            self.holds = holds
        }
        var testDescription: String { text }
    }

    static let predicates: [PredicateCase] = [
        .init(#"name == "Édith""#, true),
        .init(#"name == "edith""#, false),
        .init(#"name ==[c] "ÉDITH""#, true),
        .init(#"name ==[d] "Edith""#, true),
        .init(#"name ==[cd] "EDITH""#, true),
        .init("name == decomposed", false),  // exact scalars, as SQLite's BINARY collation
        .init("name ==[c] decomposed", true),  // folded text is composed (NFC)
        .init(#"street ==[c] "STRASSE""#, true),
        .init(#"street == "Strasse""#, false),
        .init("count == 3", true),
        .init("count == 3.0", true),
        .init("ratio == 3", true),
        .init("count = ratio", true),
        .init("count != 4", true),
        .init("count < 3.5", true),
        .init("count >= 3", true),
        .init("half > 0", true),
        .init(#"count == "3""#, false),  // a number never equals a string
        .init(#"count < "3""#, true),  // numbers order before strings, as in SQLite
        .init("missing == nil", true),
        .init("missing != nil", false),
        .init("count != nil", true),
        .init("missing != 3", true),  // nil != 3, as NSPredicate and SQL's IS NOT
        .init("missing < 3", false),  // ordering with nil is never true
        .init("NOT missing < 3", true),  // two-valued: NOT of false
        .init("missing > 3", false),
        .init(#"missing BEGINSWITH "a""#, false),
        .init("chef != nil", true),
        .init("nochef == nil", true),
        .init(#"name BEGINSWITH "É""#, true),
        .init(#"name BEGINSWITH[cd] "ed""#, true),
        .init(#"name ENDSWITH "ith""#, true),
        .init(#"name CONTAINS "dit""#, true),
        .init(#"name CONTAINS """#, true),
        .init(#"count BEGINSWITH "3""#, false),  // string operators need strings
        .init(#"file LIKE "report\\*.txt""#, true),
        .init(#"file LIKE "*.txt""#, true),
        .init(#"file LIKE "report?.txt""#, true),
        .init(#"file LIKE "report?.tx""#, false),
        .init(#"file LIKE "REPORT*""#, false),
        .init(#"file LIKE[c] "REPORT*""#, true),
        .init(#"name LIKE "?dith""#, true),  // ? is one scalar: the precomposed É
        .init(#"decomposed LIKE "?dith""#, false),  // E + U+0301 are two
        .init(#"count IN {1, 2, 3}"#, true),
        .init(#"count IN {"3"}"#, false),
        .init(#"missing IN {1, nil}"#, true),
        .init(#"name IN[c] {"édith", "bob"}"#, true),
        .init(#""happy" IN moods"#, true),
        .init(#""angry" IN moods"#, false),
        .init("flag == YES", true),
        .init("flag == NO", false),
        .init("count > 2 AND name BEGINSWITH 'É'", true),
        .init("count > 5 OR name == nil", false),
        .init("count > 5 OR NOT name == nil", true),
        .init("TRUEPREDICATE AND NOT FALSEPREDICATE", true),
        .init("$destination.title ENDSWITH 'Édith'", true),
        .init(#"FUNCTION($entityPolicy, "upper:", $source.nickname) == "EDITH""#, true),
    ]

    @Test(arguments: predicates)
    func evaluatesPredicate(_ example: PredicateCase) throws {
        let predicate = try ExpressionParser.parsePredicate(example.text)
        #expect(try Self.evaluator.evaluate(predicate) == example.holds)
    }

    struct ExpressionCase: Sendable, CustomTestStringConvertible {
        var text: String
        var value: MappingValue
        init(_ text: String, _ value: MappingValue) {
            self.text = text
            self.value = value
        }
        var testDescription: String { text }
    }

    static let expressions: [ExpressionCase] = [
        .init("$source.name", "Édith"),
        .init("name", "Édith"),
        .init("$source.chef", .object(ObjectID(entity: "Chef", primaryKey: 7))),
        .init("$destination.title", "Chef Édith"),
        .init("42", 42),
        .init("YES", 1),
        .init("nil", .null),
        .init("{1, $source.count}", .array([1, 3])),
        .init(#"FUNCTION($entityPolicy, "upper:", $source.name)"#, "ÉDITH"),
        .init(
            #"FUNCTION($manager, "describe:with:", FUNCTION($entityPolicy, "upper:", "a"), $source.count)"#,
            #"$manager "A" 3"#),
    ]

    @Test(arguments: expressions)
    func evaluatesExpression(_ example: ExpressionCase) throws {
        let expression = try ExpressionParser.parseExpression(example.text)
        #expect(try Self.evaluator.evaluate(expression) == example.value)
    }

    @Test func unknownFunctionErrorComesFromTheContext() throws {
        let expression = try ExpressionParser.parseExpression(#"FUNCTION($entityPolicy, "nope:", 1)"#)
        #expect(throws: MappingError(.unknownFunction("nope:"))) { try Self.evaluator.evaluate(expression) }
    }

    @Test func inWithoutAListIsAnInvalidValue() throws {
        let predicate = try ExpressionParser.parsePredicate("count IN name")
        let error = #expect(throws: MappingError.self) { try Self.evaluator.evaluate(predicate) }
        guard case .invalidValue(let reason)? = error?.kind else {
            Issue.record("expected invalidValue, got \(String(describing: error))")
            return
        }
        #expect(reason == #"IN needs a list or a to-many key path on its right, found "Édith""#)
    }

    struct ValueCase: Sendable, CustomTestStringConvertible {
        var lhs: MappingValue
        var op: ComparisonOperator
        var rhs: MappingValue
        var options: ComparisonOptions = []
        var holds: Bool
        var testDescription: String {
            "\(lhs.literalDescription) \(op.rawValue)\(options.modifier) \(rhs.literalDescription)"
        }
    }

    static let values: [ValueCase] = [
        .init(lhs: .integer(.max), op: .less, rhs: .double(9_223_372_036_854_775_808.0), holds: true),
        .init(lhs: .integer(9_007_199_254_740_993), op: .greater, rhs: .double(9_007_199_254_740_992.0), holds: true),
        .init(lhs: .integer(9_007_199_254_740_993), op: .equal, rhs: .double(9_007_199_254_740_992.0), holds: false),
        .init(lhs: .integer(-3), op: .less, rhs: .double(-2.5), holds: true),
        .init(lhs: .integer(-2), op: .greater, rhs: .double(-2.5), holds: true),
        .init(lhs: .double(.nan), op: .equal, rhs: .null, holds: true),
        .init(lhs: .string("b"), op: .greater, rhs: .string("a"), holds: true),
        .init(lhs: .string("Z"), op: .less, rhs: .string("a"), holds: true),  // scalar order, not locale
        .init(lhs: .string("é"), op: .greater, rhs: .string("z"), holds: true),
        .init(lhs: .string("abc"), op: .greater, rhs: .string("ab"), holds: true),
        .init(lhs: .data(Data([1, 2])), op: .greater, rhs: .string("zzz"), holds: true),  // blobs after text
        .init(lhs: .data(Data([1, 2])), op: .equal, rhs: .data(Data([1, 2])), holds: true),
        .init(lhs: .string("ﬁle"), op: .equal, rhs: .string("FILE"), options: .caseInsensitive, holds: true),
        .init(lhs: .string("Zoë"), op: .equal, rhs: .string("zoe"), options: .caseInsensitive, holds: false),
        .init(
            lhs: .string("Zoë"), op: .equal, rhs: .string("zoe"), options: [.caseInsensitive, .diacriticInsensitive],
            holds: true),
        .init(lhs: .integer(3), op: .equal, rhs: .integer(3), options: .caseInsensitive, holds: true),
        .init(
            lhs: .object(ObjectID(entity: "A", primaryKey: 1)), op: .equal,
            rhs: .object(ObjectID(entity: "A", primaryKey: 1)),
            holds: true),
        .init(lhs: .object(ObjectID(entity: "A", primaryKey: 1)), op: .equal, rhs: .integer(1), holds: false),
        .init(
            lhs: .object(ObjectID(entity: "A", primaryKey: 1)), op: .less,
            rhs: .object(ObjectID(entity: "A", primaryKey: 2)),
            holds: false),
        .init(
            lhs: .object(ObjectID(entity: "A", primaryKey: 2)), op: .in,
            rhs: .objects([ObjectID(entity: "A", primaryKey: 1), ObjectID(entity: "A", primaryKey: 2)]), holds: true),
        .init(lhs: .string("x"), op: .in, rhs: .null, holds: false),
        .init(lhs: .string("a[b]"), op: .like, rhs: .string("a[b]"), holds: true),
        .init(lhs: .string("a\\b"), op: .like, rhs: .string("a\\\\b"), holds: true),
        .init(lhs: .string("ab"), op: .like, rhs: .string("a**b*"), holds: true),
        .init(lhs: .string(""), op: .like, rhs: .string("*"), holds: true),
        .init(lhs: .string(""), op: .like, rhs: .string("?"), holds: false),
        .init(lhs: .string("aXbXc"), op: .like, rhs: .string("a*c"), holds: true),
        .init(lhs: .string("abcabd"), op: .like, rhs: .string("*abd"), holds: true),
        .init(lhs: .string("ab"), op: .endsWith, rhs: .string(""), holds: true),
    ]

    @Test(arguments: values)
    func comparesValues(_ example: ValueCase) throws {
        #expect(try example.op.evaluate(example.lhs, example.rhs, options: example.options) == example.holds)
    }

    @Test func foldingIsFoundationsCaseAndDiacriticFoldingThenNFC() {
        #expect(ComparisonOptions.caseInsensitive.fold("Straße") == "strasse")
        #expect(
            ComparisonOptions.caseInsensitive.fold("E\u{301}DITH").unicodeScalars.map(\.value) == [
                0xE9, 0x64, 0x69, 0x74, 0x68,
            ])
        #expect(ComparisonOptions.diacriticInsensitive.fold("Édith") == "Edith")
        #expect(ComparisonOptions([.caseInsensitive, .diacriticInsensitive]).fold("ÉDITH") == "edith")
        #expect(ComparisonOptions().fold("É") == "É")
    }
}
