import Foundation
import StepwiseMapping
import StepwiseStore

/// University 2 → 3: `FUNCTION($entityPolicy, "transformEstDateToEstYear:", $source.estDate)`
/// gives the establishment year, in UTC, as a string ("1636").
package final class UniversityEstYearPolicy: EntityMigrationPolicy {
    package override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
        -> MappingValue
    {
        guard selector == "transformEstDateToEstYear:" else {
            return try super.function(named: selector, arguments: arguments, manager: manager)
        }
        guard let date = arguments.first?.dateValue else { return .null }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return .string(String(calendar.component(.year, from: date)))
    }

    /// Pass 2 keeps the default hook: its links may be written as set-based SQL.
    package override var createsRelationshipsByDefault: Bool { true }
}

/// University 3 → 4: the `country` string becomes a Country entity, one per distinct name.
package final class CountryNormalizationPolicy: EntityMigrationPolicy {
    static let cacheKey = "CountryNormalizationPolicy.countries"

    package override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        let country = try source.string("country").map {
            try manager.distinctObject("Country", named: $0, cacheKey: Self.cacheKey)
        }
        // The university and its link in one insert (the same as `setToOne` right after it).
        try manager.createDestinationInstance(forSource: source, in: mapping, policy: self, toOne: ["country": country])
    }

    /// Pass 2 keeps the default hook: its links may be written as set-based SQL.
    package override var createsRelationshipsByDefault: Bool { true }
}
