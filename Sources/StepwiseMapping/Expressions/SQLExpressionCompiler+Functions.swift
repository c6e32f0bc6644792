import GRDB

extension SQLExpressionCompiler {
    /// Registers the SQL functions compiled fragments call, on one connection.
    ///
    /// Call it for every connection that runs compiled SQL, for instance in GRDB's
    /// `Configuration.prepareDatabase`:
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.prepareDatabase { db in SQLExpressionCompiler.registerFunctions(in: db) }
    /// ```
    ///
    /// - `stepwise_fold_case(x)`, `stepwise_fold_diacritics(x)`, `stepwise_fold_case_diacritics(x)`:
    ///   text folded by ``ComparisonOptions/fold(_:)`` for `[c]`, `[d]` and `[cd]`; any other
    ///   value unchanged, so numbers still compare as numbers.
    /// - `stepwise_glob_escape(x)`: text as a GLOB pattern matching only itself.
    /// - `stepwise_like_glob(x)`: an `NSPredicate` `LIKE` pattern as the equivalent GLOB pattern.
    /// - `stepwise_double_text(x)`: a REAL as the text a String attribute stores for a Double
    ///   (Swift's shortest exact spelling); any other value unchanged. Type widenings to String
    ///   (``TypeWidening/sqlExpression(converting:)``) call it.
    ///
    /// They run the same Swift code as ``ExpressionEvaluator`` and the row-by-row path, which is
    /// what makes SQL and Swift agree on folded text and on numbers written as text. All are
    /// deterministic, so SQLite may factor them out.
    package static func registerFunctions(in db: Database) {
        for function in functions {
            db.add(function: function)
        }
    }

    static let foldCaseFunction = "stepwise_fold_case"
    static let foldDiacriticsFunction = "stepwise_fold_diacritics"
    static let foldCaseDiacriticsFunction = "stepwise_fold_case_diacritics"
    static let globEscapeFunction = "stepwise_glob_escape"
    static let likeGlobFunction = "stepwise_like_glob"
    static let doubleTextFunction = "stepwise_double_text"

    /// The folding function for `options`, nil when there is nothing to fold.
    static func foldFunction(_ options: ComparisonOptions) -> String? {
        switch (options.contains(.caseInsensitive), options.contains(.diacriticInsensitive)) {
        case (true, false): return foldCaseFunction
        case (false, true): return foldDiacriticsFunction
        case (true, true): return foldCaseDiacriticsFunction
        case (false, false): return nil
        }
    }

    private static let functions: [DatabaseFunction] = [
        textFunction(foldCaseFunction, otherwise: .passThrough) { ComparisonOptions.caseInsensitive.fold($0) },
        textFunction(foldDiacriticsFunction, otherwise: .passThrough) {
            ComparisonOptions.diacriticInsensitive.fold($0)
        },
        textFunction(foldCaseDiacriticsFunction, otherwise: .passThrough) {
            ComparisonOptions([.caseInsensitive, .diacriticInsensitive]).fold($0)
        },
        textFunction(globEscapeFunction, otherwise: .null) { TextMatching.globEscaped($0) },
        textFunction(likeGlobFunction, otherwise: .null) { TextMatching.globPattern(TextMatching.likePattern($0)) },
        DatabaseFunction(doubleTextFunction, argumentCount: 1, pure: true) { values in
            guard case .double(let number) = values[0].storage else { return values[0] }
            return ValueConversion.text(of: number)
        },
    ]

    private enum NonText {
        case passThrough
        case null
    }

    /// A one-argument function that transforms text and passes other values through, or
    /// returns NULL for them.
    private static func textFunction(
        _ name: String, otherwise: NonText, _ transform: @escaping @Sendable (String) -> String
    ) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: 1, pure: true) { values in
            let value = values[0]
            guard case .string(let text) = value.storage else {
                return otherwise == .passThrough ? value : nil
            }
            return transform(text)
        }
    }
}
