import Foundation
import StepwiseMapping

/// Events 1 → 2: converts `Event.timeStamp` for the two new entities.
///
/// - `"secondsSince1970:"`: the date as seconds since 1970-01-01 UTC (a Double);
/// - `"mediumDateString:"`: the date in the medium date style, en_US_POSIX, UTC ("Jan 2, 2001").
package final class EventConversionPolicy: EntityMigrationPolicy {
    package override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
        -> MappingValue
    {
        switch selector {
        case "secondsSince1970:":
            guard let date = arguments.first?.dateValue else { return .null }
            return .double(date.timeIntervalSince1970)
        case "mediumDateString:":
            guard let date = arguments.first?.dateValue else { return .null }
            return .string(Self.mediumDateFormatter().string(from: date))
        default:
            return try super.function(named: selector, arguments: arguments, manager: manager)
        }
    }

    /// Pass 2 keeps the default hook: its links may be written as set-based SQL.
    package override var createsRelationshipsByDefault: Bool { true }

    /// A formatter per call: `DateFormatter` is `Sendable` in some Foundations and not in
    /// others, so a shared one needs an annotation that one of them warns about. A sample
    /// policy can afford the allocation.
    static func mediumDateFormatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateStyle = .medium
        formatter.timeStyle = .none
        return formatter
    }
}
