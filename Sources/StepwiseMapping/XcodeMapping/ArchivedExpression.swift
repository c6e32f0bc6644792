import Foundation
import StepwiseModel
import StepwiseStore

/// Decodes the `NSExpression` that Xcode archives (`NSKeyedArchiver`) into a mapping model's
/// `valueexpressiondata`, or into a compiled mapping model (`.cdm`) beside its other objects,
/// into Stepwise's ``Expression``.
///
/// The archive's objects are walked by class name, never instantiated:
///
/// | class | keys | Stepwise |
/// |---|---|---|
/// | `NSConstantValueExpression` | `NSConstantValue` (absent: nil) | ``Expression/constant(_:)`` |
/// | `NSVariableExpression` | `NSVariable` | `$source`, `$destination`, `$manager`, `$entityPolicy`, `$entityMapping` |
/// | `NSSelfExpression` | | `SELF` |
/// | `NSKeyPathExpression` | `NSOperand`, `NSSelectorName` `valueForKeyPath:`, `NSArguments` | ``Expression/keyPath(root:path:)`` |
/// | `NSKeyPathSpecifierExpression` | `NSKeyPath` (`a.b`, `rel.@distinctUnionOfSets.x`) | the path's components |
/// | `NSFunctionExpression` | `NSOperand`, `NSSelectorName`, `NSArguments` | ``Expression/function(target:selector:arguments:)`` |
/// | `NSAggregateExpression` | `NSCollection` | ``Expression/aggregate(_:)``, or a constant list |
///
/// A class or a form outside this table is a ``MappingError/Kind/unsupportedExpression(className:reason:)``,
/// never skipped: a value Stepwise can't run must not silently become nil.
package enum ArchivedExpression {
    /// The deepest nesting read, as ``ExpressionParser`` allows for written expressions.
    static let maximumDepth = ExpressionParser.maximumNesting

    /// The expression archived in `data` under the key `root`.
    package static func decode(_ data: Data) throws(MappingError) -> Expression {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data)
        } catch {
            throw MappingError(.unreadableArchive(error.reason))
        }
        guard let root = archive.top["root"] else {
            throw MappingError(.unreadableArchive("the archive has no root object"))
        }
        return try decode(root, in: archive)
    }

    /// The expression that object `uid` of `archive` is: one archived inside a larger archive,
    /// such as a compiled mapping model's value expressions (``CompiledMappingDocument``).
    package static func decode(_ uid: Int, in archive: KeyedArchive) throws(MappingError) -> Expression {
        try Decoder(archive: archive).expression(uid, depth: 0)
    }

    private struct Decoder {
        let archive: KeyedArchive

        func expression(_ uid: Int, depth: Int) throws(MappingError) -> Expression {
            guard depth < ArchivedExpression.maximumDepth else {
                throw MappingError(
                    .unreadableArchive("expressions nested deeper than \(ArchivedExpression.maximumDepth) levels"))
            }
            guard let object = try read({ () throws(BinaryPropertyList.FormatError) in try archive.object(uid) }) else {
                throw MappingError(.unreadableArchive("an expression is missing (a reference to $null)"))
            }
            switch object.className {
            case "NSConstantValueExpression":
                guard case .uid(let value)? = object.fields["NSConstantValue"] else { return .constant(.null) }
                return .constant(try constant(value, depth: depth + 1))
            case "NSVariableExpression":
                let name = try string(object, "NSVariable")
                guard let variable = ExpressionVariable(rawValue: name), variable != .evaluatedObject else {
                    throw unsupported(
                        object,
                        "the variable $\(name); mappings know $source, $destination, $manager, $entityPolicy and $entityMapping"
                    )
                }
                return .variable(variable)
            case "NSSelfExpression":
                return .variable(.evaluatedObject)
            case "NSKeyPathSpecifierExpression":
                return .keyPath(root: .evaluatedObject, path: try keyPath(object))
            case "NSKeyPathExpression", "NSFunctionExpression":
                return try function(object, depth: depth)
            case "NSAggregateExpression":
                guard case .uid(let collection)? = object.fields["NSCollection"] else {
                    throw unsupported(object, "an aggregate without NSCollection")
                }
                let elements = try list(collection).map { uid throws(MappingError) in
                    try expression(uid, depth: depth + 1)
                }
                // A list of literals is a constant list, as ExpressionParser reads `{1, 2}`.
                var constants: [MappingValue] = []
                for element in elements {
                    guard case .constant(let value) = element else { return .aggregate(elements) }
                    constants.append(value)
                }
                return .constant(.array(constants))
            default:
                throw unsupported(object, "not an expression Stepwise can run")
            }
        }

        /// `NSKeyPathExpression` (always `valueForKeyPath:` on an operand) and `NSFunctionExpression`.
        private func function(_ object: KeyedArchive.Object, depth: Int) throws(MappingError) -> Expression {
            let selector = try string(object, "NSSelectorName")
            guard case .uid(let operandUID)? = object.fields["NSOperand"] else {
                throw unsupported(object, "the function '\(selector)' has no operand")
            }
            let operand = try expression(operandUID, depth: depth + 1)
            var arguments: [Expression] = []
            if case .uid(let argumentsUID)? = object.fields["NSArguments"] {
                for uid in try list(argumentsUID) {
                    arguments.append(try expression(uid, depth: depth + 1))
                }
            }
            if selector == "valueForKeyPath:" {
                // `$source.a.b`: the operand's key path extended by the specifier's components.
                guard case .keyPath(let root, let path) = operand, arguments.count == 1,
                    case .keyPath(.evaluatedObject, let components) = arguments[0]
                else {
                    throw unsupported(object, "valueForKeyPath: on something other than a variable or key path")
                }
                return .keyPath(root: root, path: path + components)
            }
            // A built-in function (`uppercase:`, `sum:`) has a constant operand, the class that
            // implements it; Stepwise's FUNCTION calls $manager and $entityPolicy only.
            if case .constant = operand {
                throw unsupported(object, "the built-in function '\(selector)'")
            }
            return .function(target: operand, selector: selector, arguments: arguments)
        }

        private func keyPath(_ object: KeyedArchive.Object) throws(MappingError) -> [String] {
            let text = try string(object, "NSKeyPath")
            let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !text.isEmpty, !components.contains(where: \.isEmpty) else {
                throw unsupported(object, "the key path '\(text)'")
            }
            return components
        }

        /// A constant's value: inline strings and numbers, and archived `NSNull`, `NSDate`,
        /// `NSData`, `NSString` and arrays of these.
        private func constant(_ uid: Int, depth: Int) throws(MappingError) -> MappingValue {
            guard depth < ArchivedExpression.maximumDepth else {
                throw MappingError(
                    .unreadableArchive("values nested deeper than \(ArchivedExpression.maximumDepth) levels"))
            }
            guard let value = try archiveValue(uid) else {
                return .null
            }
            switch value {
            case .string(let text): return .string(text)
            case .integer(let number): return .integer(number)
            case .real(let number): return .double(number)
            case .bool(let flag): return flag ? .yes : .no
            case .data(let data): return .data(data)
            case .dictionary:
                guard let object = try read({ () throws(BinaryPropertyList.FormatError) in try archive.object(uid) })
                else { return .null }
                switch object.className {
                case "NSNull":
                    return .null
                case "NSDate":
                    guard case .real(let seconds)? = object.fields["NS.time"] else {
                        throw unsupported(object, "a date without NS.time")
                    }
                    // Core Data stores dates as seconds since 2001-01-01, as NSDate archives them.
                    return .double(seconds)
                case "NSString", "NSMutableString":
                    return .string(try string(object, "NS.string"))
                case "NSData", "NSMutableData":
                    guard case .data(let data)? = object.fields["NS.data"] else {
                        throw unsupported(object, "data without NS.data")
                    }
                    return .data(data)
                case "NSArray", "NSMutableArray":
                    var values: [MappingValue] = []
                    for element in try read({ () throws(BinaryPropertyList.FormatError) in
                        try archive.elements(of: object)
                    }) {
                        values.append(try constant(element, depth: depth + 1))
                    }
                    return .array(values)
                default:
                    throw unsupported(object, "a constant of a class Stepwise doesn't store")
                }
            default:
                throw MappingError(.unreadableArchive("object \(uid) is not a value a constant can hold"))
            }
        }

        /// The UIDs of an archived array or set.
        private func list(_ uid: Int) throws(MappingError) -> [Int] {
            guard let object = try read({ () throws(BinaryPropertyList.FormatError) in try archive.object(uid) }) else {
                return []
            }
            guard ["NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet"].contains(object.className)
            else {
                throw unsupported(object, "a list that is not an array")
            }
            return try read { () throws(BinaryPropertyList.FormatError) in try archive.elements(of: object) }
        }

        private func string(_ object: KeyedArchive.Object, _ key: String) throws(MappingError) -> String {
            guard case .uid(let uid)? = object.fields[key],
                case .string(let text)? = try archiveValue(uid)
            else {
                throw unsupported(object, "no \(key)")
            }
            return text
        }

        private func archiveValue(_ uid: Int) throws(MappingError) -> BinaryPropertyList.Value? {
            try read { () throws(BinaryPropertyList.FormatError) in try archive.value(uid) }
        }

        private func unsupported(_ object: KeyedArchive.Object, _ reason: String) -> MappingError {
            MappingError(.unsupportedExpression(className: object.className, reason: reason))
        }

        private func read<T>(_ body: () throws(BinaryPropertyList.FormatError) -> T) throws(MappingError) -> T {
            do {
                return try body()
            } catch {
                throw MappingError(.unreadableArchive(error.reason))
            }
        }
    }
}
