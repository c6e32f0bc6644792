/// Splits expression and predicate text into tokens, one at a time.
///
/// The parser pulls tokens as it needs them, so the first error reported is the first one in
/// the text, whether it is a lexical one (an unterminated string) or a grammatical one.
struct ExpressionLexer {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// The next token, `.end` once the text is consumed.
    mutating func next() throws(MappingError) -> ExpressionToken {
        skipWhitespace()
        let start = SourcePosition(line: line, column: column)
        guard let scalar = peek() else { return ExpressionToken(kind: .end, position: start) }
        func token(_ kind: ExpressionToken.Kind) -> ExpressionToken {
            ExpressionToken(kind: kind, position: start)
        }
        switch scalar {
        case "\"", "'":
            return token(.string(try string(quote: scalar, start: start)))
        case "0"..."9":
            return token(try number(start: start))
        case "-" where peek(1).map(Self.isDigit) == true:
            return token(try number(start: start))
        case "$", "@", "#":
            advance()
            let name = word()
            guard !name.isEmpty else {
                let what = scalar == "$" ? "a variable name" : scalar == "@" ? "a collection operator" : "a key"
                throw Self.error("expected \(what) after '\(scalar)'", at: start)
            }
            switch scalar {
            case "$": return token(.variable(name))
            case "@": return token(.collectionOperator(name))
            default: return token(.escapedWord(name))
            }
        case _ where Self.isWordStart(scalar):
            return token(.word(word()))
        default:
            return token(.symbol(try symbol(start: start)))
        }
    }

    // MARK: - Scanning

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func advance() {
        guard index < scalars.count else { return }
        if scalars[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    private mutating func skipWhitespace() {
        while let scalar = peek(), scalar.properties.isWhitespace {
            advance()
        }
    }

    private mutating func word() -> String {
        var result = ""
        while let scalar = peek(), Self.isWordStart(scalar) || Self.isDigit(scalar) {
            result.unicodeScalars.append(scalar)
            advance()
        }
        return result
    }

    private mutating func symbol(start: SourcePosition) throws(MappingError) -> String {
        guard let first = peek() else { return "" }
        advance()
        let second = peek()
        // Longest match first: `<=` before `<`, `!=` before `!`.
        let pairs: Set<String> = ["==", "!=", "<>", "<=", "=<", ">=", "=>", "&&", "||"]
        if let second, pairs.contains(String(first) + String(second)) {
            advance()
            return String(first) + String(second)
        }
        switch first {
        case "(", ")", "{", "}", "[", "]", ",", ".", "=", "<", ">", "!":
            return String(first)
        case "&", "|":
            throw Self.error("expected '\(first)\(first)', found a single '\(first)'", at: start)
        case "-":
            throw Self.error("expected a number after '-' (arithmetic is not supported)", at: start)
        case "+", "*", "/":
            throw Self.error(
                "unexpected '\(first)': arithmetic is not supported; compute the value in a FUNCTION of the entity policy",
                at: start)
        default:
            throw Self.error("unexpected character '\(first)'", at: start)
        }
    }

    /// A quoted string with backslash escapes: `\\`, `\"`, `\'`, `\n`, `\r`, `\t`, `\0`, `\uXXXX`.
    private mutating func string(quote: Unicode.Scalar, start: SourcePosition) throws(MappingError) -> String {
        advance()
        var result = ""
        while true {
            guard let scalar = peek() else {
                throw Self.error("unterminated string: missing closing \(quote) for the string", at: start)
            }
            if scalar == quote {
                advance()
                return result
            }
            guard scalar == "\\" else {
                result.unicodeScalars.append(scalar)
                advance()
                continue
            }
            let escapeStart = SourcePosition(line: line, column: column)
            advance()
            guard let escaped = peek() else {
                throw Self.error("unterminated string: missing closing \(quote) for the string", at: start)
            }
            advance()
            switch escaped {
            case "\\", "\"", "'": result.unicodeScalars.append(escaped)
            case "n": result += "\n"
            case "r": result += "\r"
            case "t": result += "\t"
            case "0": result += "\0"
            case "u": result.unicodeScalars.append(try unicodeEscape(at: escapeStart))
            default:
                throw Self.error(
                    "unknown escape '\\\(escaped)' in string; write '\\\\' for a backslash", at: escapeStart)
            }
        }
    }

    /// The scalar of `\uXXXX` (the `\u` already read), joining a UTF-16 surrogate pair.
    private mutating func unicodeEscape(at start: SourcePosition) throws(MappingError) -> Unicode.Scalar {
        let high = try hexQuad(at: start)
        if (0xD800...0xDBFF).contains(high), peek() == "\\", peek(1) == "u" {
            advance()
            advance()
            let low = try hexQuad(at: start)
            if (0xDC00...0xDFFF).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            {
                return scalar
            }
        }
        guard let scalar = Unicode.Scalar(high) else {
            throw Self.error("'\\u' escape is not a Unicode scalar (an unpaired surrogate)", at: start)
        }
        return scalar
    }

    private mutating func hexQuad(at start: SourcePosition) throws(MappingError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let scalar = peek(), let digit = Self.hexValue(scalar) else {
                throw Self.error("expected four hexadecimal digits after '\\u'", at: start)
            }
            value = value * 16 + digit
            advance()
        }
        return value
    }

    /// `12`, `-3`, `1.5`, `2e10`, `-1.25E-3`.
    private mutating func number(start: SourcePosition) throws(MappingError) -> ExpressionToken.Kind {
        var text = ""
        func take(_ lexer: inout ExpressionLexer) {
            if let scalar = lexer.peek() { text.unicodeScalars.append(scalar) }
            lexer.advance()
        }
        if peek() == "-" { take(&self) }
        while let scalar = peek(), Self.isDigit(scalar) { take(&self) }
        var isInteger = true
        if peek() == ".", let next = peek(1), Self.isDigit(next) {
            isInteger = false
            take(&self)
            while let scalar = peek(), Self.isDigit(scalar) { take(&self) }
        }
        if peek() == "e" || peek() == "E" {
            let signed = peek(1) == "+" || peek(1) == "-"
            if let digit = peek(signed ? 2 : 1), Self.isDigit(digit) {
                isInteger = false
                take(&self)
                if signed { take(&self) }
                while let scalar = peek(), Self.isDigit(scalar) { take(&self) }
            }
        }
        if isInteger {
            guard let value = Int64(text) else {
                throw Self.error("integer \(text) does not fit in 64 bits", at: start)
            }
            return .integer(value)
        }
        guard let value = Double(text), value.isFinite else {
            throw Self.error("number \(text) is out of range", at: start)
        }
        return .double(value)
    }

    // MARK: - Character classes

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    static func isWordStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    private static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "0"..."9": return scalar.value - 48
        case "a"..."f": return scalar.value - 87
        case "A"..."F": return scalar.value - 55
        default: return nil
        }
    }

    static func error(_ message: String, at position: SourcePosition) -> MappingError {
        MappingError(.syntax(message: message, line: position.line, column: position.column))
    }
}
