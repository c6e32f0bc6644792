/// Reads Core Data's expression (`NSExpression`) and predicate (`NSPredicate`) syntax, as
/// written in mapping models and mapping files.
///
/// ```swift
/// let value = try ExpressionParser.parseExpression(
///     #"FUNCTION($entityPolicy, "transformEstDateToEstYear:", $source.estDate)"#)
/// // .function(target: .variable(.entityPolicy), selector: "transformEstDateToEstYear:",
/// //           arguments: [.source("estDate")])
///
/// let filter = try ExpressionParser.parsePredicate(#"name BEGINSWITH[c] "a" AND chef != nil"#)
/// ```
///
/// The grammar is the part of Apple's that mapping models use (see ``Expression`` and
/// ``Predicate``): key paths, literals, `FUNCTION`, lists, comparisons with `[c]`/`[d]`
/// modifiers, `IN`, `AND`/`OR`/`NOT`. Keywords are case-insensitive; a key that is a keyword
/// is written `#key` (`#in`), or after a dot (`$source.in`). Not supported, with a message
/// that says so: arithmetic, `ANY`/`ALL`/`SOME`/`NONE`, `BETWEEN`, `MATCHES`, `SUBQUERY`.
///
/// Every error is a ``MappingError`` of kind ``MappingError/Kind/syntax(message:line:column:)``
/// whose 1-based line and column point at the offending token (columns count Unicode scalars),
/// and whose message says what was expected there.
///
/// Parentheses, `NOT`, lists and `FUNCTION` arguments nest at most ``maximumNesting`` levels deep.
package struct ExpressionParser {
    /// How deep parentheses, `NOT`s, lists `{…}` and `FUNCTION` arguments may nest, together.
    ///
    /// The parser recurses once per level, so without a limit a text of a few thousand `(`
    /// overflowed the stack and crashed the process (found by `Scripts/fuzz expression`). Real
    /// mapping expressions nest a few levels. Sized for a 512 KB stack, the smallest a
    /// secondary thread gets on Apple platforms, since an upgrader parses its mappings on the
    /// caller's thread: each level costs about 20 KB in a debug build, so 32 levels did not fit
    /// in 512 KB and 16 needed 384 KB (issue 44); 12 fit in 288 KB (not 256 KB), which leaves
    /// the caller 224 KB (`SmallStackReaderTests`, with `STEPWISE_SMALL_STACK_BYTES`).
    package static let maximumNesting = 12

    private var lexer: ExpressionLexer
    /// The next token, not yet consumed.
    private var current: ExpressionToken
    /// The levels of nesting open at ``current``.
    private var depth = 0

    private init(_ text: String) throws(MappingError) {
        lexer = ExpressionLexer(text)
        current = try lexer.next()
    }

    /// Parses one expression, such as `$source.name` or
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "AToB", $source.b)`.
    ///
    /// - throws: ``MappingError`` with kind ``MappingError/Kind/syntax(message:line:column:)``.
    package static func parseExpression(_ text: String) throws(MappingError) -> Expression {
        var parser = try ExpressionParser(text)
        let expression = try parser.expression()
        try parser.expectEnd(after: "the expression")
        return expression
    }

    /// Parses one predicate, such as `name ==[c] "x" AND (age > 3 OR chef == nil)`.
    ///
    /// - throws: ``MappingError`` with kind ``MappingError/Kind/syntax(message:line:column:)``.
    package static func parsePredicate(_ text: String) throws(MappingError) -> Predicate {
        var parser = try ExpressionParser(text)
        let predicate = try parser.orPredicate()
        try parser.expectEnd(after: "the predicate")
        return predicate
    }

    // MARK: - Predicates

    /// `and (OR and)*`: OR binds loosest.
    private mutating func orPredicate() throws(MappingError) -> Predicate {
        var parts = [try andPredicate()]
        while current.isKeyword("OR") || current.isSymbol("||") {
            try advance()
            parts.append(try andPredicate())
        }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    /// `not (AND not)*`.
    private mutating func andPredicate() throws(MappingError) -> Predicate {
        var parts = [try notPredicate()]
        while current.isKeyword("AND") || current.isSymbol("&&") {
            try advance()
            parts.append(try notPredicate())
        }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    /// `NOT not | primary`: NOT binds tightest, to the next comparison or parenthesized group.
    private mutating func notPredicate() throws(MappingError) -> Predicate {
        // Every cycle of predicate recursion (a parenthesized group, a NOT) passes here.
        try enterNesting()
        defer { depth -= 1 }
        if current.isKeyword("NOT") || current.isSymbol("!") {
            try advance()
            return .not(try notPredicate())
        }
        return try primaryPredicate()
    }

    private mutating func primaryPredicate() throws(MappingError) -> Predicate {
        let token = current
        if token.isSymbol("(") {
            try advance()
            let inner = try orPredicate()
            try expectClosing(")", toClose: "'('", openedAt: token.position)
            return inner
        }
        if token.isKeyword("TRUEPREDICATE") || token.isKeyword("FALSEPREDICATE") {
            try advance()
            return .constant(token.isKeyword("TRUEPREDICATE"))
        }
        if let quantifier = token.keyword(in: ["ANY", "ALL", "SOME", "NONE"]) {
            throw Self.error(
                "\(quantifier) is not supported: Stepwise predicates compare single values; "
                    + "use a FUNCTION of the entity policy for to-many conditions", at: token)
        }
        if token.isKeyword("SUBQUERY") {
            throw Self.error("SUBQUERY is not supported; use a FUNCTION of the entity policy", at: token)
        }
        return try comparison()
    }

    /// `expression operator[options] expression`.
    private mutating func comparison() throws(MappingError) -> Predicate {
        let lhs = try expression()
        let opToken = current
        guard let op = try comparisonOperator() else {
            let expected =
                "expected a comparison operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, IN)"
            if let unsupported = opToken.keyword(in: ["BETWEEN", "MATCHES"]) {
                throw Self.error("\(unsupported) is not supported; \(expected)", at: opToken)
            }
            throw Self.error("\(expected) after \(lhs), found \(opToken.quoted)", at: opToken)
        }
        let options = try comparisonOptions()
        let rhs = try expression()
        return .comparison(lhs, op, rhs, options: options)
    }

    /// Consumes a comparison operator if the current token is one.
    private mutating func comparisonOperator() throws(MappingError) -> ComparisonOperator? {
        let op: ComparisonOperator?
        switch current.kind {
        case .symbol("=="), .symbol("="): op = .equal
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="), .symbol("=<"): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
        case .word(let word):
            switch word.uppercased() {
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "CONTAINS": op = .contains
            case "LIKE": op = .like
            case "IN": op = .in
            default: op = nil
            }
        default: op = nil
        }
        if op != nil { try advance() }
        return op
    }

    /// `[c]`, `[d]`, `[cd]` (either order), or nothing.
    private mutating func comparisonOptions() throws(MappingError) -> ComparisonOptions {
        let open = current
        guard open.isSymbol("[") else { return [] }
        try advance()
        guard case .word(let letters) = current.kind, !letters.isEmpty else {
            throw Self.error("expected c, d or cd inside '[' ']' after the operator", at: current)
        }
        var options: ComparisonOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default:
                throw Self.error("unknown comparison modifier [\(letters)]; expected [c], [d] or [cd]", at: current)
            }
        }
        try advance()
        try expectClosing("]", toClose: "'['", openedAt: open.position)
        return options
    }

    // MARK: - Expressions

    private mutating func expression() throws(MappingError) -> Expression {
        // Every cycle of expression recursion (a list element, a FUNCTION argument) passes here.
        try enterNesting()
        defer { depth -= 1 }
        let token = current
        switch token.kind {
        case .variable(let name):
            guard let variable = ExpressionVariable(rawValue: name), variable != .evaluatedObject else {
                throw Self.error(Self.unknownVariableMessage(name), at: token)
            }
            try advance()
            return .keyPath(root: variable, path: try keyPathComponents())
        case .string(let text):
            try advance()
            return .constant(.string(text))
        case .integer(let value):
            try advance()
            return .constant(.integer(value))
        case .double(let value):
            try advance()
            return .constant(.double(value))
        case .escapedWord(let key):
            try advance()
            return .keyPath(root: .evaluatedObject, path: [key] + (try keyPathComponents()))
        case .symbol("{"):
            return try aggregate()
        case .word(let word):
            switch word.uppercased() {
            case "YES", "TRUE":
                try advance()
                return .constant(.yes)
            case "NO", "FALSE":
                try advance()
                return .constant(.no)
            case "NIL", "NULL":
                try advance()
                return .constant(.null)
            case "SELF":
                try advance()
                return .keyPath(root: .evaluatedObject, path: try keyPathComponents())
            case "FUNCTION":
                return try function()
            case let upper where Self.reservedWords.contains(upper):
                // Keys such as `size` or `first` are keywords in Apple's grammar too.
                let hint = Self.keyKeywords.contains(upper) ? "; write #\(word) for a key of that name" : ""
                throw Self.error("expected an expression, found the keyword \(token.quoted)\(hint)", at: token)
            default:
                try advance()
                return .keyPath(root: .evaluatedObject, path: [word] + (try keyPathComponents()))
            }
        case .collectionOperator(let name):
            throw Self.error("expected a key path before '@\(name)', such as $source.items.@\(name)", at: token)
        case .symbol, .end:
            throw Self.error("expected an expression, found \(token.quoted)", at: token)
        }
    }

    /// `(.key | .@operator | .#key)*` after a variable or a first key.
    private mutating func keyPathComponents() throws(MappingError) -> [String] {
        var components: [String] = []
        while current.isSymbol(".") {
            try advance()
            let token = current
            switch token.kind {
            // After a dot nothing else can follow, so keywords are keys here (`$source.in`).
            case .word(let key), .escapedWord(let key):
                components.append(key)
            case .collectionOperator(let name):
                guard Self.collectionOperators.contains(name) else {
                    let suggestion = Self.closest(to: name, in: Self.collectionOperators).map {
                        "; did you mean @\($0)?"
                    }
                    throw Self.error(
                        "unknown collection operator @\(name)"
                            + (suggestion ?? "; expected one of "
                                + Self.collectionOperators.map { "@" + $0 }.joined(separator: ", ")),
                        at: token)
                }
                components.append("@" + name)
            default:
                throw Self.error("expected a key after '.', found \(token.quoted)", at: token)
            }
            try advance()
        }
        return components
    }

    /// `FUNCTION(target, "selector:", arguments…)`; the selector's colons give the argument count.
    private mutating func function() throws(MappingError) -> Expression {
        let keyword = current
        try advance()
        let open = current
        guard open.isSymbol("(") else {
            throw Self.error("expected '(' after FUNCTION, found \(open.quoted)", at: open)
        }
        try advance()
        let target = try expression()
        try expectClosingOrComma(toClose: "FUNCTION(", openedAt: keyword.position)
        let selectorToken = current
        guard case .string(let selector) = selectorToken.kind else {
            throw Self.error(
                "expected the selector as a string literal, such as \"transform:\", found \(selectorToken.quoted)",
                at: selectorToken)
        }
        try advance()
        var arguments: [Expression] = []
        while current.isSymbol(",") {
            try advance()
            arguments.append(try expression())
        }
        try expectClosing(")", toClose: "FUNCTION(", openedAt: keyword.position)
        // Core Data calls the selector with one argument per colon; a mismatch would fail
        // only when the migration runs, so it is reported now.
        let expected = selector.filter { $0 == ":" }.count
        guard arguments.count == expected else {
            throw Self.error(
                "selector \"\(selector)\" takes \(expected) argument\(expected == 1 ? "" : "s") "
                    + "(one per colon), found \(arguments.count)", at: selectorToken)
        }
        return .function(target: target, selector: selector, arguments: arguments)
    }

    /// `{a, b, …}`: a list of literals becomes one ``MappingValue/array(_:)`` constant.
    private mutating func aggregate() throws(MappingError) -> Expression {
        let open = current
        try advance()
        var elements: [Expression] = []
        if !current.isSymbol("}") {
            elements.append(try expression())
            while current.isSymbol(",") {
                try advance()
                elements.append(try expression())
            }
        }
        try expectClosing("}", toClose: "'{'", openedAt: open.position)
        var values: [MappingValue] = []
        for element in elements {
            guard case .constant(let value) = element else { return .aggregate(elements) }
            values.append(value)
        }
        return .constant(.array(values))
    }

    // MARK: - Tokens

    private mutating func advance() throws(MappingError) {
        current = try lexer.next()
    }

    /// Opens one level of nesting at ``current``, or throws past ``maximumNesting``.
    private mutating func enterNesting() throws(MappingError) {
        guard depth < Self.maximumNesting else {
            throw Self.error(
                "nested more than \(Self.maximumNesting) levels deep (parentheses, NOT, lists and FUNCTION "
                    + "arguments); split the condition or move it into an entity policy", at: current)
        }
        depth += 1
    }

    private mutating func expectClosing(
        _ symbol: String, toClose opener: String, openedAt position: SourcePosition
    ) throws(MappingError) {
        guard current.isSymbol(symbol) else {
            throw Self.error(
                "expected '\(symbol)' to close \(opener) opened at \(position), found \(current.quoted)", at: current)
        }
        try advance()
    }

    private mutating func expectClosingOrComma(
        toClose opener: String, openedAt position: SourcePosition
    ) throws(MappingError) {
        guard current.isSymbol(",") else {
            throw Self.error(
                "expected ',' and the selector in \(opener) opened at \(position), found \(current.quoted)",
                at: current)
        }
        try advance()
    }

    private func expectEnd(after what: String) throws(MappingError) {
        guard current.kind == .end else {
            throw Self.error("unexpected \(current.quoted) after the end of \(what)", at: current)
        }
    }

    private static func error(_ message: String, at token: ExpressionToken) -> MappingError {
        ExpressionLexer.error(message, at: token.position)
    }

    // MARK: - Vocabulary

    /// Words with a meaning of their own in Apple's predicate grammar (compared uppercased).
    /// A key spelled like one must be escaped `#key` unless it follows a dot.
    static let reservedWords: Set<String> = [
        "AND", "OR", "NOT", "IN", "ALL", "ANY", "SOME", "NONE", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH",
        "ENDSWITH", "BETWEEN", "NIL", "NULL", "SELF", "TRUE", "FALSE", "YES", "NO", "FIRST", "LAST", "SIZE",
        "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE", "FUNCTION", "CASEINSENSITIVE", "CI",
    ]

    /// Reserved words that are also plausible keys, for which the error suggests `#key`.
    private static let keyKeywords: Set<String> = ["FIRST", "LAST", "SIZE", "ANYKEY", "FETCH", "CAST", "CI"]

    /// Key-Value Coding's collection operators, without the `@`.
    static let collectionOperators = [
        "count", "sum", "avg", "min", "max", "distinctUnionOfObjects", "distinctUnionOfSets",
        "distinctUnionOfArrays", "unionOfObjects", "unionOfSets", "unionOfArrays",
    ]

    /// Whether `key` can be written bare: a word that is not a keyword.
    static func isPlainIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, ExpressionLexer.isWordStart(first) else { return false }
        return key.unicodeScalars.allSatisfy { ExpressionLexer.isWordStart($0) || ExpressionLexer.isDigit($0) }
            && !reservedWords.contains(key.uppercased())
    }

    private static func unknownVariableMessage(_ name: String) -> String {
        let names = ExpressionVariable.allCases.filter { $0 != .evaluatedObject }.map(\.rawValue)
        if let suggestion = closest(to: name, in: names) {
            return "unknown variable $\(name); did you mean $\(suggestion)?"
        }
        let list = names.map { "$" + $0 }
        return "unknown variable $\(name); expected \(list.dropLast().joined(separator: ", ")) or \(list.last ?? "")"
    }

    /// The candidate nearest to `word` (case-insensitive edit distance at most a third of its
    /// length, and at least 2), for "did you mean" hints.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let lowered = Array(word.lowercased())
        let limit = max(2, lowered.count / 3)
        let scored = candidates.map { ($0, editDistance(lowered, Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= limit else { return nil }
        return best.0
    }

    /// Levenshtein distance.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var row = [i + 1]
            for (j, y) in b.enumerated() {
                row.append(min(previous[j + 1] + 1, row[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = row
        }
        return previous[b.count]
    }
}
