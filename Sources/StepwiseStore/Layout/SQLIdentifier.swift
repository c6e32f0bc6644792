import Foundation

/// Quoting for SQL identifiers.
///
/// Table, column and index names come from model files, so every generated statement quotes
/// them: an entity named `Order` or an attribute named `group` must not be read as a keyword.
enum SQLIdentifier {
    /// `name` as a double-quoted SQL identifier, with embedded quotes doubled.
    static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The names quoted and separated by commas: `"A", "B"`.
    static func quoteList(_ names: [String]) -> String {
        names.map(quote).joined(separator: ", ")
    }
}
