import StepwiseModel

/// The declared SQL type of a column in a Core Data SQLite store.
///
/// Core Data declares types by name (`VARCHAR`, `TIMESTAMP`, …); SQLite gives them the
/// affinities INTEGER, REAL (FLOAT, TIMESTAMP), NUMERIC (DECIMAL), TEXT (VARCHAR) and BLOB.
package enum ColumnType: String, Sendable, Hashable, CaseIterable {
    case integer = "INTEGER"
    case float = "FLOAT"
    case timestamp = "TIMESTAMP"
    case decimal = "DECIMAL"
    case varchar = "VARCHAR"
    case blob = "BLOB"

    /// The type Core Data declares for an attribute type (corpus README §5).
    ///
    /// Verified by the corpus: Integer 16/32/64 and Boolean → INTEGER, Double → FLOAT,
    /// Date → TIMESTAMP (seconds since 2001-01-01), String → VARCHAR, Binary and
    /// Transformable → BLOB.
    ///
    /// Decimal → DECIMAL is in CartKit's stores (Core Data 1523). Not in the corpus, so
    /// unverified: Float → FLOAT, UUID → BLOB (16 raw bytes), URI → VARCHAR and ObjectID → VARCHAR.
    package init(_ attributeType: AttributeType) {
        switch attributeType {
        case .integer16, .integer32, .integer64, .boolean: self = .integer
        case .double, .float: self = .float
        case .date: self = .timestamp
        case .decimal: self = .decimal
        case .string, .uri, .objectID: self = .varchar
        case .binary, .transformable, .uuid: self = .blob
        // Undefined is valid on transient attributes only, which get no column; validation
        // refuses a stored one (`ModelProblem.undefinedTypeStored`) before any layout.
        case .undefined: self = .blob
        // A composite has no column: its leaves have (`ObjectModel.flatteningComposites()`).
        case .composite: self = .blob
        }
    }

    /// The position of this type's group in a table's column order.
    ///
    /// Core Data writes INTEGER columns first, then FLOAT and TIMESTAMP interleaved (sorted
    /// by name), then DECIMAL, then VARCHAR, then BLOB. DECIMAL is a group of its own: CartKit's
    /// `ZCDCART (…, ZCREATEDAT TIMESTAMP, ZUPDATEDAT TIMESTAMP, ZMINSUBTOTALAMOUNT DECIMAL, …)`
    /// (Core Data 1523, and its SwiftData store alike).
    var columnGroup: Int {
        switch self {
        case .integer: 0
        case .float, .timestamp: 1
        case .decimal: 2
        case .varchar: 3
        case .blob: 4
        }
    }

    /// How many column groups there are (``columnGroup``).
    static let columnGroupCount = 5
}
