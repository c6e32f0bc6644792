import Foundation
import GRDB

/// A value written as an SQL literal, for the one place a value can't be bound: a column's
/// `DEFAULT` in `ALTER TABLE … ADD COLUMN`.
enum SQLLiteral {
    /// The literal for `value`, or nil when no literal reads back as exactly that value.
    ///
    /// SQLite parses the literal itself, so the text is only trusted once SQLite has read it
    /// back as the same type and the same value (`IS`: a REAL compares bit for bit, so a
    /// decimal rendering that rounds differently is refused). The caller then binds the value
    /// with an `UPDATE` instead.
    static func exact(_ value: DatabaseValue, in db: Database) throws -> String? {
        let text: String
        switch value.storage {
        case .null:
            return nil
        case .int64(let integer):
            text = String(integer)
        case .double(let double):
            // The shortest decimal that round-trips (Swift's description), e.g. "0.1", "1e-05".
            guard double.isFinite else { return nil }
            text = "\(double)"
        case .string(let string):
            guard !string.contains("\0") else { return nil }
            text = "'" + string.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data):
            text = "X'" + data.map { String(format: "%02X", $0) }.joined() + "'"
        }
        let readsBack = try Bool.fetchOne(
            db, sql: "SELECT typeof(\(text)) = typeof(?) AND (\(text)) IS ?", arguments: [value, value])
        return readsBack == true ? text : nil
    }
}
