import Foundation

/// Numbers, durations and sizes as the CLI prints them: the same whatever the locale, so
/// output is stable for scripts and tests.
enum TextFormat {
    /// `4016` → `4,016`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (value < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// `75` → `1:15`, `3725` → `1:02:05`; `--:--` for 100 hours or more, or no number.
    static func duration(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 360_000 else { return "--:--" }
        let total = Int(seconds.rounded(.up))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0
            ? String(format: "%d:%02d:%02d", hours, minutes, rest) : String(format: "%d:%02d", minutes, rest)
    }

    /// What a step left in its destination, in the words the JSON report uses: `objects`
    /// counts every object, `rows` those the entity mappings made from source rows (or kept,
    /// in place). Both are named when they differ, so the line and `--json` never seem to
    /// disagree: `211,000 objects (210,000 from source rows, 1,000 more made by policies)`.
    static func objects(_ objects: Int, rows: Int) -> String {
        let total = "\(grouped(objects)) objects"
        if objects == rows { return total }
        if objects > rows {
            let more = grouped(objects - rows)
            return "\(total) (\(grouped(rows)) from source rows, \(more) more made by policies or stages)"
        }
        return "\(total) (\(grouped(rows)) from source rows, \(grouped(rows - objects)) deleted since)"
    }

    /// `1_234_567` bytes → `1.2 MB`.
    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
