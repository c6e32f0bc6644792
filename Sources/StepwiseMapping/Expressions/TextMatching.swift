import Foundation

/// The string semantics shared by ``ExpressionEvaluator`` and the SQL that
/// ``SQLExpressionCompiler`` writes, so that both select the same rows.
///
/// - Plain comparisons are exact: strings are equal when their Unicode scalars are, and
///   order by scalar (UTF-8 byte) order, which is SQLite's `BINARY` collation. "é" and
///   "e\u{301}" differ, as they do in SQLite.
/// - `[c]`, `[d]` and `[cd]` first fold both sides with ``fold(_:options:)``; in SQL the
///   same Swift code runs as the `stepwise_fold_*` functions.
/// - `BEGINSWITH`, `ENDSWITH`, `CONTAINS` and `LIKE` work on Unicode scalars, which is what
///   SQLite's `GLOB` does: `?` matches one scalar.
enum TextMatching {
    /// One element of a `LIKE` pattern.
    enum PatternElement: Hashable {
        /// `*`: any run of scalars, possibly empty.
        case anyRun
        /// `?`: exactly one scalar.
        case anyOne
        case literal(Unicode.Scalar)
    }

    /// The folded form of `text` used by `[c]`/`[d]` comparisons.
    ///
    /// Foundation's `folding(options:locale:)` with `.caseInsensitive` (full case folding:
    /// "Straße" → "strasse", "ﬁ" → "fi") and/or `.diacriticInsensitive` ("Édith" → "Edith"),
    /// without locale, then canonical composition (NFC), so that a precomposed "é" and
    /// "e\u{301}" fold alike even when only `[c]` is asked for.
    static func fold(_ text: String, options: ComparisonOptions) -> String {
        var foldingOptions: String.CompareOptions = []
        if options.contains(.caseInsensitive) { foldingOptions.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { foldingOptions.insert(.diacriticInsensitive) }
        guard !foldingOptions.isEmpty else { return text }
        return text.folding(options: foldingOptions, locale: nil).precomposedStringWithCanonicalMapping
    }

    // MARK: - Exact scalar comparisons

    /// Whether the scalars (equivalently, the UTF-8 bytes) of `a` and `b` are the same.
    /// Swift's `==` on strings would use canonical equivalence, which SQLite doesn't.
    static func isIdentical(_ a: String, _ b: String) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    /// SQLite's BINARY collation: `memcmp` on UTF-8, then the shorter first.
    static func compare(_ a: String, _ b: String) -> Int {
        compareBytes(a.utf8, b.utf8)
    }

    static func compareBytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> Int {
        var left = a.makeIterator()
        var right = b.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return 0
            case (nil, _): return -1
            case (_, nil): return 1
            case (let x?, let y?) where x != y: return x < y ? -1 : 1
            default: continue
            }
        }
    }

    /// Whether `text` starts with `prefix`. A UTF-8 byte prefix made of whole scalars is a
    /// scalar prefix, because UTF-8 is self-synchronizing.
    static func hasPrefix(_ text: String, _ prefix: String) -> Bool {
        text.utf8.starts(with: prefix.utf8)
    }

    static func hasSuffix(_ text: String, _ suffix: String) -> Bool {
        text.utf8.reversed().starts(with: suffix.utf8.reversed())
    }

    /// Whether `needle` occurs in `text`; the empty string occurs in every string, as in
    /// SQLite's `instr` and `GLOB '**'` (Foundation's `contains("")` says false).
    static func contains(_ text: String, _ needle: String) -> Bool {
        let haystack = Array(text.utf8)
        let bytes = Array(needle.utf8)
        guard !bytes.isEmpty else { return true }
        guard bytes.count <= haystack.count else { return false }
        for start in 0...(haystack.count - bytes.count) where haystack[start] == bytes[0] {
            if haystack[start..<(start + bytes.count)].elementsEqual(bytes) { return true }
        }
        return false
    }

    // MARK: - LIKE

    /// The elements of an `NSPredicate` `LIKE` pattern: `*` and `?` are wildcards, and a
    /// backslash makes the next scalar literal (a trailing backslash is itself literal).
    static func likePattern(_ pattern: String) -> [PatternElement] {
        var elements: [PatternElement] = []
        var scalars = pattern.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar {
            case "*": elements.append(.anyRun)
            case "?": elements.append(.anyOne)
            case "\\": elements.append(.literal(scalars.next() ?? "\\"))
            default: elements.append(.literal(scalar))
            }
        }
        return elements
    }

    /// Whether the whole of `text` matches the pattern, scalar by scalar, as `GLOB` does.
    static func matches(_ text: String, _ pattern: [PatternElement]) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var t = 0
        var p = 0
        // Backtracking point: the last `*` seen and the text position it currently covers to.
        var star: (pattern: Int, text: Int)?
        while t < scalars.count {
            if p < pattern.count {
                switch pattern[p] {
                case .anyRun:
                    star = (p, t)
                    p += 1
                    continue
                case .anyOne:
                    t += 1
                    p += 1
                    continue
                case .literal(let scalar) where scalar == scalars[t]:
                    t += 1
                    p += 1
                    continue
                case .literal:
                    break
                }
            }
            guard let last = star else { return false }
            star = (last.pattern, last.text + 1)
            p = last.pattern + 1
            t = last.text + 1
        }
        return pattern[p...].allSatisfy { $0 == .anyRun }
    }

    // MARK: - GLOB translation

    /// The `GLOB` pattern that matches exactly the strings the `LIKE` pattern matches.
    static func globPattern(_ pattern: [PatternElement]) -> String {
        var result = ""
        for element in pattern {
            switch element {
            case .anyRun: result += "*"
            case .anyOne: result += "?"
            case .literal(let scalar): result += globEscaped(String(scalar))
            }
        }
        return result
    }

    /// `text` as a `GLOB` pattern matching only itself.
    ///
    /// GLOB's special characters are `*`, `?` and `[`; each becomes a one-character class
    /// (`[*]`, `[?]`, `[[]`). `]` is literal outside a class but is escaped too (`[]]`), so
    /// that a pattern never holds a bare bracket.
    static func globEscaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "*", "?", "[", "]": result += "[\(scalar)]"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension ComparisonOptions {
    /// `text` folded as these options compare it: see ``ComparisonOptions``.
    ///
    /// Foundation's `folding(options:locale:)` with `.caseInsensitive` and/or
    /// `.diacriticInsensitive` and no locale, then canonical composition (NFC). With no
    /// options, `text` is returned as it is.
    package func fold(_ text: String) -> String {
        TextMatching.fold(text, options: self)
    }
}
