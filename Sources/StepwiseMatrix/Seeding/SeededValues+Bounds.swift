import GRDB
import StepwiseModel

extension SeededValues {
    /// An attribute's `minValue` and `maxValue`: value bounds for numbers and dates, length
    /// bounds (in UTF-16 units, as `NSString` counts) for text.
    struct Bounds {
        var minimum: Double?
        var maximum: Double?
        var type: AttributeType

        init(_ attribute: Attribute) {
            minimum = attribute.minValue.flatMap { Double($0) }
            maximum = attribute.maxValue.flatMap { Double($0) }
            type = attribute.type
        }

        var isBounded: Bool { minimum != nil || maximum != nil }

        /// Whether an edge case respects the bounds (NaN never does when there are any).
        func admits(_ value: DatabaseValue, type: AttributeType) -> Bool {
            guard isBounded else { return true }
            switch value.storage {
            case .int64(let number):
                return (minimum.map { Double(number) >= $0 } ?? true) && (maximum.map { Double(number) <= $0 } ?? true)
            case .double(let number):
                return (minimum.map { number >= $0 } ?? true) && (maximum.map { number <= $0 } ?? true)
            case .string(let text):
                return (minimum.map { Double(text.utf16.count) >= $0 } ?? true)
                    && (maximum.map { Double(text.utf16.count) <= $0 } ?? true)
            case .null, .blob:
                return true
            }
        }

        /// The type's range.
        static func typeRange(_ type: AttributeType) -> (Int64, Int64) {
            switch type {
            case .integer16: (Int64(Int16.min), Int64(Int16.max))
            case .integer32: (Int64(Int32.min), Int64(Int32.max))
            default: (Int64.min, Int64.max)
            }
        }

        /// The integers allowed: the type's range within the bounds, narrowed to `preferred`
        /// when it overlaps (ordinary values stay small).
        func integerRange(_ type: AttributeType, default preferred: (Int64, Int64)?) -> (Int64, Int64) {
            let (typeLow, typeHigh) = Self.typeRange(type)
            var low = minimum.map { Self.clamp($0.rounded(.up), typeLow, typeHigh) } ?? typeLow
            var high = maximum.map { Self.clamp($0.rounded(.down), typeLow, typeHigh) } ?? typeHigh
            if let preferred {
                let narrowedLow = max(low, preferred.0)
                let narrowedHigh = min(high, preferred.1)
                if narrowedLow <= narrowedHigh {
                    (low, high) = (narrowedLow, narrowedHigh)
                } else {
                    // The bounds lie outside the preferred range: keep as wide a range at the bound.
                    let (end, overflow) = low.addingReportingOverflow(preferred.1 - preferred.0)
                    if !overflow && end < high { high = end }
                }
            }
            return (low, max(low, high))
        }

        /// The reals allowed: `preferred` within the bounds.
        func realRange(default preferred: (Double, Double)) -> (Double, Double) {
            var low = max(minimum ?? -.greatestFiniteMagnitude, preferred.0)
            var high = min(maximum ?? .greatestFiniteMagnitude, preferred.1)
            if low > high {
                low = minimum ?? preferred.0
                high = maximum ?? preferred.1
            }
            return (low, max(low, high))
        }

        /// Text padded or cut to the length bounds.
        func fitting(_ text: String) -> String {
            var text = text
            if let minimum, Double(text.utf16.count) < minimum {
                text += String(repeating: "x", count: Int(minimum) - text.utf16.count)
            }
            if let maximum, Double(text.utf16.count) > maximum {
                text = String(text.prefix(max(0, Int(maximum))))
                while Double(text.utf16.count) > maximum { text.removeLast() }
            }
            return text
        }

        /// `text` + `suffix`, or the suffix alone, within the length bounds; nil if even the
        /// suffix is too long.
        func fittingUnique(_ text: String, suffix: String) -> String? {
            for candidate in [text + suffix, suffix] {
                let fitted = fitting(candidate)
                if fitted.hasSuffix(suffix) { return fitted }
            }
            return nil
        }

        private static func clamp(_ value: Double, _ low: Int64, _ high: Int64) -> Int64 {
            if value <= Double(low) { return low }
            if value >= Double(high) { return high }
            return Int64(value)
        }
    }
}
