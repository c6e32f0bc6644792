/// What ``ExpressionEvaluator`` needs from the migration that runs it: the values of key
/// paths and the functions that `FUNCTION` calls.
///
/// The migration engine implements it over stored objects: it knows which object
/// `$source` is, how to follow relationships, what `@distinctUnionOfSets` means for a
/// to-many, and which policy or manager handles a selector. The evaluator only combines
/// what the context returns.
///
/// ```swift
/// import StepwiseMapping
///
/// struct RowContext: ExpressionContext {
///     var row: [String: MappingValue]
///     func value(ofKeyPath path: [String], from root: ExpressionVariable) throws -> MappingValue {
///         guard root == .source || root == .evaluatedObject, path.count == 1 else {
///             throw MappingError(.failed("unsupported key path"))
///         }
///         return row[path[0]] ?? .null
///     }
///     func call(target: Expression, selector: String, arguments: [MappingValue]) throws -> MappingValue {
///         throw MappingError(.unknownFunction(selector))
///     }
/// }
/// ```
package protocol ExpressionContext {
    /// The value at `path` from `root`.
    ///
    /// - parameters:
    ///   - path: The key-path components after the variable, possibly empty (`$source`
    ///     alone is the source object itself). Components starting with `@` are collection
    ///     operators (`["countries", "@distinctUnionOfSets", "moods"]`, `["items", "@count"]`).
    ///   - root: The variable, ``ExpressionVariable/evaluatedObject`` for a bare key path in
    ///     a predicate (which the engine will usually treat as `$source`).
    /// - returns: A to-one is ``MappingValue/object(_:)`` (or ``MappingValue/null``), a
    ///   to-many ``MappingValue/objects(_:)``, a collection of values ``MappingValue/array(_:)``;
    ///   booleans are ``MappingValue/integer(_:)`` 0 or 1, as stored.
    func value(ofKeyPath path: [String], from root: ExpressionVariable) throws -> MappingValue

    /// The result of `FUNCTION(target, "selector", arguments…)`.
    ///
    /// - parameters:
    ///   - target: The target expression, not evaluated: usually `$manager` or `$entityPolicy`,
    ///     which name who handles the selector rather than a value.
    ///   - selector: The selector, such as `"destinationInstancesForEntityMappingNamed:sourceInstances:"`.
    ///     The parser guarantees one argument per colon.
    ///   - arguments: The arguments, evaluated in order.
    func call(target: Expression, selector: String, arguments: [MappingValue]) throws -> MappingValue
}
