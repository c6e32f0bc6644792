import Foundation

/// A reader of binary property lists (`bplist00`) that keeps what `PropertyListSerialization`
/// hides or mishandles on Linux, for reading keyed archives (``KeyedArchive``).
///
/// Why not `PropertyListSerialization`: on swift-corelibs-foundation the references between the
/// objects of a keyed archive come back as instances of the internal `_NSKeyedArchiverUID`,
/// whose number no public API reads, and a property list holding a set crashes the process
/// (see `BinaryPropertyListScan`). Keyed archives in mapping models and compiled models are outside
/// input, so this reader checks every offset and count, refuses cycles, and decodes each object once.
///
/// The format (Apple's `CFBinaryPList.c`): the 8-byte header `bplist0x`, the objects, an offset
/// table of `numObjects` big-endian integers of `offsetIntSize` bytes each, and a 32-byte
/// trailer: 5 unused bytes, the sort version, `offsetIntSize`, `objectRefSize`, then
/// `numObjects`, `topObject` and `offsetTableOffset` as big-endian 64-bit integers. Each object
/// starts with a marker byte whose high 4 bits are its type and low 4 bits its size (15: the
/// size follows as an integer object).
package enum BinaryPropertyList {
    /// One object of a binary property list.
    package indirect enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        case integer(Int64)
        case real(Double)
        /// Seconds since 2001-01-01, as Core Foundation stores dates.
        case date(Double)
        case data(Data)
        case string(String)
        /// A keyed archive's reference to another object of its `$objects` array.
        case uid(Int)
        case array([Value])
        case set([Value])
        /// Keys are strings in every keyed archive; other keys are refused.
        case dictionary([String: Value])
    }

    /// Why bytes are not a binary property list Stepwise can read.
    package struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
        package var reason: String
        package init(_ reason: String) { self.reason = reason }
        package var description: String { reason }
    }

    /// The trailer's table of where each object starts.
    package struct OffsetTable: Sendable {
        /// Each object's byte offset, in object-number order; `Int.max` where the table's entry
        /// doesn't fit in an `Int`.
        package var offsets: [Int]
        /// The size of an object reference inside arrays, sets and dictionaries.
        package var referenceSize: Int
        /// The number of the top object, as the trailer gives it (not checked against the count).
        package var top: Int
        /// Where the object area ends: the offset table's start.
        package var end: Int
        /// Where the 32-byte trailer starts.
        package var trailer: Int

        /// Reads the trailer and the offset table of `bytes`; nil when they are not well formed.
        /// Only the table is checked here: ``BinaryPropertyList/decode(_:)`` checks the rest.
        package init?(_ bytes: [UInt8]) {
            let trailerSize = 32
            guard bytes.count >= 8 + trailerSize, bytes.starts(with: Array("bplist0".utf8)) else { return nil }
            let trailer = bytes.count - trailerSize
            let offsetSize = Int(bytes[trailer + 6])
            guard (1...8).contains(offsetSize),
                let count = BinaryPropertyList.integer(bytes, at: trailer + 8, size: 8),
                let table = BinaryPropertyList.integer(bytes, at: trailer + 24, size: 8),
                table <= trailer, count <= (trailer - table) / offsetSize
            else { return nil }
            offsets = (0..<count).map {
                BinaryPropertyList.integer(bytes, at: table + $0 * offsetSize, size: offsetSize) ?? .max
            }
            referenceSize = Int(bytes[trailer + 7])
            top = BinaryPropertyList.integer(bytes, at: trailer + 16, size: 8) ?? .max
            end = table
            self.trailer = trailer
        }
    }

    /// The deepest nesting of containers read; anything deeper is refused.
    ///
    /// Sized for a 512 KB stack, what an app's secondary thread has on Apple platforms: the
    /// property lists Stepwise reads are shallow (a keyed archive nests 4 levels: the top
    /// dictionary, `$objects`, an object, its array of references; store metadata and
    /// `VersionInfo.plist` 3), so 32 leaves room for anything hand-written. The deepest list
    /// accepted, and the refusal one level deeper, fit in 256 KB in a debug build (not in
    /// 128 KB), half of 512 KB (`SmallStackReaderTests`, with `STEPWISE_SMALL_STACK_BYTES`).
    package static let maximumNesting = 32

    /// The property list's top object.
    package static func decode(_ data: Data) throws(FormatError) -> Value {
        let bytes = [UInt8](data)
        guard let table = OffsetTable(bytes), (1...8).contains(table.referenceSize), table.top < table.offsets.count
        else {
            throw FormatError("not a binary property list (no bplist0 header or a damaged trailer)")
        }
        var reader = Reader(bytes: bytes, table: table)
        return try reader.object(table.top)
    }

    /// The big-endian unsigned integer of `size` bytes at `start`, nil when it doesn't fit in
    /// an `Int` or runs past the end.
    package static func integer(_ bytes: [UInt8], at start: Int, size: Int) -> Int? {
        guard start >= 0, size >= 0, size <= bytes.count, start <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for byte in bytes[start..<(start + size)] {
            value = value << 8 | UInt64(byte)
        }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }

    /// Decodes objects by number. Each is decoded once (a list may refer to one object many
    /// times, which must not cost exponential time), and an object that contains itself is refused.
    private struct Reader {
        let bytes: [UInt8]
        let table: OffsetTable
        var decoded: [Int: Value] = [:]
        var inProgress: Set<Int> = []

        init(bytes: [UInt8], table: OffsetTable) {
            self.bytes = bytes
            self.table = table
        }

        mutating func object(_ number: Int) throws(FormatError) -> Value {
            if let value = decoded[number] { return value }
            guard number >= 0, number < table.offsets.count else {
                throw FormatError("a reference to object \(number) of \(table.offsets.count)")
            }
            guard inProgress.insert(number).inserted else {
                throw FormatError("object \(number) contains itself")
            }
            // Containers nest only as deep as the archive does; a bound keeps a hostile file
            // from exhausting the stack (``maximumNesting``).
            guard inProgress.count <= BinaryPropertyList.maximumNesting else {
                throw FormatError("objects nested deeper than \(BinaryPropertyList.maximumNesting) levels")
            }
            let value = try read(at: table.offsets[number], number: number)
            inProgress.remove(number)
            decoded[number] = value
            return value
        }

        private mutating func read(at offset: Int, number: Int) throws(FormatError) -> Value {
            guard offset >= 8, offset < table.end else {
                throw FormatError("object \(number) starts outside the object area")
            }
            let marker = bytes[offset]
            let low = Int(marker & 0x0F)
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x00: return .null
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: throw FormatError("object \(number) has the unknown marker \(hex(marker))")
                }
            case 0x1:
                guard low <= 3 else { throw FormatError("object \(number) is an integer wider than 8 bytes") }
                let size = 1 << low
                guard let raw = unsigned(at: offset + 1, size: size) else { throw truncated(number) }
                // 8-byte integers are signed; narrower ones are unsigned.
                return .integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw))
            case 0x2:
                guard low == 2 || low == 3 else { throw FormatError("object \(number) is a real of 2^\(low) bytes") }
                guard let raw = unsigned(at: offset + 1, size: 1 << low) else { throw truncated(number) }
                return .real(low == 2 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
            case 0x3:
                guard marker == 0x33, let raw = unsigned(at: offset + 1, size: 8) else {
                    throw FormatError("object \(number) is a malformed date")
                }
                return .date(Double(bitPattern: raw))
            case 0x4:
                let (count, start) = try length(low, at: offset, number: number)
                guard let end = span(start, count, 1) else { throw truncated(number) }
                return .data(Data(bytes[start..<end]))
            case 0x5:
                let (count, start) = try length(low, at: offset, number: number)
                guard let end = span(start, count, 1) else { throw truncated(number) }
                // ASCII strings; a byte above 0x7F is read as Latin-1 rather than refused.
                return .string(String(decoding: bytes[start..<end].map { UInt16($0) }, as: UTF16.self))
            case 0x6:
                let (count, start) = try length(low, at: offset, number: number)
                guard let end = span(start, count, 2) else { throw truncated(number) }
                var units: [UInt16] = []
                units.reserveCapacity(count)
                for index in stride(from: start, to: end, by: 2) {
                    units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                guard let value = BinaryPropertyList.integer(bytes, at: offset + 1, size: low + 1) else {
                    throw truncated(number)
                }
                return .uid(value)
            case 0xA, 0xC:
                let (count, start) = try length(low, at: offset, number: number)
                let elements = try references(count, at: start, number: number)
                var values: [Value] = []
                values.reserveCapacity(count)
                for element in elements { values.append(try object(element)) }
                return marker >> 4 == 0xA ? .array(values) : .set(values)
            case 0xD:
                let (count, start) = try length(low, at: offset, number: number)
                let references = try self.references(count * 2, at: start, number: number)
                var dictionary: [String: Value] = [:]
                for index in 0..<count {
                    guard case .string(let key) = try object(references[index]) else {
                        throw FormatError("object \(number) is a dictionary with a key that is not a string")
                    }
                    dictionary[key] = try object(references[count + index])
                }
                return .dictionary(dictionary)
            default:
                throw FormatError("object \(number) has the unknown marker \(hex(marker))")
            }
        }

        /// The element count of a data, string or container object and where its content starts.
        private func length(_ low: Int, at offset: Int, number: Int) throws(FormatError) -> (Int, Int) {
            guard low == 0xF else { return (low, offset + 1) }
            guard offset + 1 < table.end, bytes[offset + 1] >> 4 == 0x1 else {
                throw FormatError("object \(number) has a malformed length")
            }
            let size = 1 << Int(bytes[offset + 1] & 0x0F)
            guard size <= 8, let count = BinaryPropertyList.integer(bytes, at: offset + 2, size: size) else {
                throw FormatError("object \(number) has a malformed length")
            }
            return (count, offset + 2 + size)
        }

        private func references(_ count: Int, at start: Int, number: Int) throws(FormatError) -> [Int] {
            guard span(start, count, table.referenceSize) != nil else { throw truncated(number) }
            return (0..<count).map {
                BinaryPropertyList.integer(bytes, at: start + $0 * table.referenceSize, size: table.referenceSize)
                    ?? .max
            }
        }

        /// The end of `count` items of `width` bytes from `start`, nil when they don't fit in
        /// the object area.
        private func span(_ start: Int, _ count: Int, _ width: Int) -> Int? {
            guard count >= 0, start <= table.end, count <= (table.end - start) / width else { return nil }
            return start + count * width
        }

        private func unsigned(at start: Int, size: Int) -> UInt64? {
            guard start + size <= table.end else { return nil }
            return bytes[start..<(start + size)].reduce(0) { $0 << 8 | UInt64($1) }
        }

        private func truncated(_ number: Int) -> FormatError {
            FormatError("object \(number) runs past the end of the object area")
        }

        private func hex(_ byte: UInt8) -> String {
            "0x" + String(byte, radix: 16, uppercase: true)
        }
    }
}
