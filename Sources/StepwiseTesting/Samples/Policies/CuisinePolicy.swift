import StepwiseMapping
import StepwiseStore

/// Recipes 1 → 2: turns the `Recipe.cuisine` string into a Cuisine entity, one per distinct
/// name, linked to its recipes.
///
/// The cuisines made so far are cached by name (byte for byte) in ``MigrationManager/userInfo``:
/// the cache grows with the number of distinct cuisines, not with the number of recipes.
public final class CuisinePolicy: EntityMigrationPolicy {
    static let cacheKey = "CuisinePolicy.cuisines"

    public override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        let recipe = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)
        guard let name = source.string("cuisine") else { return }
        let cuisine = try manager.distinctObject("Cuisine", named: name, cacheKey: Self.cacheKey)
        try manager.destination.setToOne(recipe, "cuisine", to: cuisine)
    }

    /// Pass 2 keeps the default hook: its links may be written as set-based SQL.
    public override var createsRelationshipsByDefault: Bool { true }
}
