import Foundation

extension BinaryPropertyList {
    /// Writes `value` as a binary property list (`bplist00`), the same bytes for the same value.
    ///
    /// Why not `PropertyListSerialization`: it writes a dictionary's entries in the order it
    /// iterates them, and on Linux that order follows Swift's per-process hash seed, so one
    /// value gave different bytes from one run to the next (see `PropertyListValue`'s
    /// `Encodable` conformance). Nor can it write a keyed archive's UIDs. Here a dictionary's
    /// entries are written in the order of their keys' UTF-16 code units.
    ///
    /// The layout is that of Apple's `CFBinaryPList.c`: objects numbered depth first from the
    /// top object (a dictionary's keys, then its values), equal scalars (strings, numbers, dates,
    /// data, UIDs) written once, references and offsets in the fewest bytes that hold them, and
    /// the 32-byte trailer described on ``BinaryPropertyList``.
    package static func encode(_ value: Value) -> Data {
        var writer = Writer()
        writer.flatten(value)
        return writer.bytes()
    }

    /// Numbers the objects of a property list, then writes them.
    private struct Writer {
        /// Every object to write, in number order.
        var objects: [Value] = []
        /// The numbers of the scalars written so far, so that equal scalars are written once.
        var scalars: [Value: Int] = [:]
        /// The numbers of each container's elements (a dictionary's keys, then its values).
        var references: [Int: [Int]] = [:]

        /// Numbers `value` and, depth first, what it contains; returns its number.
        @discardableResult
        mutating func flatten(_ value: Value) -> Int {
            switch value {
            case .array(let elements), .set(let elements):
                let number = append(value)
                references[number] = elements.map { flatten($0) }
                return number
            case .dictionary(let entries):
                let number = append(value)
                let keys = entries.keys.sorted { $0.utf16.lexicographicallyPrecedes($1.utf16) }
                let keyNumbers = keys.map { flatten(.string($0)) }
                let valueNumbers = keys.map { flatten(entries[$0] ?? .null) }
                references[number] = keyNumbers + valueNumbers
                return number
            default:
                if let known = scalars[value] { return known }
                let number = append(value)
                scalars[value] = number
                return number
            }
        }

        private mutating func append(_ value: Value) -> Int {
            objects.append(value)
            return objects.count - 1
        }

        func bytes() -> Data {
            let referenceSize = Self.byteCount(UInt64(objects.count))
            var body: [UInt8] = Array("bplist00".utf8)
            var offsets: [Int] = []
            offsets.reserveCapacity(objects.count)
            for (number, object) in objects.enumerated() {
                offsets.append(body.count)
                write(object, references: references[number] ?? [], referenceSize: referenceSize, to: &body)
            }
            let tableOffset = body.count
            let offsetSize = Self.byteCount(UInt64(tableOffset))
            for offset in offsets {
                Self.appendUnsigned(UInt64(offset), size: offsetSize, to: &body)
            }
            // The trailer: 5 unused bytes, the sort version, the two sizes, then the object
            // count, the top object's number and the offset table's position.
            body += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
            Self.appendUnsigned(UInt64(objects.count), size: 8, to: &body)
            Self.appendUnsigned(0, size: 8, to: &body)
            Self.appendUnsigned(UInt64(tableOffset), size: 8, to: &body)
            return Data(body)
        }

        private func write(_ value: Value, references: [Int], referenceSize: Int, to body: inout [UInt8]) {
            switch value {
            case .null:
                body.append(0x00)
            case .bool(let flag):
                body.append(flag ? 0x09 : 0x08)
            case .integer(let number):
                Self.appendInteger(number, to: &body)
            case .real(let number):
                body.append(0x23)
                Self.appendUnsigned(number.bitPattern, size: 8, to: &body)
            case .date(let seconds):
                body.append(0x33)
                Self.appendUnsigned(seconds.bitPattern, size: 8, to: &body)
            case .data(let data):
                Self.appendMarker(0x4, count: data.count, to: &body)
                body += data
            case .string(let text):
                if text.utf8.allSatisfy({ $0 < 0x80 }) {
                    Self.appendMarker(0x5, count: text.utf8.count, to: &body)
                    body += text.utf8
                } else {
                    Self.appendMarker(0x6, count: text.utf16.count, to: &body)
                    for unit in text.utf16 { body += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
                }
            case .uid(let number):
                let size = Self.byteCount(UInt64(number))
                body.append(0x80 | UInt8(size - 1))
                Self.appendUnsigned(UInt64(number), size: size, to: &body)
            case .array, .set, .dictionary:
                let marker: UInt8
                let count: Int
                switch value {
                case .array: (marker, count) = (0xA, references.count)
                case .set: (marker, count) = (0xC, references.count)
                default: (marker, count) = (0xD, references.count / 2)
                }
                Self.appendMarker(marker, count: count, to: &body)
                for reference in references {
                    Self.appendUnsigned(UInt64(reference), size: referenceSize, to: &body)
                }
            }
        }

        /// A marker byte with a count: in its low 4 bits below 15, else 15 and an integer object.
        private static func appendMarker(_ type: UInt8, count: Int, to body: inout [UInt8]) {
            if count < 15 {
                body.append(type << 4 | UInt8(count))
            } else {
                body.append(type << 4 | 0x0F)
                appendInteger(Int64(count), to: &body)
            }
        }

        /// An integer object: unsigned in 1, 2 or 4 bytes when it fits, else signed in 8.
        private static func appendInteger(_ number: Int64, to body: inout [UInt8]) {
            let size = number < 0 ? 8 : byteCount(UInt64(number))
            body.append(0x10 | UInt8(size.trailingZeroBitCount))
            appendUnsigned(UInt64(bitPattern: number), size: size, to: &body)
        }

        /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
        private static func byteCount(_ value: UInt64) -> Int {
            if value <= 0xFF { return 1 }
            if value <= 0xFFFF { return 2 }
            if value <= 0xFFFF_FFFF { return 4 }
            return 8
        }

        private static func appendUnsigned(_ value: UInt64, size: Int, to body: inout [UInt8]) {
            for index in stride(from: size - 1, through: 0, by: -1) {
                body.append(UInt8(truncatingIfNeeded: value >> (UInt64(index) * 8)))
            }
        }
    }
}
