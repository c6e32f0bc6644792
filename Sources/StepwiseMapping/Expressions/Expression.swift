import Foundation
import StepwiseStore

/// A value expression in Core Data's syntax (`NSExpression`), as written in mapping models:
///
/// - `$source.name`, `$source.country.continent` (key paths through to-one relationships),
///   `$source.countries.@distinctUnionOfSets.moods` (through to-many ones);
/// - the variables `$source`, `$destination`, `$manager`, `$entityPolicy`, `$entityMapping`;
/// - literals: `"text"`, `'text'`, `42`, `-1.5`, `YES`/`NO`/`TRUE`/`FALSE`, `nil`, and lists
///   `{"a", "b"}`;
/// - `FUNCTION($entityPolicy, "split:", $source.name)`, which calls a Swift function
///   registered under that selector, and
///   `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "ChefToChef", $source.chef)`.
///
/// A bare key path (`name`, `chef.name`) is rooted at the evaluated object
/// (``ExpressionVariable/evaluatedObject``), as in predicates.
///
/// Stepwise reads this syntax from mapping models; ``description`` writes it back, so that
/// parsing the description of a parsed expression gives the same expression.
public indirect enum Expression: Sendable, Hashable, CustomStringConvertible {
    /// A variable followed by zero or more key-path components. Components that start with
    /// `@` are collection operators (`@distinctUnionOfSets`, `@count`).
    case keyPath(root: ExpressionVariable, path: [String])
    /// A literal value.
    case constant(MappingValue)
    /// `FUNCTION(target, "selector:", arguments…)`.
    case function(target: Expression, selector: String, arguments: [Expression])
    /// A list `{a, b, …}` with at least one element that is not a literal, such as
    /// `{$source.first, $source.second}`.
    ///
    /// The parser writes a list of literals as ``constant(_:)`` with an ``MappingValue/array(_:)``
    /// value, so that the common `IN {"a", "b"}` needs no evaluation.
    case aggregate([Expression])

    /// The variable alone, without a key path.
    public static func variable(_ variable: ExpressionVariable) -> Expression {
        .keyPath(root: variable, path: [])
    }

    /// `$source.<components>`.
    public static func source(_ path: String...) -> Expression {
        .keyPath(root: .source, path: path)
    }

    /// A key path on the evaluated object: `name`, `chef.name` in a predicate.
    public static func evaluatedObject(_ path: String...) -> Expression {
        .keyPath(root: .evaluatedObject, path: path)
    }

    /// The expression in Core Data's syntax, parseable by `ExpressionParser`.
    public var description: String {
        switch self {
        case .keyPath(.evaluatedObject, let path):
            let components = path.map(Self.keyDescription)
            // A bare key path reads best (`name == "x"`); a reserved word can't start one.
            guard let first = path.first, ExpressionParser.isPlainIdentifier(first) else {
                return ([ExpressionVariable.evaluatedObject.description] + components).joined(separator: ".")
            }
            return components.joined(separator: ".")
        case .keyPath(let root, let path):
            return ([root.description] + path.map(Self.keyDescription)).joined(separator: ".")
        case .constant(let value):
            return value.literalDescription
        case .function(let target, let selector, let arguments):
            let parts =
                [target.description, MappingValue.string(selector).literalDescription] + arguments.map(\.description)
            return "FUNCTION(\(parts.joined(separator: ", ")))"
        case .aggregate(let elements):
            return "{\(elements.map(\.description).joined(separator: ", "))}"
        }
    }
}

extension Expression {
    /// One key-path component as the parser reads it after a dot: a key that doesn't start
    /// like a word (`1a`, a key only a `#` can introduce) keeps its `#`; keywords need none
    /// there, and collection operators (`@count`) are written as they are.
    static func keyDescription(_ key: String) -> String {
        guard let first = key.unicodeScalars.first, first != "@", !ExpressionLexer.isWordStart(first) else {
            return key
        }
        return "#" + key
    }
}

/// The variables an expression can start from.
public enum ExpressionVariable: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The source object being migrated.
    case source
    /// The destination object created for it.
    case destination
    /// The migration manager (for `destinationInstancesForEntityMappingNamed:sourceInstances:`).
    case manager
    /// The entity mapping's policy (for functions registered by a policy).
    case entityPolicy
    /// The entity mapping being run.
    case entityMapping
    /// The object a predicate is evaluated on: a bare key path such as `name` in a filter,
    /// or `SELF`.
    case evaluatedObject

    /// `$source`, `$manager`, …, and `SELF` for the evaluated object.
    public var description: String {
        self == .evaluatedObject ? "SELF" : "$\(rawValue)"
    }
}

/// A value produced or consumed while migrating: SQLite's storage classes plus object references,
/// lists and composites.
public indirect enum MappingValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case double(Double)
    case string(String)
    case data(Data)
    /// One stored object (a to-one value).
    case object(ObjectID)
    /// Several stored objects (a to-many value), in order.
    case objects([ObjectID])
    /// Several values: a literal list `{1, 2}`, or what a collection operator such as
    /// `@distinctUnionOfSets.name` yields.
    case array([MappingValue])
    /// The object of a Transformable attribute, which the step archives with the attribute's
    /// value transformer (``/StepwiseStore/TransformableValue``).
    case transformable(TransformableValue)
    /// The whole value of a composite attribute, its elements by name, a nested composite as a
    /// nested `composite`: what Core Data's key-value coding gives for the composite's own
    /// name (`valueForKey:` returns an `NSDictionary`), and takes when one is set.
    ///
    /// `$source.author` reads one, `$source.author.person` one element of it. An element left
    /// out is nil; a nil composite is ``null``.
    case composite([String: MappingValue])

    /// `YES` and `TRUE` in expression syntax: Core Data stores booleans as integers.
    public static let yes = MappingValue.integer(1)
    /// `NO` and `FALSE` in expression syntax.
    public static let no = MappingValue.integer(0)

    /// The value as a literal in expression syntax.
    ///
    /// Strings, numbers, `nil` and arrays of them can be parsed back. Data (`<3 bytes>`),
    /// objects (`Entity#12`) and composites (`[person: "Ada", year: 1843]`, elements in name
    /// order) have no literal syntax: their descriptions are for people.
    public var literalDescription: String {
        switch self {
        case .null: return "nil"
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return Self.quoted(value)
        case .data(let data): return "<\(data.count) bytes>"
        case .object(let id): return "\(id)"
        case .objects(let ids): return "{\(ids.map(\.description).joined(separator: ", "))}"
        case .array(let values): return "{\(values.map(\.literalDescription).joined(separator: ", "))}"
        case .transformable: return "<transformable value>"
        case .composite(let elements):
            let parts = elements.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.literalDescription)" }
            return "[\(parts.joined(separator: ", "))]"
        }
    }

    /// A double-quoted string literal with the escapes ``ExpressionParser`` reads.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension MappingValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
}
