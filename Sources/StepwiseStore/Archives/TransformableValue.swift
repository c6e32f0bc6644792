import Foundation
import GRDB

/// The object a Transformable attribute holds, as a value: what a policy returns for such an
/// attribute, and what Stepwise archives for it.
///
/// Core Data ran the attribute's value transformer itself; so does Stepwise. Return the object,
/// not its bytes:
///
/// ```swift
/// return .transformable(["red", "green"])                 // an NSArray of NSStrings
/// return .transformable(.dictionary(["size": 3, "at": .date(.now)]))
/// ```
///
/// With the default transformer (none, `NSSecureUnarchiveFromData` or `NSKeyedUnarchiveFromData`)
/// the value is written as an `NSKeyedArchiver` archive by ``keyedArchive()``, which gives the
/// same bytes for the same value on every run and platform. A named transformer gets the value
/// instead (``ValueTransformerRegistry``).
///
/// Each case is the Foundation class it is archived as: `NSString`, `NSNumber` (integer, real,
/// Boolean), `NSData`, `NSDate`, `NSUUID`, `NSURL`, `NSNull`, `NSArray` and `NSDictionary`
/// with string keys.
public indirect enum TransformableValue: Sendable, Hashable {
    /// `NSNull` inside a collection. As a whole attribute value, nil: the column is NULL.
    case null
    case string(String)
    case integer(Int64)
    case double(Double)
    case bool(Bool)
    case data(Data)
    case date(Date)
    case uuid(UUID)
    case url(URL)
    case array([TransformableValue])
    /// An `NSDictionary` with string keys, archived in the order of its keys.
    case dictionary([String: TransformableValue])

    /// The value as an `NSKeyedArchiver` archive (binary property list), as Apple's
    /// `NSKeyedArchiver` writes it with secure coding: the same bytes for the same value.
    ///
    /// Why not `NSKeyedArchiver` itself: on Linux it wrote different bytes on each run for the
    /// same value. It serializes its dictionaries (the archive's top level and each object's
    /// keys) with `PropertyListSerialization`, which writes entries in Swift's hash order, and
    /// Swift seeds its hashes per process. `TransformableArchive` numbers the objects and
    /// orders every key itself.
    public func keyedArchive() -> Data {
        TransformableArchive.archive(self)
    }

    /// Reads a keyed archive of the classes above back into a value.
    ///
    /// - parameter archive: The bytes of an `NSKeyedArchiver` archive, as a Transformable
    ///   attribute with the default transformer stores them.
    /// - throws: An error naming what is wrong when the bytes are not such an archive or hold
    ///   another class.
    public init(keyedArchive archive: Data) throws {
        self = try TransformableArchive.value(ofArchive: archive)
    }

    /// The value as a Foundation object, for a `ValueTransformer` written in Swift or Objective-C.
    public var foundationObject: NSObject {
        switch self {
        case .null: NSNull()
        case .string(let text): NSString(string: text)
        case .integer(let number): NSNumber(value: number)
        case .double(let number): NSNumber(value: number)
        case .bool(let flag): NSNumber(value: flag)
        case .data(let data): NSData(data: data)
        case .date(let date): NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case .uuid(let uuid): NSUUID(uuidBytes: withUnsafeBytes(of: uuid.uuid) { Array($0) })
        case .url(let url): NSURL(string: url.absoluteString) ?? NSNull()
        case .array(let elements): NSArray(array: elements.map(\.foundationObject))
        case .dictionary(let entries):
            NSDictionary(
                objects: entries.values.map(\.foundationObject), forKeys: entries.keys.map { NSString(string: $0) })
        }
    }
}

extension TransformableValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: TransformableValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, TransformableValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// A value given to ``ObjectContext/insert(_:_:)`` or ``ObjectContext/update(_:_:)`` for a
/// Transformable attribute is archived with the attribute's transformer; elsewhere it is its
/// keyed archive.
extension TransformableValue: DatabaseValueConvertible {
    /// The value's keyed archive (``keyedArchive()``); NULL for ``null``.
    public var databaseValue: DatabaseValue {
        if case .null = self { return .null }
        return keyedArchive().databaseValue
    }

    /// The value a keyed archive holds; nil for anything else.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> TransformableValue? {
        guard case .blob(let data) = dbValue.storage else { return nil }
        return try? TransformableValue(keyedArchive: data)
    }
}
