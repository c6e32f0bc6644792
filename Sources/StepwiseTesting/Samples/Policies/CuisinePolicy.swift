import StepwiseMapping
import StepwiseStore

/// Recipes 1 → 2: turns the `Recipe.cuisine` string into a Cuisine entity, one per distinct
/// name, linked to its recipes.
///
/// The cache of cuisines made so far lives in ``MigrationManager/userInfo``: it grows with
/// the number of distinct cuisines, not with the number of recipes.
public final class CuisinePolicy: EntityMigrationPolicy {
    static let cacheKey = "CuisinePolicy.cuisines"

    public override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        let recipe = try manager.createDestinationInstance(forSource: source, in: mapping, policy: self)
        guard let name = source.string("cuisine") else { return }
        var cache = manager.userInfo[Self.cacheKey] as? [String: ObjectID] ?? [:]
        let cuisine = try cache[name] ?? manager.destination.insert("Cuisine", ["name": name])
        cache[name] = cuisine
        manager.userInfo[Self.cacheKey] = cache
        try manager.destination.setToOne(recipe, "cuisine", to: cuisine)
    }
}
