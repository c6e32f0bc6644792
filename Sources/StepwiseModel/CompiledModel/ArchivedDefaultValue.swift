import Foundation

/// An attribute's archived `NSDefaultValue`, written as Xcode's `defaultValueString` spells it:
/// integers in decimal, Booleans `YES`/`NO`, reals as Swift prints them (`0.0`), decimals with
/// the digits they were archived with (`0.0` is mantissa 0, exponent -1), dates as seconds since
/// 2001 (what ``/StepwiseMapping`` reads a date default as), UUIDs uppercased. Binary and
/// Transformable defaults have no text: nil.
struct ArchivedDefaultValue {
    let access: ArchiveAccess
    /// The attribute, for errors.
    let what: String

    func text(_ value: BinaryPropertyList.Value?, type: AttributeType) throws(ModelError) -> String? {
        switch type {
        case .binary, .transformable, .objectID, .undefined, .composite: return nil
        default: break
        }
        switch try access.resolved(value) {
        case nil, .null?, .data?, .array?, .set?: return nil
        case .string(let text)?: return text
        case .bool(let flag)?: return type == .boolean ? (flag ? "YES" : "NO") : (flag ? "1" : "0")
        case .integer(let number)?: return type == .boolean ? (number != 0 ? "YES" : "NO") : String(number)
        case .real(let number)?: return Self.text(real: number, type: type)
        case .date(let seconds)?: return String(seconds)
        case .uid?: return nil
        case .dictionary(let fields)?:
            guard fields["$class"] != nil, let object = try access.object(value, "the default value of \(what)") else {
                throw invalid("a dictionary")
            }
            return try text(object)
        }
    }

    private static func text(real number: Double, type: AttributeType) -> String {
        if type.isInteger, number.rounded() == number, abs(number) < 1e18 { return String(Int64(number)) }
        // A Float's default is archived as 4 bytes: its own printing is the spelling it came from.
        return type == .float ? String(Float(number)) : String(number)
    }

    private func text(_ object: KeyedArchive.Object) throws(ModelError) -> String? {
        switch object.className {
        case "NSString", "NSMutableString":
            return try access.string(object.fields["NS.string"], "the default value of \(what)")
        case "NSDate":
            guard case .real(let seconds)? = try access.resolved(object.fields["NS.time"]) else {
                throw invalid("an NSDate without NS.time")
            }
            return String(seconds)
        case "NSUUID":
            guard case .data(let bytes)? = try access.resolved(object.fields["NS.uuidbytes"]), bytes.count == 16 else {
                throw invalid("an NSUUID without 16 bytes")
            }
            let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            return uuid.uuidString
        case "NSURL":
            return try access.string(object.fields["NS.relative"], "the default value of \(what)")
        case "NSDecimalNumberPlaceholder", "NSDecimalNumber":
            return try decimal(object)
        default:
            throw invalid(object.className)
        }
    }

    /// An archived `NSDecimalNumber`: `NS.mantissa` (16 bytes, 16-bit words, least significant
    /// first, little-endian when `NS.mantissa.bo` is 1) of which `NS.length` words count,
    /// `NS.exponent` and `NS.negative`.
    private func decimal(_ object: KeyedArchive.Object) throws(ModelError) -> String {
        let exponent = try access.integer(object.fields["NS.exponent"], "the exponent of \(what)") ?? 0
        let length = try access.integer(object.fields["NS.length"], "the length of \(what)") ?? 0
        let isNegative = try access.flag(object.fields["NS.negative"])
        let littleEndian = (try access.integer(object.fields["NS.mantissa.bo"], "the byte order of \(what)") ?? 1) == 1
        guard case .data(let mantissa)? = try access.resolved(object.fields["NS.mantissa"]),
            (0...8).contains(length), mantissa.count >= length * 2, (-128...127).contains(exponent)
        else {
            throw invalid("a malformed NSDecimalNumber")
        }
        let bytes = [UInt8](mantissa)
        var words = (0..<length).map { index in
            let (first, second) = (UInt16(bytes[2 * index]), UInt16(bytes[2 * index + 1]))
            return littleEndian ? first | second << 8 : first << 8 | second
        }
        var digits = Self.decimalDigits(&words)
        if exponent >= 0 {
            if digits != "0" { digits += String(repeating: "0", count: exponent) }
        } else {
            let fraction = -exponent
            if digits.count <= fraction { digits = String(repeating: "0", count: fraction - digits.count + 1) + digits }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -fraction))
        }
        return (isNegative ? "-" : "") + digits
    }

    /// The decimal digits of an unsigned integer of 16-bit words, least significant first.
    private static func decimalDigits(_ words: inout [UInt16]) -> String {
        var digits: [Character] = []
        while words.contains(where: { $0 != 0 }) {
            var remainder: UInt32 = 0
            for index in words.indices.reversed() {
                let current = remainder << 16 | UInt32(words[index])
                words[index] = UInt16(current / 10)
                remainder = current % 10
            }
            digits.append(Character(String(remainder)))
        }
        return digits.isEmpty ? "0" : String(digits.reversed())
    }

    private func invalid(_ value: String) -> ModelError {
        ModelError(
            path: access.origin, kind: .invalidValue(element: what, attribute: "NSDefaultValue", value: value))
    }
}
