import Foundation
import GRDB
import StepwiseModel

extension SeededValues {
    /// The value row `row` of `entity` takes from a list (``SeedingConstraints/values``):
    /// every value in turn from a place that depends on the attribute, so the first rows hold
    /// every value.
    func listed(_ list: [DatabaseValue], _ attribute: Attribute, entity: String, row: Int) -> DatabaseValue {
        guard !list.isEmpty else { return .null }
        let start = Int(SplitMix64.hash("\(seed) \(entity).\(attribute.name)") % UInt64(list.count))
        return list[(row + start) % list.count]
    }

    /// A value given as text (``SeedingConstraints/values``) as `attribute`'s column stores
    /// it, or nil when it doesn't read as the attribute's type: integers in range as `42`,
    /// reals as `2.5`, Booleans as `true`/`false`/`yes`/`no`/`1`/`0`, dates as ISO 8601 (with
    /// or without fractional seconds) or seconds since 2001-01-01, UUIDs in their usual form.
    /// Binary, transformable and undefined attributes read nothing.
    static func columnValue(_ text: String, for attribute: Attribute) -> DatabaseValue? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch attribute.type {
        case .string, .uri, .objectID:
            return text.databaseValue
        case .integer16, .integer32, .integer64:
            guard let number = Int64(trimmed) else { return nil }
            let range: ClosedRange<Int64> =
                switch attribute.type {
                case .integer16: Int64(Int16.min)...Int64(Int16.max)
                case .integer32: Int64(Int32.min)...Int64(Int32.max)
                default: Int64.min...Int64.max
                }
            return range.contains(number) ? number.databaseValue : nil
        case .double, .float, .decimal:
            return Double(trimmed).map { $0.databaseValue }
        case .boolean:
            switch trimmed.lowercased() {
            case "true", "yes", "1": return Int64(1).databaseValue
            case "false", "no", "0": return Int64(0).databaseValue
            default: return nil
            }
        case .date:
            if let seconds = Double(trimmed) { return seconds.databaseValue }
            let formatter = ISO8601DateFormatter()
            if let date = formatter.date(from: trimmed) { return date.timeIntervalSinceReferenceDate.databaseValue }
            formatter.formatOptions.insert(.withFractionalSeconds)
            return formatter.date(from: trimmed).map { $0.timeIntervalSinceReferenceDate.databaseValue }
        case .uuid:
            return UUID(uuidString: trimmed).map { bytes(of: $0).databaseValue }
        case .binary, .transformable, .undefined, .composite:
            return nil
        }
    }
}
