import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

extension MappingValue {
    /// A Date as Core Data stores it: seconds since 2001-01-01 00:00 UTC.
    public static func date(_ date: Date) -> MappingValue {
        .double(date.timeIntervalSinceReferenceDate)
    }

    /// A Boolean as Core Data stores it: 1 or 0.
    public static func bool(_ value: Bool) -> MappingValue {
        .integer(value ? 1 : 0)
    }

    /// The value read from a column.
    public init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .blob(let data): self = .data(data)
        }
    }

    /// The value to store in a column. Object references store their primary key.
    public var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .double(let number): number.databaseValue
        case .string(let text): text.databaseValue
        case .data(let data): data.databaseValue
        case .object(let id): id.primaryKey.databaseValue
        case .objects(let ids): ids.first.map { $0.primaryKey.databaseValue } ?? .null
        case .array: .null
        }
    }

    /// The text of a string value.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number as a Double, for integer and double values.
    public var doubleValue: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    /// A Date value (seconds since 2001-01-01), for integer and double values.
    public var dateValue: Date? {
        doubleValue.map { Date(timeIntervalSinceReferenceDate: $0) }
    }

    /// The objects a relationship value holds: none, one or several.
    public var objectIDs: [ObjectID] {
        switch self {
        case .object(let id): [id]
        case .objects(let ids): ids
        default: []
        }
    }
}

/// Converts values into what a destination attribute stores, as Core Data would.
package enum ValueConversion {
    /// An attribute's default value (`defaultValueString`) as a column value, or NULL.
    ///
    /// Integer and Boolean defaults accept `YES`/`NO` as Xcode writes them (Apptentive's
    /// Integer 32 `pendingState` has the default "YES", which Core Data reads as 1).
    package static func defaultValue(of attribute: Attribute) -> DatabaseValue {
        guard let text = attribute.defaultValue else { return .null }
        switch attribute.type {
        case .integer16, .integer32, .integer64, .boolean:
            switch text.uppercased() {
            case "YES", "TRUE": return 1.databaseValue
            case "NO", "FALSE": return 0.databaseValue
            default: return Int64(text).map(\.databaseValue) ?? Double(text).map { Int64($0).databaseValue } ?? .null
            }
        case .double, .float, .decimal:
            return Double(text).map(\.databaseValue) ?? .null
        case .string, .uri:
            return text.databaseValue
        case .date:
            return Double(text).map(\.databaseValue) ?? .null
        case .uuid, .binary, .transformable, .objectID, .undefined:
            return .null
        }
    }

    /// Converts an evaluated value for a destination attribute of `type`: numbers to the
    /// column's kind, scalars to text for String attributes (the lossless widenings).
    ///
    /// A Double stored in a String attribute is written as ``text(of:)``, as the set-based path
    /// and the inferred widening write it.
    static func value(_ value: MappingValue, for attribute: Attribute) throws -> DatabaseValue {
        switch (value, attribute.type) {
        case (.null, _):
            return .null
        case (.integer(let number), .double), (.integer(let number), .float), (.integer(let number), .decimal),
            (.integer(let number), .date):
            return Double(number).databaseValue
        case (.double(let number), .integer16), (.double(let number), .integer32), (.double(let number), .integer64),
            (.double(let number), .boolean):
            guard number.rounded(.towardZero) == number, abs(number) < 9.2e18 else {
                throw MappingError(
                    .invalidValue("\(number) doesn't fit the \(attribute.type.rawValue) attribute '\(attribute.name)'"))
            }
            return Int64(number).databaseValue
        case (.integer(let number), .string):
            return String(number).databaseValue
        case (.double(let number), .string):
            return text(of: number).databaseValue
        case (.string(let text), .integer16), (.string(let text), .integer32), (.string(let text), .integer64):
            guard let number = Int64(text) else {
                throw MappingError(
                    .invalidValue(
                        "\"\(text)\" is not a number, for the \(attribute.type.rawValue) attribute '\(attribute.name)'")
                )
            }
            return number.databaseValue
        case (.object(let id), _):
            return id.primaryKey.databaseValue
        default:
            return value.databaseValue
        }
    }

    /// The text a Double is stored as in a String attribute: Swift's shortest spelling that
    /// reads back as the same number (`0.1`, `1.0`, `0.3333333333333333`, `1e+20`, `inf`).
    ///
    /// SQL paths call it too, as `stepwise_double_text(x)`
    /// (``SQLExpressionCompiler/registerFunctions(in:)``): SQLite's own `CAST(x AS TEXT)` keeps
    /// 15 digits, and its `printf('%!.17g')` misses the last digit of some large and tiny numbers
    /// (SQLite 3.40 writes 1.7976931348623157e+308 as `1.7976931348623155e+308`).
    static func text(of number: Double) -> String {
        number.description
    }

    /// SQL that writes `x` as text: a REAL as ``text(of:)``, anything else as `CAST(x AS TEXT)`.
    /// The inferred Double, Float and Decimal → String widenings use it.
    static func doubleTextSQL(_ x: String) -> String {
        "CASE WHEN typeof(\(x)) = 'real' THEN \(SQLExpressionCompiler.doubleTextFunction)(\(x)) ELSE CAST(\(x) AS TEXT) END"
    }

    /// SQL for the value an explicit mapping's `fragment` stores in a String attribute on the
    /// set-based path: a REAL becomes ``text(of:)``; anything else is stored as it is, as on the
    /// row-by-row path (the column's TEXT affinity spells integers itself). Without this the
    /// column's affinity would write a REAL with 15 digits, not always the same number.
    static func stringAttributeSQL(_ fragment: String) -> String {
        let function = SQLExpressionCompiler.doubleTextFunction
        // A column reference (`"s"."ZNAME"`, the common case) is tested in SQL first, so that
        // text, the usual content, doesn't pay for a call into Swift.
        if fragment.wholeMatch(of: /"[^"]*"\."(?:[^"]|"")*"/) != nil {
            return "CASE WHEN typeof(\(fragment)) = 'real' THEN \(function)(\(fragment)) ELSE \(fragment) END"
        }
        return "\(function)(\(fragment))"
    }
}
