import Foundation

/// Quoting for SQL identifiers.
///
/// Table, column and index names come from model files, so every generated statement quotes
/// them: an entity named `Order` or an attribute named `group` must not be read as a keyword.
enum SQLIdentifier {
    /// `name` as a double-quoted SQL identifier, with embedded quotes doubled.
    static func quote(_ name: String) -> String {
        // Almost no name holds a double quote: skip replacingOccurrences, whose scan and copy
        // took a third of the row-by-row step's CPU in a profile (it runs per row, per column).
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The names quoted and separated by commas: `"A", "B"`.
    static func quoteList(_ names: [String]) -> String {
        names.map(quote).joined(separator: ", ")
    }
}

extension String {
    /// The string as a double-quoted SQL identifier, its own double quotes doubled.
    ///
    /// Use it for every table, column and index name put in SQL: they come from model files.
    /// GRDB's `quotedDatabaseIdentifier` wraps a name in quotes without doubling the quotes
    /// inside it, so an entity named `X"; DROP TABLE "Z_METADATA"; --` would end the
    /// identifier early and the rest of its name would be read as SQL.
    /// Package-only: Stepwise adds no public API to the standard library's types.
    package var quotedSQLIdentifier: String { SQLIdentifier.quote(self) }
}
