import Foundation

/// Looks inside a binary property list (`bplist00`) for what swift-corelibs-foundation can't
/// read safely, before `PropertyListSerialization` is given it.
///
/// On Linux, `PropertyListSerialization.propertyList(from:options:format:)` crashes the process
/// (a segmentation fault while bridging `NSSet` to `Set<AnyHashable>`) on a binary property list
/// that holds a non-empty set, a type the binary format has (marker `0xC`) but that is not a
/// property-list type and that Core Data never writes. A damaged or hostile `Z_PLIST` must be
/// refused with an error instead. Found by `Scripts/fuzz metadata`.
///
/// The format (Apple's `CFBinaryPList.c`): the 8-byte header `bplist0x`, the objects, an offset
/// table of `numObjects` big-endian integers of `offsetIntSize` bytes each, and a 32-byte trailer:
/// 5 unused bytes, the sort version, `offsetIntSize`, `objectRefSize`, then `numObjects`,
/// `topObject` and `offsetTableOffset` as big-endian 64-bit integers. Each object starts with a
/// marker byte whose high 4 bits are its type.
enum BinaryPropertyListScan {
    /// Whether `data` is a binary property list with a set among its objects.
    ///
    /// Every object of the offset table is looked at, reachable or not. Anything that is not a
    /// well-formed offset table answers `false`: `PropertyListSerialization` rejects that itself.
    static func containsSet(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        let trailerSize = 32
        guard bytes.count >= 8 + trailerSize, bytes.starts(with: Array("bplist0".utf8)) else { return false }
        let trailer = bytes.count - trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        guard (1...8).contains(offsetSize),
            let count = integer(bytes, at: trailer + 8, size: 8),
            let table = integer(bytes, at: trailer + 24, size: 8),
            table <= trailer, count <= (trailer - table) / offsetSize
        else { return false }
        for index in 0..<count {
            guard let offset = integer(bytes, at: table + index * offsetSize, size: offsetSize),
                offset < trailer
            else { continue }
            if bytes[offset] & 0xF0 == 0xC0 { return true }
        }
        return false
    }

    /// The big-endian unsigned integer of `size` bytes at `start`, nil when it doesn't fit in
    /// an `Int` or runs past the end.
    private static func integer(_ bytes: [UInt8], at start: Int, size: Int) -> Int? {
        guard start >= 0, size <= bytes.count, start <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for byte in bytes[start..<(start + size)] {
            value = value << 8 | UInt64(byte)
        }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }
}
