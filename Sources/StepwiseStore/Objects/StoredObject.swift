import Foundation
import GRDB

/// One object read from a store: its id and its attribute and to-one values by property name.
///
/// Values are the raw SQLite values; the typed accessors convert them the way Core Data
/// stores them (dates as seconds since 2001-01-01, booleans as 0/1).
public struct StoredObject: Sendable, Hashable {
    public var id: ObjectID
    /// Attribute values and to-one foreign keys, by property name.
    ///
    /// A to-one's value is the raw `Z_PK` of the related row, an integer, not an object: it
    /// doesn't name the row's entity (subentities share their root's table). Follow a
    /// relationship with ``ObjectContext/related(_:_:)``, which gives ``ObjectID``s.
    public var values: [String: DatabaseValue]
    /// The row's optimistic-locking counter, `Z_OPT`.
    public var version: Int64

    public init(id: ObjectID, values: [String: DatabaseValue], version: Int64) {
        self.id = id
        self.values = values
        self.version = version
    }

    public subscript(_ property: String) -> DatabaseValue {
        values[property] ?? .null
    }

    public func string(_ property: String) -> String? { String.fromDatabaseValue(self[property]) }
    public func int(_ property: String) -> Int64? { Int64.fromDatabaseValue(self[property]) }
    public func double(_ property: String) -> Double? { Double.fromDatabaseValue(self[property]) }
    public func bool(_ property: String) -> Bool? { int(property).map { $0 != 0 } }
    public func data(_ property: String) -> Data? { Data.fromDatabaseValue(self[property]) }

    /// A Date attribute, stored by Core Data as seconds since 2001-01-01 00:00 UTC.
    public func date(_ property: String) -> Date? {
        double(property).map { Date(timeIntervalSinceReferenceDate: $0) }
    }
}
