import Foundation
import StepwiseMapping
import StepwiseStore

/// University 2 → 3: `FUNCTION($entityPolicy, "transformEstDateToEstYear:", $source.estDate)`
/// gives the establishment year, in UTC, as a string ("1636").
public final class UniversityEstYearPolicy: EntityMigrationPolicy {
    public override func function(named selector: String, arguments: [MappingValue], manager: MigrationManager) throws
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
}

/// University 3 → 4: the `country` string becomes a Country entity, one per distinct name.
public final class CountryNormalizationPolicy: EntityMigrationPolicy {
    static let cacheKey = "CountryNormalizationPolicy.countries"

    public override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        let university = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)
        guard let name = source.string("country") else { return }
        let country = try manager.distinctObject("Country", named: name, cacheKey: Self.cacheKey)
        try manager.destination.setToOne(university, "country", to: country)
    }
}
