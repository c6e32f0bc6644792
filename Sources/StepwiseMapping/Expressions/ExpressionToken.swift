/// A 1-based place in expression or predicate text.
///
/// Columns count Unicode scalars from the start of the line, so a decomposed "é" counts two.
struct SourcePosition: Sendable, Hashable, CustomStringConvertible {
    var line: Int
    var column: Int

    var description: String { "line \(line), column \(column)" }
}

/// One token of Core Data's expression and predicate syntax, as read by ``ExpressionLexer``.
struct ExpressionToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A word: a key, or a keyword such as `AND`, `nil`, `FUNCTION` (told apart by the parser).
        case word(String)
        /// `#word`: a key that would otherwise read as a keyword.
        case escapedWord(String)
        /// `$name`, without the dollar sign.
        case variable(String)
        /// `@name`, without the at sign.
        case collectionOperator(String)
        case string(String)
        case integer(Int64)
        case double(Double)
        /// `(`, `)`, `{`, `}`, `[`, `]`, `,`, `.`, and the operators `==`, `=`, `!=`, `<>`, `<`,
        /// `<=`, `=<`, `>`, `>=`, `=>`, `!`, `&&`, `||`.
        case symbol(String)
        case end
    }

    var kind: Kind
    var position: SourcePosition

    /// The token as an error message names it: `'AND'`, `"text"`, `end of input`.
    var quoted: String {
        switch kind {
        case .word(let word): return "'\(word)'"
        case .escapedWord(let word): return "'#\(word)'"
        case .variable(let name): return "'$\(name)'"
        case .collectionOperator(let name): return "'@\(name)'"
        case .string(let text): return "string \(MappingValue.quoted(text))"
        case .integer(let value): return "number \(value)"
        case .double(let value): return "number \(value)"
        case .symbol(let symbol): return "'\(symbol)'"
        case .end: return "end of input"
        }
    }

    /// Whether the token is the symbol `symbol`.
    func isSymbol(_ symbol: String) -> Bool {
        kind == .symbol(symbol)
    }

    /// The keyword, uppercased, when the token is a word that is one of `keywords`.
    func keyword(in keywords: Set<String>) -> String? {
        guard case .word(let word) = kind else { return nil }
        let upper = word.uppercased()
        return keywords.contains(upper) ? upper : nil
    }

    /// Whether the token is the keyword `keyword` (uppercase), in any case.
    func isKeyword(_ keyword: String) -> Bool {
        guard case .word(let word) = kind else { return false }
        return word.uppercased() == keyword
    }
}
