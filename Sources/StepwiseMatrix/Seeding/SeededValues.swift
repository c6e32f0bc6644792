import Foundation
import GRDB
import StepwiseMapping
import StepwiseModel
import StepwiseStore

/// The value a seeded store gives each attribute of each row: a pure function of the seed,
/// the concrete entity, the attribute, the row and, for unique values, the primary key.
///
/// Rows are spread deterministically, so that any 20 rows hold most edge cases:
/// - even rows hold the type's edge cases (``SeededEdgeCases``) in turn, starting at a
///   place that depends on the attribute, so two attributes don't line up; the large ones
///   (text and blobs past a 4096-byte page) only in the first round, so every attribute
///   holds each of them once and a store of 1,000 rows is the size of 1,000 ordinary rows,
///   not of hundreds of copies of the largest values;
/// - odd rows hold ordinary random values;
/// - every eighth row (row 3, 11, 19…) is nil when the attribute is optional, and the next
///   one before it (row 7, 15…) holds the default value when the model gives one.
///
/// A value takes the attribute's `minValue` and `maxValue` into account (value bounds for
/// numbers and dates, length bounds for text); NaN is only given to optional attributes,
/// because SQLite stores it as NULL.
///
/// ```swift
/// let values = SeededValues(seed: 7)
/// let name = try values.value(of: attribute, entity: "Recipe", row: 3, primaryKey: 4)
/// ```
package struct SeededValues: Sendable {
    /// The seed every value derives from.
    package var seed: UInt64

    /// Values for `seed`.
    package init(seed: UInt64) {
        self.seed = seed
    }

    /// The value row `row` (counting from 0) of the concrete entity `entity` holds for
    /// `attribute`, as stored in its column: dates as seconds since 2001-01-01, Booleans as
    /// 0 or 1, UUIDs as 16 bytes.
    ///
    /// - parameters:
    ///   - isUnique: Whether the attribute must be unique across its table (it is part of a
    ///     uniqueness constraint): the value is then derived from `primaryKey`, which is
    ///     unique per table, and is never nil.
    /// - throws: ``UpgradeMatrixFailure`` when a unique value can't be made (a Boolean, or bounds
    ///   narrower than the number of rows).
    package func value(
        of attribute: Attribute, entity: String, row: Int, primaryKey: Int64, isUnique: Bool = false
    ) throws -> DatabaseValue {
        try AttributeValues(attribute, entity: entity, values: self).value(
            row: row, primaryKey: primaryKey, isUnique: isUnique)
    }

    /// The values of one attribute of one concrete entity, row by row: what
    /// ``SeededValues/value(of:entity:row:primaryKey:isUnique:)`` gives, with what doesn't
    /// depend on the row (bounds, edge cases, the label's hash) worked out once, for a writer
    /// seeding many rows.
    struct AttributeValues {
        let attribute: Attribute
        let entity: String
        let values: SeededValues
        let bounds: Bounds
        /// The hash of `Entity.attribute`, which every row's draws start from.
        let labelHash: UInt64
        /// The type's edge cases the attribute admits, and the one even row 0 holds.
        let edges: [DatabaseValue]
        let edgeStart: Int
        let defaultValue: DatabaseValue

        init(_ attribute: Attribute, entity: String, values: SeededValues) {
            self.attribute = attribute
            self.entity = entity
            self.values = values
            bounds = Bounds(attribute)
            labelHash = SplitMix64.hash("\(entity).\(attribute.name)")
            let bounds = bounds
            edges = SeededEdgeCases.values(for: attribute.type).filter {
                bounds.admits($0, type: attribute.type) && (attribute.isOptional || !SeededValues.isNaN($0))
            }
            edgeStart = edges.isEmpty ? 0 : Int(labelHash % UInt64(edges.count))
            defaultValue = attribute.defaultValue == nil ? .null : SeededValues.defaultValue(of: attribute)
        }

        func value(row: Int, primaryKey: Int64, isUnique: Bool) throws -> DatabaseValue {
            if isUnique {
                return try values.uniqueValue(of: attribute, entity: entity, primaryKey: primaryKey, bounds: bounds)
            }
            if attribute.isOptional && row % 8 == 3 { return .null }
            if !defaultValue.isNull && row % 8 == 7 { return defaultValue }
            var random = SplitMix64(seed: values.seed, labelHash: labelHash, row)
            if row % 2 == 0, !edges.isEmpty {
                let turn = row / 2
                let edge = edges[(turn + edgeStart) % edges.count]
                if turn < edges.count || !SeededEdgeCases.isLarge(edge) { return edge }
            }
            return values.ordinaryValue(of: attribute, entity: entity, bounds: bounds, random: &random)
        }
    }

    /// An attribute's default value (`defaultValueString`) as a column value, or NULL, read
    /// as Core Data reads it: `YES`/`NO` for numbers, seconds since 2001 for dates.
    package static func defaultValue(of attribute: Attribute) -> DatabaseValue {
        // One reading of a default for the whole package: the step's, which writes it.
        ValueConversion.defaultValue(of: attribute)
    }

    // MARK: - Ordinary values

    private static let words = [
        "alpha", "bravo", "café", "delta", "écho", "foxtrot", "golf", "hôtel", "india", "juliett", "kilo", "lima",
    ]

    fileprivate func ordinaryValue(
        of attribute: Attribute, entity: String, bounds: Bounds, random: inout SplitMix64
    ) -> DatabaseValue {
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            let spread: Int64 =
                attribute.type == .integer16 ? 1_000 : attribute.type == .integer32 ? 1_000_000 : 1 << 40
            let (low, high) = bounds.integerRange(attribute.type, default: (-spread, spread))
            return (low + Int64(random.next(below: Int(min(high - low, Int64(Int.max - 1))) + 1))).databaseValue
        case .boolean:
            return Int64(random.next(below: 2)).databaseValue
        case .double, .float, .decimal, .date:
            let spread = attribute.type == .date ? 3e9 : 1e6
            let (low, high) = bounds.realRange(default: (-spread, spread))
            var number = low + (high - low) * random.nextUnitDouble()
            switch attribute.type {
            case .float: number = Double(Float(number))
            case .decimal: number = (number * 100).rounded() / 100
            case .date: number = (number * 1000).rounded() / 1000
            default: break
            }
            return min(max(number, low), high).databaseValue
        case .string:
            let text = "\(Self.words[random.next(below: Self.words.count)]) \(random.next(below: 10_000))"
            return bounds.fitting(text).databaseValue
        case .uri, .objectID:
            let text =
                "https://example.com/\(Self.words[random.next(below: Self.words.count)])/\(random.next(below: 10_000))"
            return bounds.fitting(text).databaseValue
        case .uuid:
            return Self.bytes(of: Self.uuid(random.next(), random.next())).databaseValue
        case .binary, .transformable:
            let count = 1 + random.next(below: 64)
            let bytes = Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            // A Transformable holds an archive (AttributeValueForm): here, of random bytes.
            return attribute.type == .transformable ? TransformableValue.data(bytes).databaseValue : bytes.databaseValue
        case .undefined, .composite:
            // Only transient attributes may be Undefined (validation), and they aren't stored; a
            // composite is stored as its flattened leaves.
            return .null
        }
    }

    // MARK: - Unique values

    fileprivate func uniqueValue(
        of attribute: Attribute, entity: String, primaryKey key: Int64, bounds: Bounds
    ) throws -> DatabaseValue {
        func unsatisfiable(_ reason: String) -> UpgradeMatrixFailure {
            UpgradeMatrixFailure(.unsatisfiable(entity: entity, property: attribute.name, reason: reason))
        }
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            let (low, high) = bounds.integerRange(attribute.type, default: nil)
            let value: Int64
            if bounds.isBounded {
                value = low + key - 1
            } else {
                // The type's extremes first, then 0, 1, -1, 2, -2…
                let offset = key - 3
                value = key == 1 ? high : key == 2 ? low : (offset % 2 == 0 ? offset / 2 : -(offset + 1) / 2)
            }
            guard value >= low, value <= high else {
                throw unsatisfiable("\(key) unique values don't fit between \(low) and \(high)")
            }
            return value.databaseValue
        case .boolean:
            guard key <= 2 else {
                if attribute.isOptional { return .null }
                throw unsatisfiable("a required Boolean takes only 2 unique values, and row \(key) needs a third")
            }
            return (key - 1).databaseValue
        case .double, .float, .decimal, .date:
            if bounds.isBounded {
                let (low, high) = bounds.realRange(default: (0, 0))
                let value = low + Double(key - 1)
                guard value <= high else { throw unsatisfiable("\(key) unique values don't fit up to \(high)") }
                return value.databaseValue
            }
            let extremes: (Double, Double) =
                switch attribute.type {
                case .date: (SeededEdgeCases.dates[0], SeededEdgeCases.dates[1])
                case .decimal: (-1e20, 1e20)
                default: (-.infinity, .infinity)
                }
            if key == 1 { return extremes.0.databaseValue }
            if key == 2 { return extremes.1.databaseValue }
            return (Double(key) * (attribute.type == .date ? 86_400 : 1) + 0.5).databaseValue
        case .string, .uri, .objectID:
            let edges = attribute.type == .string ? SeededEdgeCases.strings : SeededEdgeCases.uris
            let suffix = attribute.type == .string ? " #\(key)" : "#\(key)"
            let text = bounds.fittingUnique(edges[Int(key % Int64(edges.count))], suffix: suffix)
            guard let text else { throw unsatisfiable("no unique text fits its length bounds") }
            return text.databaseValue
        case .uuid:
            var random = SplitMix64(seed: seed, "\(entity).\(attribute.name)", Int(key))
            return Self.bytes(of: Self.uuid(UInt64(bitPattern: key), random.next())).databaseValue
        case .binary, .transformable:
            var bytes = withUnsafeBytes(of: key.bigEndian) { Data($0) }
            if key == 1 { return Data().databaseValue }
            if key == 2 { bytes.append(Self.blob(count: 4_097, fill: 7)) }
            return attribute.type == .transformable ? TransformableValue.data(bytes).databaseValue : bytes.databaseValue
        case .undefined, .composite:
            // Only transient attributes may be Undefined (validation), and they aren't stored; a
            // composite is stored as its flattened leaves.
            return .null
        }
    }

    // MARK: - Helpers

    /// `count` bytes of a deterministic pattern starting at `fill`.
    package static func blob(count: Int, fill: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: Int(fill) &+ $0 &* 31) })
    }

    /// A UUID's 16 bytes, as Core Data stores a UUID attribute.
    package static func bytes(of uuid: UUID) -> Data {
        withUnsafeBytes(of: uuid.uuid) { Data($0) }
    }

    /// A UUID made of two 64-bit numbers.
    static func uuid(_ high: UInt64, _ low: UInt64) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[8 + index] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    static func isNaN(_ value: DatabaseValue) -> Bool {
        if case .double(let number) = value.storage { return number.isNaN }
        return false
    }
}
