/// Evaluates expressions and predicates in Swift, for rows the SQL fast path can't handle
/// (functions, `$destination`, to-many key paths).
///
/// ```swift
/// let evaluator = ExpressionEvaluator(context: rowContext)
/// let keep = try evaluator.evaluate(entityMapping.filter ?? .constant(true))
/// let name = try evaluator.evaluate(Expression.source("name"))
/// ```
///
/// Key paths and `FUNCTION` calls are the context's business (``ExpressionContext``);
/// comparisons follow ``ComparisonOperator/evaluate(_:_:options:)``, whose semantics the
/// SQL written by ``SQLExpressionCompiler`` reproduces exactly, so that a filter selects the
/// same rows on both paths.
package struct ExpressionEvaluator<Context: ExpressionContext> {
    /// Where key paths and functions are resolved.
    package var context: Context

    /// An evaluator over `context`.
    package init(context: Context) {
        self.context = context
    }

    /// The value of `expression`.
    ///
    /// A list `{a, b}` evaluates to ``MappingValue/array(_:)``.
    ///
    /// - throws: What the context throws.
    package func evaluate(_ expression: Expression) throws -> MappingValue {
        switch expression {
        case .keyPath(let root, let path):
            return try context.value(ofKeyPath: path, from: root)
        case .constant(let value):
            return value
        case .function(let target, let selector, let arguments):
            let values = try arguments.map { try evaluate($0) }
            return try context.call(target: target, selector: selector, arguments: values)
        case .aggregate(let elements):
            return .array(try elements.map { try evaluate($0) })
        }
    }

    /// Whether `predicate` holds.
    ///
    /// `AND` and `OR` stop at the first part that decides; logic is two-valued (a comparison
    /// with nil is false, and `NOT` of it is true), which the SQL compiler reproduces.
    ///
    /// - throws: What the context throws, and ``MappingError`` when `IN` has no list on its right.
    package func evaluate(_ predicate: Predicate) throws -> Bool {
        switch predicate {
        case .comparison(let lhs, let op, let rhs, let options):
            return try op.evaluate(try evaluate(lhs), try evaluate(rhs), options: options)
        case .and(let parts):
            for part in parts where try !evaluate(part) { return false }
            return true
        case .or(let parts):
            for part in parts where try evaluate(part) { return true }
            return false
        case .not(let inner):
            return try !evaluate(inner)
        case .constant(let value):
            return value
        }
    }
}

extension ExpressionEvaluator: Sendable where Context: Sendable {}
