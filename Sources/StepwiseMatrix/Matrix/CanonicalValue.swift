import Foundation
import GRDB

/// A column value in a form that compares exactly: the storage class and every byte.
///
/// Swift's `String ==` treats canonically equivalent text as equal (`"é"` precomposed equals
/// `"e\u{301}"`), but a store that changed one into the other changed the user's data. So
/// text is compared by its UTF-8 bytes, doubles by their bit patterns, and an integer never
/// equals a double.
///
/// Short text is kept as its bytes in hex; text longer than ``exactTextLength`` bytes, like a
/// blob, as its size and a 64-bit hash of its bytes: a seeded store holds thousands of
/// multi-kilobyte values, and their hex would cost twice their size in memory, per store
/// compared.
struct CanonicalValue: Hashable, CustomStringConvertible {
    /// The exact form, ASCII only: `null`, `i:42`, `r:<bits>`, `t:<utf-8 hex>`,
    /// `t:<size>:<hash>` for longer text, `b:<size>:<hash>`.
    let key: String
    /// What ``description`` is made from, only when a message needs it: a store compared
    /// holds hundreds of thousands of values, and almost none is ever shown.
    private let preview: Preview

    private enum Preview {
        case null
        case integer(Int64)
        case real(Double)
        /// The first 40 characters, and whether the text goes on (`byteCount` in all).
        case text(String, byteCount: Int, isShortened: Bool)
        case blob(byteCount: Int)
    }

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null:
            key = "null"
            preview = .null
        case .int64(let number):
            key = "i:\(number)"
            preview = .integer(number)
        case .double(let number):
            key = "r:\(String(number.bitPattern, radix: 16))"
            preview = .real(number)
        case .string(let text):
            let bytes = text.utf8
            key =
                bytes.count <= Self.exactTextLength
                ? "t:" + Self.hex(bytes) : "t:\(bytes.count):\(String(SplitMix64.hash(bytes), radix: 16))"
            // The first 40 characters, found without counting the rest (a value may be kilobytes).
            let cut = text.index(text.startIndex, offsetBy: 40, limitedBy: text.endIndex) ?? text.endIndex
            preview = .text(String(text[..<cut]), byteCount: bytes.count, isShortened: cut != text.endIndex)
        case .blob(let data):
            key = "b:\(data.count):\(String(SplitMix64.hash(data), radix: 16))"
            preview = .blob(byteCount: data.count)
        }
    }

    /// A short readable form, for messages.
    var description: String {
        switch preview {
        case .null: "nil"
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)"
        case .text(let text, let byteCount, let isShortened): Self.quoted(text, byteCount, isShortened)
        case .blob(let byteCount): "\(byteCount) bytes"
        }
    }

    static func == (lhs: CanonicalValue, rhs: CanonicalValue) -> Bool {
        lhs.key == rhs.key
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }

    /// Whether two column values are the same storage class and bytes, compared in full:
    /// what two equal ``key``s say, without making them.
    static func areIdentical(_ first: DatabaseValue, _ second: DatabaseValue) -> Bool {
        switch (first.storage, second.storage) {
        case (.null, .null): true
        case (.int64(let a), .int64(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): a.utf8.elementsEqual(b.utf8)
        case (.blob(let a), .blob(let b)): a == b
        default: false
        }
    }

    /// The longest text kept byte for byte in ``key``.
    static let exactTextLength = 64

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The bytes in lowercase hex, two digits a byte.
    private static func hex(_ bytes: String.UTF8View) -> String {
        var digits: [UInt8] = []
        digits.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            digits.append(hexDigits[Int(byte >> 4)])
            digits.append(hexDigits[Int(byte & 15)])
        }
        return String(decoding: digits, as: UTF8.self)
    }

    /// The text quoted and shortened, with what can't be seen escaped: control and format
    /// characters (a bidi override), combining marks (so `"e\u{301}"` and `"é"` read
    /// differently) and whitespace other than a space.
    private static func quoted(_ short: String, _ byteCount: Int, _ isShortened: Bool) -> String {
        let escaped = short.unicodeScalars.map { scalar -> String in
            isVisible(scalar) ? String(scalar) : scalar.escaped(asASCII: true)
        }.joined()
        let rest = isShortened ? "…(\(byteCount) bytes)" : ""
        return "\"\(escaped)\"\(rest)"
    }

    private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == " " { return true }
        if scalar.properties.isWhitespace || scalar == "\"" || scalar == "\\" { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .control, .format, .surrogate, .privateUse, .unassigned,
            .lineSeparator, .paragraphSeparator:
            return false
        default:
            return true
        }
    }
}

extension SplitMix64 {
    /// FNV-1a over a blob's bytes, read in place.
    static func hash(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { fnv1a($0) }
    }

    /// FNV-1a over text's UTF-8 bytes, read in place when the string is stored contiguously.
    static func hash(_ text: String.UTF8View) -> UInt64 {
        text.withContiguousStorageIfAvailable { fnv1a($0) } ?? fnv1a(text)
    }

    private static func fnv1a<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
