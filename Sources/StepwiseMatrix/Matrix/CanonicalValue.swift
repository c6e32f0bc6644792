import Foundation
import GRDB

/// A column value in a form that compares exactly: the storage class and every byte.
///
/// Swift's `String ==` treats canonically equivalent text as equal (`"é"` precomposed equals
/// `"e\u{301}"`), but a store that changed one into the other changed the user's data. So
/// text is compared by its UTF-8 bytes, doubles by their bit patterns, and an integer never
/// equals a double.
struct CanonicalValue: Hashable, CustomStringConvertible {
    /// The exact form, ASCII only: `null`, `i:42`, `r:<bits>`, `t:<utf-8 hex>`, `b:<size>:<hash>`.
    let key: String
    /// A short readable form, for messages.
    let description: String

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null:
            key = "null"
            description = "nil"
        case .int64(let number):
            key = "i:\(number)"
            description = "\(number)"
        case .double(let number):
            key = "r:\(String(number.bitPattern, radix: 16))"
            description = "\(number)"
        case .string(let text):
            key = "t:" + text.utf8.map { Self.hex($0) }.joined()
            description = Self.quoted(text)
        case .blob(let data):
            key = "b:\(data.count):\(String(SplitMix64.hash(data), radix: 16))"
            description = "\(data.count) bytes"
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// The text quoted and shortened, with what can't be seen escaped: control and format
    /// characters (a bidi override), combining marks (so `"e\u{301}"` and `"é"` read
    /// differently) and whitespace other than a space.
    private static func quoted(_ text: String) -> String {
        let short = text.count > 40 ? String(text.prefix(40)) : text
        let escaped = short.unicodeScalars.map { scalar -> String in
            isVisible(scalar) ? String(scalar) : scalar.escaped(asASCII: true)
        }.joined()
        let rest = text.count > 40 ? "…(\(text.utf8.count) bytes)" : ""
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
    /// FNV-1a over bytes.
    static func hash(_ data: Data) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in data {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
