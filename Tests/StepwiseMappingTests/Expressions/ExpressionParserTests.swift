import Foundation
import StepwiseMapping
import Testing

@Suite("ExpressionParser")
struct ExpressionParserTests {
    struct ExpressionCase: Sendable, CustomTestStringConvertible {
        var text: String
        var expected: Expression
        init(_ text: String, _ expected: Expression) {
            self.text = text
            self.expected = expected
        }
        var testDescription: String { text }
    }

    struct PredicateCase: Sendable, CustomTestStringConvertible {
        var text: String
        var expected: Predicate
        init(_ text: String, _ expected: Predicate) {
            self.text = text
            self.expected = expected
        }
        var testDescription: String { text }
    }

    static let expressions: [ExpressionCase] = [
        // Variables and key paths.
        .init("$source", .variable(.source)),
        .init("$destination", .variable(.destination)),
        .init("$manager", .variable(.manager)),
        .init("$entityPolicy", .variable(.entityPolicy)),
        .init("$entityMapping", .variable(.entityMapping)),
        .init("$source.name", .source("name")),
        .init("$source.country.continent", .source("country", "continent")),
        .init("$destination.title", .keyPath(root: .destination, path: ["title"])),
        .init(
            "$source.countries.@distinctUnionOfSets.moods",
            .keyPath(root: .source, path: ["countries", "@distinctUnionOfSets", "moods"])),
        .init("$source.recipes.@count", .keyPath(root: .source, path: ["recipes", "@count"])),
        .init("  $source\n   .name  ", .source("name")),
        .init("$source.in", .source("in")),
        .init("$source.first.last", .source("first", "last")),
        // The evaluated object.
        .init("SELF", .variable(.evaluatedObject)),
        .init("self.name", .evaluatedObject("name")),
        .init("name", .evaluatedObject("name")),
        .init("chef.name", .evaluatedObject("chef", "name")),
        .init("#in", .evaluatedObject("in")),
        .init("#size", .evaluatedObject("size")),
        .init("#IN.count", .evaluatedObject("IN", "count")),
        .init("_private2", .evaluatedObject("_private2")),
        .init("café", .evaluatedObject("café")),
        // Literals.
        .init(#""hello""#, .constant("hello")),
        .init("'single'", .constant("single")),
        .init(#"'it\'s'"#, .constant("it's")),
        .init(#""a \"quoted\" \\ back""#, .constant(#"a "quoted" \ back"#)),
        .init(#""line\nbreak\ttab\r""#, .constant("line\nbreak\ttab\r")),
        .init(#""caf\u00e9 \ud83d\ude00""#, .constant("café 😀")),
        .init("\"two\nlines\"", .constant("two\nlines")),
        .init(#""""#, .constant("")),
        .init("42", .constant(42)),
        .init("-7", .constant(-7)),
        .init("0", .constant(0)),
        .init("3.25", .constant(3.25)),
        .init("-0.5", .constant(-0.5)),
        .init("1e3", .constant(1000.0)),
        .init("2.5E-2", .constant(0.025)),
        .init("9223372036854775807", .constant(.integer(.max))),
        .init("-9223372036854775808", .constant(.integer(.min))),
        .init("YES", .constant(.integer(1))),
        .init("yes", .constant(.integer(1))),
        .init("TRUE", .constant(.integer(1))),
        .init("NO", .constant(.integer(0))),
        .init("false", .constant(.integer(0))),
        .init("nil", .constant(.null)),
        .init("NULL", .constant(.null)),
        // Lists.
        .init(#"{1, "two", nil}"#, .constant(.array([1, "two", .null]))),
        .init("{}", .constant(.array([]))),
        .init("{$source.a, 2}", .aggregate([.source("a"), .constant(2)])),
        // Functions.
        .init(
            #"FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "ATFileMessageToATMessage", $source.fileMessage)"#,
            .function(
                target: .variable(.manager), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
                arguments: [.constant("ATFileMessageToATMessage"), .source("fileMessage")])),
        .init(
            #"FUNCTION($entityPolicy, "transformEstDateToEstYear:", $source.estDate)"#,
            .function(
                target: .variable(.entityPolicy), selector: "transformEstDateToEstYear:",
                arguments: [.source("estDate")])),
        .init(
            #"function($entityPolicy, "now")"#,
            .function(target: .variable(.entityPolicy), selector: "now", arguments: [])),
        .init(
            """
            FUNCTION(
                $entityPolicy,
                'join:with:',
                FUNCTION($entityPolicy, "upper:", $source.a),
                "-"
            )
            """,
            .function(
                target: .variable(.entityPolicy), selector: "join:with:",
                arguments: [
                    .function(target: .variable(.entityPolicy), selector: "upper:", arguments: [.source("a")]),
                    .constant("-"),
                ])),
        .init(
            #"FUNCTION("abc", "uppercaseString")"#,
            .function(target: .constant("abc"), selector: "uppercaseString", arguments: [])),
    ]

    static let predicates: [PredicateCase] = [
        .init(#"name == "x""#, .comparison(.evaluatedObject("name"), .equal, .constant("x"))),
        .init(#"name = "x""#, .comparison(.evaluatedObject("name"), .equal, .constant("x"))),
        .init(#"name != "x""#, .comparison(.evaluatedObject("name"), .notEqual, .constant("x"))),
        .init(#"name <> "x""#, .comparison(.evaluatedObject("name"), .notEqual, .constant("x"))),
        .init("age < 3", .comparison(.evaluatedObject("age"), .less, .constant(3))),
        .init("age <= 3", .comparison(.evaluatedObject("age"), .lessOrEqual, .constant(3))),
        .init("age =< 3", .comparison(.evaluatedObject("age"), .lessOrEqual, .constant(3))),
        .init("age > 3", .comparison(.evaluatedObject("age"), .greater, .constant(3))),
        .init("age >= 3", .comparison(.evaluatedObject("age"), .greaterOrEqual, .constant(3))),
        .init("age => 3", .comparison(.evaluatedObject("age"), .greaterOrEqual, .constant(3))),
        .init("$source.price > -1.5", .comparison(.source("price"), .greater, .constant(-1.5))),
        .init(#"name BEGINSWITH "a""#, .comparison(.evaluatedObject("name"), .beginsWith, .constant("a"))),
        .init(
            #"name beginswith[c] "a""#,
            .comparison(.evaluatedObject("name"), .beginsWith, .constant("a"), options: .caseInsensitive)),
        .init(
            #"name EndsWith[cd] "a""#,
            .comparison(
                .evaluatedObject("name"), .endsWith, .constant("a"), options: [.caseInsensitive, .diacriticInsensitive])
        ),
        .init(
            #"name CONTAINS [d] "a""#,
            .comparison(.evaluatedObject("name"), .contains, .constant("a"), options: .diacriticInsensitive)),
        .init(
            #"name ==[dc] "a""#,
            .comparison(
                .evaluatedObject("name"), .equal, .constant("a"), options: [.caseInsensitive, .diacriticInsensitive])),
        .init(#"name LIKE "a*""#, .comparison(.evaluatedObject("name"), .like, .constant("a*"))),
        .init(
            #"name like[c] '?b'"#,
            .comparison(.evaluatedObject("name"), .like, .constant("?b"), options: .caseInsensitive)),
        .init(#"name IN {"a", "b"}"#, .comparison(.evaluatedObject("name"), .in, .constant(.array(["a", "b"])))),
        .init(
            #"name IN[c] {"a"}"#,
            .comparison(.evaluatedObject("name"), .in, .constant(.array(["a"])), options: .caseInsensitive)),
        .init("name IN {$source.a}", .isIn(.evaluatedObject("name"), [.source("a")])),
        .init("name IN $source.names", .comparison(.evaluatedObject("name"), .in, .source("names"))),
        .init("chef == nil", .comparison(.evaluatedObject("chef"), .equal, .constant(.null))),
        .init("chef != NULL", .comparison(.evaluatedObject("chef"), .notEqual, .constant(.null))),
        .init("nil == chef", .comparison(.constant(.null), .equal, .evaluatedObject("chef"))),
        .init("$source.flag == YES", .comparison(.source("flag"), .equal, .constant(1))),
        .init("TRUEPREDICATE", .constant(true)),
        .init("falsepredicate", .constant(false)),
        .init(
            "a == 1 AND b == 2 and c == 3",
            .and([Self.test("a", 1), Self.test("b", 2), Self.test("c", 3)])),
        .init(
            "a == 1 && b == 2 || c == 3",
            .or([.and([Self.test("a", 1), Self.test("b", 2)]), Self.test("c", 3)])),
        .init(
            "a == 1 OR b == 2 AND c == 3",
            .or([Self.test("a", 1), .and([Self.test("b", 2), Self.test("c", 3)])])),
        .init("NOT a == 1 AND b == 2", .and([.not(Self.test("a", 1)), Self.test("b", 2)])),
        .init("!(a == 1 OR b == 2)", .not(.or([Self.test("a", 1), Self.test("b", 2)]))),
        .init("not NOT a == 1", .not(.not(Self.test("a", 1)))),
        .init("(a == 1)", Self.test("a", 1)),
        .init(
            "((a == 1) OR (b == 2)) AND c == 3",
            .and([.or([Self.test("a", 1), Self.test("b", 2)]), Self.test("c", 3)])),
        .init(
            "SELF.name ==[c] 'Ann'",
            .comparison(.evaluatedObject("name"), .equal, .constant("Ann"), options: .caseInsensitive)),
        .init(
            "name == 'a'\n  AND\n  chef.name != nil",
            .and([
                .comparison(.evaluatedObject("name"), .equal, .constant("a")),
                .comparison(.evaluatedObject("chef", "name"), .notEqual, .constant(.null)),
            ])),
        .init(
            #"FUNCTION($entityPolicy, "isDraft:", $source) == NO"#,
            .comparison(
                .function(target: .variable(.entityPolicy), selector: "isDraft:", arguments: [.variable(.source)]),
                .equal, .constant(0))),
    ]

    static func test(_ key: String, _ value: Int64) -> Predicate {
        .comparison(.evaluatedObject(key), .equal, .constant(.integer(value)))
    }

    @Test(arguments: expressions)
    func parsesExpression(_ example: ExpressionCase) throws {
        #expect(try ExpressionParser.parseExpression(example.text) == example.expected)
    }

    @Test(arguments: predicates)
    func parsesPredicate(_ example: PredicateCase) throws {
        #expect(try ExpressionParser.parsePredicate(example.text) == example.expected)
    }

    @Test(arguments: expressions.map(\.expected))
    func parsingAnExpressionsDescriptionGivesItBack(_ expression: Expression) throws {
        #expect(try ExpressionParser.parseExpression(expression.description) == expression)
    }

    @Test(arguments: predicates.map(\.expected))
    func parsingAPredicatesDescriptionGivesItBack(_ predicate: Predicate) throws {
        #expect(try ExpressionParser.parsePredicate(predicate.description) == predicate)
    }

    static let builtExpressions: [Expression] = [
        .constant("quote \" backslash \\ newline \n tab \t return \r"),
        .constant(.double(1e-7)),
        .constant(.double(1e20)),
        .constant(.double(-0.25)),
        .constant(.integer(.min)),
        .evaluatedObject("in"),
        .evaluatedObject("SELF", "name"),
        .keyPath(root: .evaluatedObject, path: []),
        .aggregate([.source("a"), .constant(.array([1, 2]))]),
        .function(
            target: .variable(.manager), selector: "a:b:", arguments: [.constant(.null), .source("x", "@count")]),
        // Found by the expression fuzz target's round-trip oracle: `#1a` was written `SELF.1a`.
        .evaluatedObject("1a"),
        .evaluatedObject("name", "2nd"),
        .source("1", "@count"),
        .keyPath(root: .destination, path: ["0"]),
    ]

    @Test(arguments: builtExpressions)
    func builtExpressionsRoundTrip(_ expression: Expression) throws {
        #expect(try ExpressionParser.parseExpression(expression.description) == expression)
    }

    @Test func descriptionsReadLikeCoreData() {
        #expect(Expression.evaluatedObject("chef", "name").description == "chef.name")
        #expect(Expression.evaluatedObject("in").description == "SELF.in")
        #expect(Expression.evaluatedObject("1a").description == "SELF.#1a")
        #expect(Expression.source("x", "9").description == "$source.x.#9")
        #expect(
            Predicate.or([.and([Self.test("a", 1), Self.test("b", 2)]), .not(.or([Self.test("c", 3)]))]).description
                == "(a == 1 AND b == 2) OR NOT (c == 3)")
        #expect(
            Predicate.comparison(
                .source("name"), .like, .constant("a*"), options: [.caseInsensitive, .diacriticInsensitive]
            ).description == #"$source.name LIKE[cd] "a*""#)
        #expect(Predicate.isIn(.evaluatedObject("n"), [.constant(1)]).description == "n IN {1}")
        #expect(Predicate.and([]).description == "TRUEPREDICATE")
        #expect(Predicate.or([]).description == "FALSEPREDICATE")
    }

    // MARK: - Errors

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var text: String
        var isPredicate: Bool
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { text }
    }

    static func predicateError(_ text: String, _ line: Int, _ column: Int, _ message: String) -> ErrorCase {
        ErrorCase(text: text, isPredicate: true, line: line, column: column, message: message)
    }

    static func expressionError(_ text: String, _ line: Int, _ column: Int, _ message: String) -> ErrorCase {
        ErrorCase(text: text, isPredicate: false, line: line, column: column, message: message)
    }

    static let errors: [ErrorCase] = [
        expressionError(#""abc"#, 1, 1, "unterminated string"),
        expressionError("'abc", 1, 1, "unterminated string: missing closing '"),
        expressionError("$sorce.name", 1, 1, "unknown variable $sorce; did you mean $source?"),
        expressionError("$Source", 1, 1, "did you mean $source?"),
        expressionError("$elephant", 1, 1, "expected $source, $destination, $manager, $entityPolicy or $entityMapping"),
        expressionError("$evaluatedObject", 1, 1, "unknown variable $evaluatedObject"),
        expressionError(
            #"FUNCTION($manager, "a:", $source.x"#, 1, 35,
            "expected ')' to close FUNCTION( opened at line 1, column 1, found end of input"),
        expressionError(
            "FUNCTION(\n  $entityPolicy, \"f:\" $source.x)", 2, 23,
            "expected ')' to close FUNCTION( opened at line 1, column 1, found '$source'"),
        expressionError(#"FUNCTION($manager, "a:b:", 1)"#, 1, 20, #"selector "a:b:" takes 2 arguments"#),
        expressionError(#"FUNCTION($manager, "a", 1)"#, 1, 20, "takes 0 arguments (one per colon), found 1"),
        expressionError("FUNCTION($manager, selector)", 1, 20, "expected the selector as a string literal"),
        expressionError("FUNCTION($manager)", 1, 18, "expected ',' and the selector in FUNCTION("),
        expressionError("FUNCTION $manager", 1, 10, "expected '(' after FUNCTION"),
        expressionError(#""bad \q escape""#, 1, 6, #"unknown escape '\q'"#),
        expressionError(#""\u12""#, 1, 2, "expected four hexadecimal digits"),
        expressionError("{1, 2", 1, 6, "expected '}' to close '{' opened at line 1, column 1"),
        expressionError("99999999999999999999", 1, 1, "integer 99999999999999999999 does not fit in 64 bits"),
        expressionError("$source.", 1, 9, "expected a key after '.', found end of input"),
        expressionError("$", 1, 1, "expected a variable name after '$'"),
        expressionError(
            "$source.countries.@distinctUnionOfSet.moods", 1, 19,
            "unknown collection operator @distinctUnionOfSet; did you mean @distinctUnionOfSets?"),
        expressionError("$source.@bogus", 1, 9, "unknown collection operator @bogus; expected one of @count"),
        expressionError("@count", 1, 1, "expected a key path before '@count'"),
        expressionError("$source.name == 1", 1, 14, "unexpected '==' after the end of the expression"),
        expressionError("", 1, 1, "expected an expression, found end of input"),
        expressionError("a - b", 1, 3, "expected a number after '-'"),
        predicateError("name == ", 1, 9, "expected an expression, found end of input"),
        predicateError(#"name "x""#, 1, 6, "expected a comparison operator (==, !=, <, <=, >, >="),
        predicateError("name", 1, 5, "after name, found end of input"),
        predicateError("(a == 1", 1, 8, "expected ')' to close '(' opened at line 1, column 1"),
        predicateError("a == 1 AND", 1, 11, "expected an expression, found end of input"),
        predicateError("a ==[x] 1", 1, 6, "unknown comparison modifier [x]; expected [c], [d] or [cd]"),
        predicateError("a ==[c 1", 1, 8, "expected ']' to close '['"),
        predicateError("a == 1 b", 1, 8, "unexpected 'b' after the end of the predicate"),
        predicateError("name == 'a' AND\n  age >\n  )", 3, 3, "expected an expression, found ')'"),
        predicateError("name == 'a' OR\nname == \"b", 2, 9, "unterminated string"),
        predicateError(#"ANY tags.name == "x""#, 1, 1, "ANY is not supported"),
        predicateError("a BETWEEN {1, 2}", 1, 3, "BETWEEN is not supported"),
        predicateError("a MATCHES 'x.*'", 1, 3, "MATCHES is not supported"),
        predicateError("a == 1 & b == 2", 1, 8, "expected '&&', found a single '&'"),
        predicateError("AND == 1", 1, 1, "expected an expression, found the keyword 'AND'"),
        predicateError("a ~ 1", 1, 3, "unexpected character '~'"),
        predicateError("size > 3", 1, 1, "found the keyword 'size'; write #size for a key of that name"),
        predicateError("a == 1 AND\n\tb == $sorce.x", 2, 7, "did you mean $source?"),
    ]

    @Test(arguments: errors)
    func reportsSyntaxErrorsWhereTheyAre(_ example: ErrorCase) throws {
        let error = #expect(throws: MappingError.self) {
            if example.isPredicate {
                _ = try ExpressionParser.parsePredicate(example.text)
            } else {
                _ = try ExpressionParser.parseExpression(example.text)
            }
        }
        guard case .syntax(let message, let line, let column)? = error?.kind else {
            Issue.record("expected a syntax error, got \(String(describing: error))")
            return
        }
        #expect(line == example.line)
        #expect(column == example.column)
        #expect(message.contains(example.message), "\(message)")
    }

    /// Found by probing the expression fuzz target with long inputs: a few thousand `(` (or
    /// `NOT`, `{`, `FUNCTION(`) overflowed the stack and crashed the process.
    @Test(
        "Nesting deeper than maximumNesting is a syntax error, not a stack overflow",
        arguments: [
            (String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000), true, 13),
            (String(repeating: "NOT ", count: 10_000) + "a == 1", true, 49),
            (String(repeating: "{", count: 10_000) + String(repeating: "}", count: 10_000), false, 13),
            // Each `FUNCTION($source, "f:", ` is 24 scalars; the 12th one's target is level 13.
            (
                String(repeating: #"FUNCTION($source, "f:", "#, count: 2_000) + "1"
                    + String(repeating: ")", count: 2_000),
                false, 1 + 11 * 24 + 9
            ),
        ])
    func deepNestingIsASyntaxError(_ text: String, isPredicate: Bool, column: Int) {
        let message =
            "nested more than 12 levels deep (parentheses, NOT, lists and FUNCTION arguments); "
            + "split the condition or move it into an entity policy"
        #expect(ExpressionParser.maximumNesting == 12)
        #expect(throws: MappingError(.syntax(message: message, line: 1, column: column))) {
            if isPredicate {
                _ = try ExpressionParser.parsePredicate(text)
            } else {
                _ = try ExpressionParser.parseExpression(text)
            }
        }
    }

    @Test("The deepest nesting allowed parses on a 512 KiB thread stack")
    func deepestAllowedNestingFitsASmallStack() throws {
        // 8 parentheses put the innermost comparison at level 9, its list at 10 and the `1`
        // inside the inner list at 12: the limit.
        let predicate = String(repeating: "(", count: 8) + "a == {{1}}" + String(repeating: ")", count: 8)
        let tooDeep = "(" + predicate + ")"
        let outcome = ThreadOutcome()
        let thread = Thread {
            outcome.set(
                (try? ExpressionParser.parsePredicate(predicate)) != nil,
                (try? ExpressionParser.parsePredicate(tooDeep)) == nil)
        }
        thread.stackSize = 512 * 1024
        thread.start()
        #expect(outcome.wait() == (true, true))
    }

    @Test func syntaxErrorDescriptionNamesThePlace() throws {
        let error = #expect(throws: MappingError.self) { try ExpressionParser.parsePredicate("a ==") }
        #expect(error?.description == "syntax error at line 1, column 5: expected an expression, found end of input")
    }
}

/// What a parse on another thread found, handed back to the test.
private final class ThreadOutcome: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var value = (false, false)

    /// Records the outcome; called once, on the other thread.
    func set(_ first: Bool, _ second: Bool) {
        value = (first, second)
        done.signal()
    }

    /// Waits for ``set(_:_:)``; the semaphore orders the write before this read.
    func wait() -> (Bool, Bool) {
        done.wait()
        return value
    }
}
