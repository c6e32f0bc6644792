import StepwiseModel
import StepwiseStore

/// An attribute type change that keeps every value, which inference accepts.
///
/// Core Data documents no type change among those its lightweight migration infers, though it
/// runs some (Wire's model history turns a Boolean into an Integer 32 in a lightweight
/// migration). Stepwise accepts these changes, because each one maps every source value to
/// exactly one destination value that means the same:
///
/// | source | destination | SQL the engine runs on the source column `x` |
/// | --- | --- | --- |
/// | Integer 16 | Integer 32, Integer 64 | `x` (both are INTEGER columns) |
/// | Integer 32 | Integer 64 | `x` |
/// | Boolean | Integer 16, Integer 32, Integer 64 | `x`: 0 stays 0 and 1 stays 1 (all are INTEGER columns) |
/// | Integer 16, 32, 64 | Double | `CAST(x AS REAL)` |
/// | Float | Double | `x` (Core Data already stores a Float as a REAL) |
/// | Integer 16, 32, 64 | String | `CAST(x AS TEXT)`: `42` → `"42"` |
/// | Boolean | String | `CAST(x AS TEXT)`: `"1"` or `"0"`, as `NSNumber.stringValue` spells a Boolean |
/// | Double, Float, Decimal | String | the shortest of SQLite's 15-digit text and `printf('%!.17g', x)` that reads back as the same REAL: `0.5` → `"0.5"`, `0.1 + 0.2` → `"0.30000000000000004"` |
/// | Date | String | ISO 8601 in UTC with milliseconds, `strftime('%Y-%m-%dT%H:%M:%fZ', x + 978307200, 'unixepoch')`: `"2024-01-02T03:04:05.678Z"` |
/// | UUID | String | the uppercase hyphenated form of the 16 stored bytes, as `UUID.uuidString` spells it |
/// | URI | String | `x` (Core Data stores a URI as its text) |
///
/// NULL stays NULL in every case. Caveats, which the inference accepts knowingly:
/// - a Boolean column holds 0 or 1 when Core Data wrote it, but its INTEGER affinity lets
///   other code store any number there (`UPDATE … SET "ZFLAG" = 2`). Such a number is kept as
///   it is: an Integer 32 or 64 holds it exactly, an Integer 16 as it holds any number stored
///   in its column (Core Data reads it back as 16 bits). Mapping it to 1 would keep the
///   Boolean's meaning but lose the number; keeping it loses nothing, and lets the step keep
///   the column without rewriting a row (``keepsStoredValues``);
/// - an Integer 64 beyond ±2⁵³ becomes the nearest Double;
/// - a Date keeps millisecond precision as a String (the finest ISO 8601 `Date.ISO8601FormatStyle` writes);
/// - a Float's String is its stored REAL's (`0.1` as a Float reads `"0.10000000149011612"`).
///
/// Every other change (String → Integer 32, Double → Integer 64, Integer 64 → Integer 16,
/// Date → Double, Integer 16 → Boolean, anything to or from Binary or Transformable…) is a
/// ``InferenceProblem/Reason/lossyTypeChange(from:to:)``, whose fix names the widenings the
/// source type has (``widenings(from:)``). Integer → Boolean in particular stays refused:
/// which numbers mean true is the app's decision (Core Data reads any nonzero number as true,
/// but a count or a status code is not a flag), so it needs an explicit mapping.
///
/// The inferred ``PropertyMapping`` keeps the plain expression `$source.x` and records the
/// widening in its ``PropertyMapping/userInfo`` under ``userInfoKey``, spelled as
/// ``userInfoValue`` (`"integer16→integer32"`); ``PropertyMapping/widening`` reads it back.
public struct TypeWidening: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The source attribute's type.
    public var source: AttributeType
    /// The destination attribute's type.
    public var destination: AttributeType

    /// The widening from `source` to `destination`, or nil when the change can lose values
    /// (or when the types are the same).
    public init?(from source: AttributeType, to destination: AttributeType) {
        guard Self.isWidening(from: source, to: destination) else { return nil }
        self.source = source
        self.destination = destination
    }

    /// The `userInfo` key of an inferred ``PropertyMapping`` that widens its value.
    public static let userInfoKey = "stepwise.widening"

    /// The widening as its `userInfo` value: the types' case names joined by an arrow,
    /// `"integer16→integer32"`, `"boolean→string"`.
    public var userInfoValue: String {
        "\(Self.caseName(source))→\(Self.caseName(destination))"
    }

    /// Reads a ``userInfoValue`` back; nil when it isn't one.
    public init?(userInfoValue: String) {
        let parts = userInfoValue.split(separator: "→", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2,
            let source = AttributeType.allCases.first(where: { Self.caseName($0) == parts[0] }),
            let destination = AttributeType.allCases.first(where: { Self.caseName($0) == parts[1] })
        else { return nil }
        self.init(from: source, to: destination)
    }

    /// `Integer 16 → Integer 32`.
    public var description: String {
        "\(source.rawValue) → \(destination.rawValue)"
    }

    /// Every widening inference accepts, in the order of the table above.
    public static var all: [TypeWidening] {
        AttributeType.allCases.flatMap { widenings(from: $0) }
    }

    /// The widenings of one source type, in ``/StepwiseModel/AttributeType`` order: what an attribute of this
    /// type can become in an inferred step.
    public static func widenings(from source: AttributeType) -> [TypeWidening] {
        AttributeType.allCases.compactMap { TypeWidening(from: source, to: $0) }
    }

    /// Whether the destination keeps the stored value as it is: ``sqlExpression(converting:)``
    /// is the column itself (Integer 16 → 32 → 64, Boolean → an integer, Float → Double, URI →
    /// String), and both types are stored in columns of the same declared type. A step can
    /// then keep the column instead of rewriting its rows (the in-place path).
    public var keepsStoredValues: Bool {
        sqlExpression(converting: "x") == "x" && ColumnType(source) == ColumnType(destination)
    }

    /// The SQL expression that converts the source column `column` (already quoted, e.g.
    /// `"ZRATING"` or `t."ZRATING"`) to the destination type: the reference for the migration
    /// engine, tested against SQLite. Conversions of a Double, Float or Decimal to String call
    /// `stepwise_double_text`: run them on a connection with
    /// `SQLExpressionCompiler/registerFunctions(in:)`.
    public func sqlExpression(converting column: String) -> String {
        let x = column
        switch (source, destination) {
        case (.integer16, .double), (.integer32, .double), (.integer64, .double):
            return "CAST(\(x) AS REAL)"
        case (.integer16, .string), (.integer32, .string), (.integer64, .string), (.boolean, .string):
            return "CAST(\(x) AS TEXT)"
        case (.double, .string), (.float, .string), (.decimal, .string):
            // Not CAST(x AS TEXT): SQLite 3.40 keeps 15 significant digits, which don't always
            // read back as the same number. Swift spells it, as the row-by-row path does.
            return ValueConversion.doubleTextSQL(x)
        case (.date, .string):
            // TIMESTAMP columns hold seconds since 2001-01-01 00:00:00 UTC (NSDate's reference
            // date); 978307200 is that instant in Unix time.
            return "strftime('%Y-%m-%dT%H:%M:%fZ', \(x) + 978307200, 'unixepoch')"
        case (.uuid, .string):
            // Core Data stores a UUID as 16 raw bytes; hex() spells them in uppercase.
            let hex = "hex(\(x))"
            let groups = [(1, 8), (9, 4), (13, 4), (17, 4), (21, 12)].map { "substr(\(hex), \($0.0), \($0.1))" }
            return
                "CASE typeof(\(x)) WHEN 'blob' THEN \(groups.joined(separator: " || '-' || ")) ELSE CAST(\(x) AS TEXT) END"
        default:
            // Integer 16 → 32 → 64, Boolean → an integer, Float → Double and URI → String keep
            // the stored value (``keepsStoredValues``).
            return x
        }
    }

    private static func isWidening(from source: AttributeType, to destination: AttributeType) -> Bool {
        switch (source, destination) {
        case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64):
            return true
        case (.boolean, .integer16), (.boolean, .integer32), (.boolean, .integer64):
            return true
        case (.integer16, .double), (.integer32, .double), (.integer64, .double), (.float, .double):
            return true
        case (.integer16, .string), (.integer32, .string), (.integer64, .string), (.double, .string),
            (.float, .string), (.decimal, .string), (.boolean, .string), (.date, .string), (.uuid, .string),
            (.uri, .string):
            return true
        default:
            return false
        }
    }

    /// The Swift case name (`integer16`), which has no spaces, unlike the raw value.
    private static func caseName(_ type: AttributeType) -> String {
        String(describing: type)
    }
}

extension PropertyMapping {
    /// The type widening an inferred attribute mapping records in its ``userInfo``, if any.
    public var widening: TypeWidening? {
        userInfo[TypeWidening.userInfoKey].flatMap(TypeWidening.init(userInfoValue:))
    }
}
