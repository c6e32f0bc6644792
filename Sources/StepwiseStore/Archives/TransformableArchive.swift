import Foundation
import StepwiseModel

/// The keyed archive of a ``TransformableValue``, written as Apple's `NSKeyedArchiver` writes, and
/// reads such an archive back: one archive format, one home.
///
/// The archive (see ``KeyedArchive``): `$archiver` "NSKeyedArchiver", `$version` 100000,
/// `$top` {`root`: UID 1} and `$objects`, where index 0 is `$null`. Objects are numbered as
/// `NSKeyedArchiver` numbers them: an object when it is first encoded, then what it encodes
/// (an array's elements, a dictionary's keys then its values), then its class description,
/// written once per class. Strings, numbers and data are stored as themselves; `NSDate` as
/// `NS.time`, `NSUUID` as `NS.uuidbytes`, `NSURL` as `NS.base` and `NS.relative`, `NSArray` as
/// `NS.objects`, `NSDictionary` as `NS.keys` and `NS.objects`.
///
/// Nothing here depends on hash order: a dictionary's entries are archived in the order of
/// their keys, and ``BinaryPropertyList/encode(_:)`` orders every property-list dictionary.
package enum TransformableArchive {
    /// The archive of `value`.
    package static func archive(_ value: TransformableValue) -> Data {
        var objects = Objects()
        let root = objects.encode(value)
        return BinaryPropertyList.encode(
            .dictionary([
                "$archiver": .string("NSKeyedArchiver"),
                "$objects": .array(objects.values),
                "$top": .dictionary(["root": .uid(root)]),
                "$version": .integer(100_000),
            ]))
    }

    /// The `$objects` array being built.
    private struct Objects {
        var values: [BinaryPropertyList.Value] = [.string("$null")]
        var classes: [String: Int] = [:]

        /// Encodes `value`, returns its UID.
        mutating func encode(_ value: TransformableValue) -> Int {
            switch value {
            case .string(let text): return append(.string(text))
            case .integer(let number): return append(.integer(number))
            case .double(let number): return append(.real(number))
            case .bool(let flag): return append(.bool(flag))
            case .data(let data): return append(.data(data))
            case .null:
                return object("NSNull") { _ in [:] }
            case .date(let date):
                return object("NSDate") { _ in ["NS.time": .real(date.timeIntervalSinceReferenceDate)] }
            case .uuid(let uuid):
                return object("NSUUID") { _ in ["NS.uuidbytes": .data(withUnsafeBytes(of: uuid.uuid) { Data($0) })] }
            case .url(let url):
                return object("NSURL") { objects in
                    ["NS.base": .uid(0), "NS.relative": .uid(objects.encode(.string(url.absoluteString)))]
                }
            case .array(let elements):
                return object("NSArray") { objects in
                    ["NS.objects": .array(elements.map { .uid(objects.encode($0)) })]
                }
            case .dictionary(let entries):
                let keys = entries.keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
                return object("NSDictionary") { objects in
                    let keyUIDs = keys.map { BinaryPropertyList.Value.uid(objects.encode(.string($0))) }
                    let valueUIDs = keys.map { BinaryPropertyList.Value.uid(objects.encode(entries[$0] ?? .null)) }
                    return ["NS.keys": .array(keyUIDs), "NS.objects": .array(valueUIDs)]
                }
            }
        }

        /// An archived object of `className`: its UID first, then what `fields` encodes, then
        /// its class.
        private mutating func object(
            _ className: String, _ fields: (inout Objects) -> [String: BinaryPropertyList.Value]
        ) -> Int {
            let uid = append(.null)
            var entries = fields(&self)
            entries["$class"] = .uid(classUID(className))
            values[uid] = .dictionary(entries)
            return uid
        }

        private mutating func classUID(_ name: String) -> Int {
            if let known = classes[name] { return known }
            let uid = append(
                .dictionary(["$classname": .string(name), "$classes": .array([.string(name), .string("NSObject")])]))
            classes[name] = uid
            return uid
        }

        private mutating func append(_ value: BinaryPropertyList.Value) -> Int {
            values.append(value)
            return values.count - 1
        }
    }

    // MARK: Reading

    /// The deepest nesting of arrays, dictionaries and URLs read from a value's archive;
    /// anything deeper is refused.
    ///
    /// A transformable value comes from the store's own rows, so this bounds what user data can
    /// make the reader recurse through. Sized for a 512 KB stack, what an app's secondary thread
    /// has on Apple platforms: at 256 a keyed archive nested 75 deep already crashed a debug
    /// build there (issue 44). 64 levels, and the refusal one deeper, fit in 256 KB in a debug
    /// build (not in 128 KB), half of 512 KB (`SmallStackReaderTests`, with
    /// `STEPWISE_SMALL_STACK_BYTES`); real values nest a handful of levels.
    package static let maximumNesting = 64

    /// The value an archive of the classes ``TransformableValue`` names holds.
    package static func value(ofArchive data: Data) throws(BinaryPropertyList.FormatError) -> TransformableValue {
        let archive = try KeyedArchive(data)
        guard let root = archive.top["root"] else { throw BinaryPropertyList.FormatError("the archive has no root") }
        return try value(root, in: archive, depth: 0)
    }

    private static func value(_ uid: Int, in archive: KeyedArchive, depth: Int) throws(BinaryPropertyList.FormatError)
        -> TransformableValue
    {
        guard depth < maximumNesting else {
            throw BinaryPropertyList.FormatError("objects nested deeper than \(maximumNesting) levels")
        }
        guard let plain = try archive.value(uid) else { return .null }
        switch plain {
        case .string(let text): return .string(text)
        case .integer(let number): return .integer(number)
        case .real(let number): return .double(number)
        case .bool(let flag): return .bool(flag)
        case .data(let data): return .data(data)
        case .dictionary: break
        default: throw BinaryPropertyList.FormatError("object \(uid) is not an archived object")
        }
        guard let object = try archive.object(uid) else { return .null }
        switch object.className {
        case "NSNull":
            return .null
        case "NSDate":
            guard case .real(let seconds)? = object.fields["NS.time"] else { break }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case "NSUUID":
            guard case .data(let bytes)? = object.fields["NS.uuidbytes"], bytes.count == 16 else { break }
            let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            return .uuid(uuid)
        case "NSURL":
            guard case .uid(let relative)? = object.fields["NS.relative"],
                case .string(let text) = try value(relative, in: archive, depth: depth + 1),
                let url = URL(string: text)
            else { break }
            return .url(url)
        case "NSArray", "NSMutableArray", "NSSet", "NSMutableSet", "NSOrderedSet", "NSMutableOrderedSet":
            var elements: [TransformableValue] = []
            for element in try archive.elements(of: object) {
                elements.append(try value(element, in: archive, depth: depth + 1))
            }
            return .array(elements)
        case "NSDictionary", "NSMutableDictionary":
            var entries: [String: TransformableValue] = [:]
            for (key, entry) in try archive.entries(of: object) {
                guard case .string(let name) = try value(key, in: archive, depth: depth + 1) else {
                    throw BinaryPropertyList.FormatError("\(object.className) has a key that is not a string")
                }
                entries[name] = try value(entry, in: archive, depth: depth + 1)
            }
            return .dictionary(entries)
        case "NSString", "NSMutableString":
            guard case .string(let text)? = object.fields["NS.string"] else { break }
            return .string(text)
        default:
            throw BinaryPropertyList.FormatError(
                "an archived \(object.className), which a TransformableValue can't hold")
        }
        throw BinaryPropertyList.FormatError("an archived \(object.className) without its usual keys")
    }
}
