import Foundation
import StepwiseMapping
import StepwiseStore

/// objc.io Moody 5 → 6 (`Migrations.Country5ToCountry6Policy`, corpus README §3): after the
/// default creation of a Country, reuse the Continent with the source's `isoContinent` code
/// or create one with only that code set, and link it. A nil code links nothing.
package final class Country5ToCountry6Policy: EntityMigrationPolicy {
    static let cacheKey = "Country5ToCountry6Policy.continents"

    package override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        let country = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)
        guard let code = source.int("isoContinent") else { return }
        var cache = manager.userInfo[Self.cacheKey] as? [Int64: ObjectID] ?? [:]
        let continent = try cache[code] ?? manager.destination.insert("Continent", ["numericISO3166Code": code])
        cache[code] = continent
        manager.userInfo[Self.cacheKey] = cache
        try manager.destination.setToOne(country, "continent", to: continent)
    }
}

/// wibosco 2 → 3 (`CoreDataMigration_Example.Post2ToPost3MigrationPolicy`, corpus README §3):
/// after the default creation of a Post, insert a new Color for every post, with a fresh
/// random UUID string as `colorID` and the source's `hexColor` as `hex`, and link it.
/// No de-duplication, as in the original.
package final class Post2ToPost3MigrationPolicy: EntityMigrationPolicy {
    package override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        let post = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)
        let color = try manager.destination.insert(
            "Color", ["colorID": UUID().uuidString, "hex": source.string("hexColor")])
        try manager.destination.setToOne(post, "color", to: color)
    }
}
