import StepwiseStore

/// An attribute mapping's expression resolved once per entity mapping, for the row-by-row
/// path: the common forms are read straight from the row or handed to the policy, without
/// walking the expression tree and the layouts again for every row.
///
/// Anything else stays ``general(_:)`` and is evaluated by ``ExpressionEvaluator``. Each
/// form returns exactly what the evaluator would: ``MigrationManager`` falls back to it
/// whenever a row is not of the entity the expression was compiled for.
indirect enum CompiledExpression {
    /// A literal.
    case constant(MappingValue)
    /// `$source.<attribute>` (or a bare `<attribute>`) of the compiled-for source entity: the
    /// row's own column, as the evaluator's first hop reads it.
    case sourceAttribute(String)
    /// `FUNCTION($entityPolicy, "selector", arguments…)`.
    case policyFunction(selector: String, arguments: [CompiledExpression])
    /// Anything else, for the evaluator.
    case general(Expression)

    /// Compiles `expression` for rows of `sourceEntity` (nil when the mapping has none).
    init(_ expression: Expression, sourceEntity: EntityLayout?) {
        switch expression {
        case .constant(let value):
            self = .constant(value)
        case .keyPath(let root, let path)
        where (root == .source || root == .evaluatedObject) && path.count == 1
            && sourceEntity?.attribute(named: path[0]) != nil:
            self = .sourceAttribute(path[0])
        case .function(.keyPath(.entityPolicy, let path), let selector, let arguments) where path.isEmpty:
            self = .policyFunction(
                selector: selector, arguments: arguments.map { CompiledExpression($0, sourceEntity: sourceEntity) })
        default:
            self = .general(expression)
        }
    }
}

extension Expression {
    /// Whether evaluating the expression reads an attribute of the `$source` row itself
    /// (a first key-path component that is not a relationship of `sourceEntity`), rather
    /// than only its id and the relationships that start from it.
    func readsSourceRow(of sourceEntity: EntityLayout) -> Bool {
        switch self {
        case .keyPath(let root, let path):
            guard root == .source || root == .evaluatedObject, let first = path.first else { return false }
            return sourceEntity.relationship(named: first) == nil
        case .constant:
            return false
        case .function(let target, _, let arguments):
            return target.readsSourceRow(of: sourceEntity) || arguments.contains { $0.readsSourceRow(of: sourceEntity) }
        case .aggregate(let elements):
            return elements.contains { $0.readsSourceRow(of: sourceEntity) }
        }
    }
}
