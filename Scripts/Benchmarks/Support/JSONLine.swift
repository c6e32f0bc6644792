import Foundation

/// One line of JSON with its keys in the order they were added, as `Scripts/bench` prints
/// them (`JSONSerialization` would sort or shuffle them).
struct JSONLine {
    private var fields: [String] = []

    mutating func add(_ key: String, _ value: String?) {
        append(key, value.map(Self.quoted) ?? "null")
    }

    mutating func add(_ key: String, _ value: Int?) {
        append(key, value.map(String.init) ?? "null")
    }

    /// A number rounded to `digits` decimals; NaN and infinities become null.
    mutating func add(_ key: String, _ value: Double?, digits: Int = 4) {
        guard let value, value.isFinite else { return append(key, "null") }
        append(key, String(format: "%.\(digits)f", value))
    }

    mutating func add(_ key: String, _ value: Bool?) {
        append(key, value.map { $0 ? "true" : "false" } ?? "null")
    }

    mutating func add(_ key: String, _ values: [Double], digits: Int = 4) {
        append(key, "[" + values.map { String(format: "%.\(digits)f", $0) }.joined(separator: ",") + "]")
    }

    var text: String { "{" + fields.joined(separator: ", ") + "}" }

    private mutating func append(_ key: String, _ rendered: String) {
        fields.append("\(Self.quoted(key)): \(rendered)")
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
