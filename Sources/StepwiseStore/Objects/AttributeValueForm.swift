import Foundation
import GRDB
import StepwiseModel

/// The form an attribute's value takes in a Core Data store: what reading it gives, and what
/// writing it takes. Every value written through ``ObjectContext`` or returned by a migration
/// policy is checked against it, so that a value of the wrong form is an error, not a wrong column.
///
/// | Attribute type | Column holds | Also accepted on write, converted |
/// |---|---|---|
/// | Integer 16/32/64 | integer | a whole real (`2.0`), text of an integer (`"42"`) |
/// | Boolean | integer, 0 or 1 | a whole real |
/// | Double, Float, Decimal | real | an integer |
/// | Date | real: seconds since 2001-01-01 UTC | an integer |
/// | String | text | an integer or a real, as its shortest text (`0.1`) |
/// | URI | text: the URL's `absoluteString` | |
/// | Object ID | text: the object's URI (`x-coredata://…`) | |
/// | Binary | bytes | |
/// | UUID | 16 bytes | the UUID's text (`"E621E1F8-…"`) |
/// | Transformable, default transformer | bytes of an `NSKeyedArchiver` archive | |
/// | Transformable, named transformer | the bytes the transformer wrote | |
///
/// NULL fits every form; whether an attribute may be nil is checked when the step validates.
/// The object of a Transformable attribute (``TransformableValue``) is archived before this
/// check, with the attribute's transformer (``ValueTransformerRegistry``).
public enum AttributeValueForm: Sendable, Hashable, CustomStringConvertible {
    case integer
    case boolean
    case real
    case date
    case text
    case uri
    case objectIDURI
    case binary
    case uuid
    /// A Transformable attribute whose transformer stores an `NSKeyedArchiver` archive.
    case keyedArchive
    /// A Transformable attribute with a named transformer, which writes bytes of its own format.
    case transformed(transformer: String)

    /// The form of an attribute of `type` with the value transformer `transformerName`.
    ///
    /// - parameters:
    ///   - type: The attribute's type.
    ///   - transformerName: Its `valueTransformerName`, which matters for Transformable only.
    public init(_ type: AttributeType, transformerName: String? = nil) {
        switch type {
        case .integer16, .integer32, .integer64: self = .integer
        case .boolean: self = .boolean
        case .double, .float, .decimal: self = .real
        case .date: self = .date
        case .string, .undefined: self = .text
        // A stored composite is its flattened leaves (`ObjectModel.flatteningComposites()`).
        case .composite: self = .binary
        case .uri: self = .uri
        case .objectID: self = .objectIDURI
        case .binary: self = .binary
        case .uuid: self = .uuid
        case .transformable:
            if ValueTransformerRegistry.storesKeyedArchive(transformerName: transformerName) {
                self = .keyedArchive
            } else {
                self = .transformed(transformer: transformerName ?? "")
            }
        }
    }

    /// The form of `attribute`.
    public init(_ attribute: Attribute) {
        self.init(attribute.type, transformerName: attribute.valueTransformerName)
    }

    /// What a value of this form is, for error messages.
    public var description: String {
        switch self {
        case .integer: "an integer"
        case .boolean: "a Boolean (the integer 0 or 1)"
        case .real: "a number"
        case .date: "a date: seconds since 2001-01-01 as a real (MappingValue.date(_:), or a Date)"
        case .text: "text"
        case .uri: "a URL's text (absoluteString)"
        case .objectIDURI: "an object ID's URI text (x-coredata://…)"
        case .binary: "bytes (Data)"
        case .uuid: "a UUID (16 bytes, or its text)"
        case .keyedArchive:
            "the object (a TransformableValue, which Stepwise archives) or the bytes of an NSKeyedArchiver archive"
        case .transformed(let transformer):
            "the object (a TransformableValue, given to the transformer '\(transformer)') or the bytes it wrote"
        }
    }

    /// `value` as this form stores it, converted where the conversion is unambiguous (see the
    /// table above); nil when it has the wrong form.
    ///
    /// - parameter value: A column value.
    public func stored(_ value: DatabaseValue) -> DatabaseValue? {
        switch (self, value.storage) {
        case (_, .null):
            return .null
        case (.integer, .int64), (.boolean, .int64), (.real, .double), (.date, .double), (.text, .string),
            (.uri, .string), (.objectIDURI, .string), (.binary, .blob), (.transformed, .blob):
            return value
        case (.integer, .double(let number)), (.boolean, .double(let number)):
            guard number.rounded(.towardZero) == number, abs(number) < 9.2e18 else { return nil }
            return Int64(number).databaseValue
        case (.integer, .string(let text)):
            return Int64(text).map(\.databaseValue)
        case (.real, .int64(let number)), (.date, .int64(let number)):
            return Double(number).databaseValue
        case (.text, .int64(let number)):
            return String(number).databaseValue
        case (.text, .double(let number)):
            return Self.text(of: number).databaseValue
        case (.uuid, .blob(let bytes)):
            return bytes.count == 16 ? value : nil
        case (.uuid, .string(let text)):
            return UUID(uuidString: text).map { withUnsafeBytes(of: $0.uuid) { Data($0) }.databaseValue }
        case (.keyedArchive, .blob(let bytes)):
            return Self.isArchive(bytes) ? value : nil
        default:
            return nil
        }
    }

    /// The text a real is stored as in a String attribute: Swift's shortest spelling that reads
    /// back as the same number (`0.1`, `1.0`, `0.3333333333333333`, `1e+20`, `inf`).
    package static func text(of number: Double) -> String {
        number.description
    }

    /// Whether `bytes` are an archive Core Data's keyed-archive transformers read: a binary or
    /// XML property list, or an old `NSArchiver` typed stream. Only the header and the binary
    /// trailer are checked, so that copying archives row by row stays cheap.
    static func isArchive(_ bytes: Data) -> Bool {
        if bytes.starts(with: Array("bplist00".utf8)) {
            return BinaryPropertyList.hasWellFormedTrailer(bytes)
        }
        return bytes.starts(with: Array("<?xml".utf8)) || bytes.starts(with: [0x04, 0x0B] + Array("streamtyped".utf8))
    }

    /// What `value` is, for an error message: its kind, never its content.
    public static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: "nil"
        case .int64: "an integer"
        case .double: "a real"
        case .string: "text"
        case .blob(let bytes):
            bytes.starts(with: Array("bplist00".utf8))
                ? "\(bytes.count) bytes" : "\(bytes.count) bytes that are not an archive"
        }
    }
}

extension BinaryPropertyList {
    /// Whether the trailer and offset table of `data` are well formed, without decoding objects.
    static func hasWellFormedTrailer(_ data: Data) -> Bool {
        let trailerSize = 32
        guard data.count >= 8 + trailerSize else { return false }
        let trailer = [UInt8](data.suffix(trailerSize))
        let offsetSize = Int(trailer[6])
        let referenceSize = Int(trailer[7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let count = integer(trailer, at: 8, size: 8), let table = integer(trailer, at: 24, size: 8)
        else { return false }
        let end = data.count - trailerSize
        return table >= 8 && table <= end && count > 0 && count <= (end - table) / offsetSize
    }
}
