import Foundation
import StepwiseStore

/// A value expression in Core Data's syntax (`NSExpression`), as written in mapping models:
///
/// - `$source.name`, `$source.country.continent` (key paths through to-one relationships),
///   `$source.countries.@distinctUnionOfSets.moods` (through to-many ones);
/// - the variables `$source`, `$destination`, `$manager`, `$entityPolicy`, `$entityMapping`;
/// - literals: `"text"`, `42`, `-1.5`, `YES`/`NO`/`TRUE`/`FALSE`, `nil`;
/// - `FUNCTION($entityPolicy, "split:", $source.name)`, which calls a Swift function
///   registered under that selector, and
///   `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "ChefToChef", $source.chef)`.
///
/// In predicates, a bare key path (`name`, `chef.name`) is rooted at the evaluated object.
public indirect enum Expression: Sendable, Hashable, CustomStringConvertible {
    /// A variable followed by zero or more key-path components. Components that start with
    /// `@` are collection operators (`@distinctUnionOfSets`, `@count`).
    case keyPath(root: ExpressionVariable, path: [String])
    /// A literal value.
    case constant(MappingValue)
    /// `FUNCTION(target, "selector:", arguments…)`.
    case function(target: Expression, selector: String, arguments: [Expression])

    /// The variable alone, without a key path.
    public static func variable(_ variable: ExpressionVariable) -> Expression {
        .keyPath(root: variable, path: [])
    }

    /// `$source.<components>`.
    public static func source(_ path: String...) -> Expression {
        .keyPath(root: .source, path: path)
    }

    public var description: String {
        switch self {
        case .keyPath(let root, let path):
            return ([root.description] + path).joined(separator: ".")
        case .constant(let value):
            return value.literalDescription
        case .function(let target, let selector, let arguments):
            let rest = arguments.map(\.description)
            return
                "FUNCTION(\(([target.description, MappingValue.string(selector).literalDescription] + rest).joined(separator: ", ")))"
        }
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
    /// The object a predicate is evaluated on: a bare key path such as `name` in a filter.
    case evaluatedObject

    public var description: String {
        self == .evaluatedObject ? "SELF" : "$\(rawValue)"
    }
}

/// A value produced or consumed while migrating: SQLite's storage classes plus object references.
public enum MappingValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case double(Double)
    case string(String)
    case data(Data)
    /// One stored object (a to-one value).
    case object(ObjectID)
    /// Several stored objects (a to-many value), in order.
    case objects([ObjectID])

    /// The value as a literal in expression syntax.
    public var literalDescription: String {
        switch self {
        case .null: return "nil"
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value):
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
                of: "\"", with: "\\\"")
            return "\"\(escaped)\""
        case .data(let data): return "<\(data.count) bytes>"
        case .object(let id): return "\(id)"
        case .objects(let ids): return "{\(ids.map(\.description).joined(separator: ", "))}"
        }
    }
}
