import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// The edge-case values seeded stores spread across their rows, by attribute type.
///
/// Every value here is one that has broken a migration somewhere: text whose bytes and
/// characters disagree, numbers at the ends of their range, dates outside any calendar an
/// app was tested with, and blobs that don't fit in one SQLite page (4096 bytes in Core
/// Data's stores), so they live in overflow pages.
///
/// Two SQLite rules decide what a column holds afterwards, as they do for Core Data's own
/// stores: `NaN` is stored as NULL ("SQLite converts NaN to NULL", `sqlite3_bind_double`),
/// so it is only seeded into optional attributes; and `-0.0` reads back as `0.0`.
package enum SeededEdgeCases {
    /// Text: empty, combining marks and the same text precomposed (equal for Swift's `==`,
    /// different bytes for SQLite), emoji sequences, right-to-left scripts and a bidi override,
    /// SQL metacharacters, whitespace and control characters, several scripts at once, and a
    /// string of more than 4096 bytes.
    package static let strings: [String] = [
        "",
        "e\u{301}cole c\u{327}a\u{300} n\u{303}",
        "\u{E9}cole \u{E7}\u{E0} \u{F1}",
        "👩🏽‍💻 🇫🇷 🎉🧑‍🤝‍🧑",
        "مرحبا بالعالم",
        "שלום עולם 123",
        "abc \u{202E}fdp.exe",
        "O'Brien \"quoted\"; DROP TABLE \"Z_METADATA\"; --",
        "  padded\ttab\nnewline  ",
        "Ünïcödé 中文 日本語 한국어 Ελληνικά",
        String(repeating: "ab\u{E9}✓", count: 1_200),
    ]

    /// Integer 16, 32 or 64: the type's minimum and maximum, 0, -1 and 1.
    package static func integers(_ type: AttributeType) -> [Int64] {
        switch type {
        case .integer16: [Int64(Int16.min), Int64(Int16.max), 0, -1, 1]
        case .integer32: [Int64(Int32.min), Int64(Int32.max), 0, -1, 1]
        default: [Int64.min, Int64.max, 0, -1, 1]
        }
    }

    /// Double: NaN, ±infinity, ±0, the largest finite magnitudes, the smallest subnormal.
    package static let doubles: [Double] = [
        .nan, .infinity, -.infinity, 0, -0.0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        .leastNonzeroMagnitude, .pi,
    ]

    /// Float, widened to the Double a FLOAT column stores: NaN, ±infinity, the largest and
    /// smallest Float magnitudes.
    package static let floats: [Double] = [
        .nan, .infinity, -.infinity, 0, Double(Float.greatestFiniteMagnitude),
        -Double(Float.greatestFiniteMagnitude), Double(Float.leastNonzeroMagnitude), Double(Float(1.1)),
    ]

    /// Decimal, as the double a DECIMAL column stores: zero, negative, tiny, huge, and 0.1
    /// (not exact in binary).
    package static let decimals: [Double] = [0, -1, 0.1, 123_456_789.125, 1e20, -1e-10]

    /// Dates in seconds since 2001-01-01 (Core Data's reference date): `Date.distantPast`
    /// (year 1) and `Date.distantFuture` (year 4001), the reference date itself, the Unix
    /// epoch, a millisecond, and 2038-01-19 (the end of 32-bit Unix time).
    package static let dates: [Double] = [
        Date.distantPast.timeIntervalSinceReferenceDate, Date.distantFuture.timeIntervalSinceReferenceDate, 0,
        -978_307_200, 0.001, 1_168_216_447,
    ]

    /// Blob sizes: empty, one byte, one byte more than a page, and several pages.
    package static let blobSizes: [Int] = [0, 1, 4_097, 12_000]

    /// UUIDs: all zeros, all ones, and a fixed ordinary one.
    package static let uuids: [UUID] = [
        UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
        UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
        UUID(uuid: (0x12, 0x3E, 0x45, 0x67, 0xE8, 0x9B, 0x12, 0xD3, 0xA4, 0x56, 0x42, 0x66, 0x14, 0x17, 0x40, 0x00)),
    ]

    /// URIs: empty, with a query and fragment, percent-escaped, an internationalized host,
    /// and a Core Data object URI.
    package static let uris: [String] = [
        "",
        "https://example.com/a/b?q=1&r=%20#frag",
        "file:///tmp/with%20space/%C3%A9.txt",
        "https://例え.jp/ü",
        "x-coredata://6C1A0B48-9D86-4C54-A9F5-6C1F0B6E9B43/Recipe/p1",
    ]

    /// The size past which a value no longer fits in one page of Core Data's stores (4096
    /// bytes) and spills into overflow pages.
    static let pageSize = 4_096

    /// Whether an edge case is text or a blob larger than ``pageSize`` bytes: the cases that
    /// test overflow pages, and that make up nearly all of a store's size when they repeat.
    /// ``SeededValues`` seeds each of them once per attribute, not on every round.
    static func isLarge(_ value: DatabaseValue) -> Bool {
        switch value.storage {
        case .string(let text): text.utf8.count > pageSize
        case .blob(let bytes): bytes.count > pageSize
        case .null, .int64, .double: false
        }
    }

    /// The edge cases for one attribute type, as column values (before SQLite's rules).
    package static func values(for type: AttributeType) -> [DatabaseValue] {
        byType[type] ?? []
    }

    /// Every type's edge cases, computed once: a seeded store asks for them on every other row.
    private static let byType: [AttributeType: [DatabaseValue]] = Dictionary(
        uniqueKeysWithValues: AttributeType.allCases.map { ($0, computeValues(for: $0)) })

    private static func computeValues(for type: AttributeType) -> [DatabaseValue] {
        switch type {
        case .integer16, .integer32, .integer64: integers(type).map(\.databaseValue)
        case .boolean: [0.databaseValue, 1.databaseValue]
        case .double: doubles.map(\.databaseValue)
        case .float: floats.map(\.databaseValue)
        case .decimal: decimals.map(\.databaseValue)
        case .date: dates.map(\.databaseValue)
        case .string: strings.map(\.databaseValue)
        case .uri, .objectID: uris.map(\.databaseValue)
        case .uuid: uuids.map { SeededValues.bytes(of: $0).databaseValue }
        case .binary: blobSizes.map { SeededValues.blob(count: $0, fill: UInt8($0 % 251)).databaseValue }
        // A Transformable holds an archive (AttributeValueForm): here, of the same bytes.
        case .transformable:
            blobSizes.map { TransformableValue.data(SeededValues.blob(count: $0, fill: UInt8($0 % 251))).databaseValue }
        // Only transient attributes may be Undefined, and transient ones are never stored.
        case .undefined: []
        // A composite is seeded through its flattened leaves.
        case .composite: []
        }
    }
}
