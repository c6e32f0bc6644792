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
    package init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .blob(let data): self = .data(data)
        }
    }

    /// The value to store in a column. Object references store their primary key.
    package var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .double(let number): number.databaseValue
        case .string(let text): text.databaseValue
        case .data(let data): data.databaseValue
        case .object(let id): id.primaryKey.databaseValue
        case .objects(let ids): ids.first.map { $0.primaryKey.databaseValue } ?? .null
        case .array: .null
        case .transformable(let value): value.databaseValue
        // No column holds a composite: its leaves are split apart (`CompositeValue`).
        case .composite: .null
        }
    }

    /// The text of a string value; nil for any other. What a policy's function reads its
    /// arguments with: `arguments.first?.stringValue`.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number as a Double, for integer and double values; nil for any other.
    public var doubleValue: Double? {
        switch self {
        case .integer(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }

    /// A Date value (seconds since 2001-01-01), for integer and double values; nil for any
    /// other.
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
        case .uuid, .binary, .transformable, .objectID, .undefined, .composite:
            return .null
        }
    }

    /// Converts an evaluated value for a destination attribute, in the attribute's
    /// ``/StepwiseStore/AttributeValueForm``: numbers to the column's kind, scalars to text for
    /// String attributes (the lossless widenings), and the object of a Transformable attribute
    /// archived with its transformer. Only the row-by-row path calls this: the set-based path
    /// writes what its SQL computes, from source columns of a known type.
    ///
    /// - throws: ``MappingError/Kind/wrongValueForm(expected:given:)`` for a value of the wrong
    ///   form; the caller adds the entity mapping, the attribute and the row.
    static func value(
        _ value: MappingValue, for attribute: Attribute, transformers: ValueTransformerRegistry
    ) throws -> DatabaseValue {
        let form = AttributeValueForm(attribute)
        // For a Transformable, anything but bytes (already archived, checked below) is the
        // object itself, archived with the attribute's transformer.
        if attribute.type == .transformable, value.isTransformableObject {
            guard let object = try TransformableValue(value, form: form), object != .null else { return .null }
            do {
                return try transformers.data(for: object, transformerName: attribute.valueTransformerName)
                    .databaseValue
            } catch {
                throw MappingError(.invalidValue(error.reason))
            }
        }
        let given: DatabaseValue
        switch value {
        case .null:
            return .null
        case .integer(let number):
            given = number.databaseValue
        case .double(let number):
            // SQLite binds NaN as NULL (sqlite3_bind_double), so a NaN would be lost without a
            // word, or reported later as a required attribute with no value: name it here.
            if number.isNaN {
                throw MappingError(
                    .invalidValue(
                        "the value is NaN (not a number, as 0/0 or infinity minus infinity give), which SQLite stores as NULL; compute a number, or nil on purpose"
                    ))
            }
            if number.isInfinite, [.integer16, .integer32, .integer64, .boolean].contains(attribute.type) {
                throw MappingError(
                    .invalidValue(
                        "the value is \(number < 0 ? "minus " : "")infinity, which a \(attribute.type.rawValue) attribute can't hold; compute a finite number"
                    ))
            }
            given = number.databaseValue
        case .string(let text):
            given = text.databaseValue
        case .data(let data):
            given = data.databaseValue
        case .object(let id):
            throw MappingError(.wrongValueForm(expected: form, given: "the object \(id)"))
        case .objects:
            throw MappingError(.wrongValueForm(expected: form, given: "a list of objects"))
        case .array:
            throw MappingError(.wrongValueForm(expected: form, given: "a list"))
        case .transformable:
            throw MappingError(.wrongValueForm(expected: form, given: "a transformable value"))
        case .composite:
            throw MappingError(.wrongValueForm(expected: form, given: "a composite value"))
        }
        guard let stored = form.stored(given) else {
            throw MappingError(.wrongValueForm(expected: form, given: AttributeValueForm.describe(given)))
        }
        return stored
    }

    /// The text a Double is stored as in a String attribute: Swift's shortest spelling that
    /// reads back as the same number (`0.1`, `1.0`, `0.3333333333333333`, `1e+20`, `inf`).
    ///
    /// SQL paths call it too, as `stepwise_double_text(x)`
    /// (``SQLExpressionCompiler/registerFunctions(in:)``): SQLite's own `CAST(x AS TEXT)` keeps
    /// 15 digits, and its `printf('%!.17g')` misses the last digit of some large and tiny numbers
    /// (SQLite 3.40 writes 1.7976931348623157e+308 as `1.7976931348623155e+308`).
    static func text(of number: Double) -> String {
        AttributeValueForm.text(of: number)
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

extension MappingValue {
    /// Whether, for a Transformable attribute, the value is the object to archive rather than
    /// bytes already archived (``data(_:)``, checked as an archive) or nil.
    fileprivate var isTransformableObject: Bool {
        switch self {
        case .null, .data: false
        default: true
        }
    }
}

extension TransformableValue {
    /// The object a policy's value stands for; nil for nil. Objects of the store are refused:
    /// a Transformable holds values, not managed objects.
    fileprivate init?(_ value: MappingValue, form: AttributeValueForm) throws {
        switch value {
        case .null: return nil
        case .integer(let number): self = .integer(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .data(let data): self = .data(data)
        case .transformable(let object): self = object
        case .array(let elements):
            self = .array(try elements.map { try TransformableValue($0, form: form) ?? .null })
        // As Core Data's key-value coding hands a composite over: a dictionary of its elements.
        case .composite(let elements):
            self = .dictionary(try elements.mapValues { try TransformableValue($0, form: form) ?? .null })
        case .object, .objects:
            throw MappingError(.wrongValueForm(expected: form, given: "an object of the store"))
        }
    }
}
