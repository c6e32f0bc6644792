import Foundation

/// A property-list value, kept exactly so that metadata Stepwise doesn't understand
/// (`NSPersistenceFrameworkVersion`, an app's `io.objc.Moody.CloudKitUserID`…) survives
/// a read and a write unchanged.
package enum PropertyListValue: Sendable, Hashable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case data(Data)
    case date(Date)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// Converts a value returned by `PropertyListSerialization`; nil for anything that is not
    /// a property-list type.
    ///
    /// Booleans need care: on Linux they come back as Swift `Bool`, on Apple platforms as an
    /// `NSNumber` whose `objCType` is `c`; integers and reals are other `NSNumber`s.
    package init?(foundationValue value: Any) {
        switch value {
        case let value as String:
            self = .string(value)
        case let value as Data:
            self = .data(value)
        case let value as Date:
            self = .date(value)
        case let value as [Any]:
            var items: [PropertyListValue] = []
            for item in value {
                guard let converted = PropertyListValue(foundationValue: item) else { return nil }
                items.append(converted)
            }
            self = .array(items)
        case let value as [String: Any]:
            var entries: [String: PropertyListValue] = [:]
            for (key, item) in value {
                guard let converted = PropertyListValue(foundationValue: item) else { return nil }
                entries[key] = converted
            }
            self = .dictionary(entries)
        default:
            guard let number = Self.number(value) else { return nil }
            self = number
        }
    }

    private static func number(_ value: Any) -> PropertyListValue? {
        // Test exact Swift types first: `1 as Any` also casts to Bool through NSNumber bridging.
        if type(of: value) == Bool.self, let value = value as? Bool { return .bool(value) }
        if type(of: value) == Int.self, let value = value as? Int { return .int(value) }
        if type(of: value) == Double.self, let value = value as? Double { return .double(value) }
        guard let number = value as? NSNumber else { return nil }
        switch String(cString: number.objCType) {
        case "c", "B": return .bool(number.boolValue)
        case "f", "d": return .double(number.doubleValue)
        default: return .int(number.intValue)
        }
    }

    /// The value as `PropertyListSerialization` expects it.
    package var foundationValue: Any {
        switch self {
        case .string(let value): value
        case .int(let value): value
        case .double(let value): value
        case .bool(let value): value
        case .data(let value): value
        case .date(let value): value
        case .array(let values): values.map(\.foundationValue)
        case .dictionary(let values): values.mapValues(\.foundationValue)
        }
    }

    /// The string, for `.string`.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, for `.int`.
    package var intValue: Int? {
        if case .int(let value) = self { return value }
        return nil
    }

    /// The bytes, for `.data`.
    package var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The elements, for `.array`.
    package var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, for `.dictionary`.
    package var dictionaryValue: [String: PropertyListValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }
}

extension PropertyListValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .int(value) }
    package init(floatLiteral value: Double) { self = .double(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
    package init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// Encodes as the property-list value it is, for `PropertyListEncoder`.
///
/// ``StoreMetadata/encodedPropertyList()`` writes `Z_PLIST` with `PropertyListEncoder` rather
/// than `PropertyListSerialization`, which writes a dictionary's entries in its iteration order:
/// on Linux that order changes with Swift's per-process hash seed, so the same metadata gave
/// different bytes from one run to the next. The encoder gives the same bytes for the same value.
extension PropertyListValue: Encodable {
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .data(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .dictionary(let values): try container.encode(values)
        }
    }
}
