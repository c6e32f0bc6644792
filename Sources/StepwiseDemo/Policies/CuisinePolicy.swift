import StepwiseMapping
import StepwiseStore

/// Recipes 1 → 2: turns the `Recipe.cuisine` string into a Cuisine entity, one per distinct
/// name, linked to its recipes.
///
/// The cuisines made so far are cached by name (byte for byte) in ``MigrationManager/userInfo``:
/// the cache grows with the number of distinct cuisines, not with the number of recipes.
package final class CuisinePolicy: EntityMigrationPolicy {
    static let cacheKey = "CuisinePolicy.cuisines"

    package override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        let cuisine = try source.string("cuisine").map {
            try manager.distinctObject("Cuisine", named: $0, cacheKey: Self.cacheKey)
        }
        // The recipe and its link in one insert (the same as `setToOne` right after it).
        try manager.createDestinationInstance(forSource: source, in: mapping, policy: self, toOne: ["cuisine": cuisine])
    }

    /// Pass 2 keeps the default hook: its links may be written as set-based SQL.
    package override var createsRelationshipsByDefault: Bool { true }
}
