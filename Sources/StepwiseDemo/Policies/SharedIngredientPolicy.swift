import StepwiseMapping
import StepwiseStore

/// Recipes 2 → 3: ingredients become shared, one Ingredient per name, linked to recipes
/// through RecipeIngredient (the quantity) and UnitOfMeasure (one per unit name).
///
/// For each source Ingredient("chocolate", amount "50 g", recipe R) it reuses or creates the
/// Ingredient "chocolate" and the UnitOfMeasure "g", and creates RecipeIngredient(quantity
/// "50") linking them to R's destination. Nothing is duplicated: the caches live in
/// ``MigrationManager/userInfo`` and grow with distinct names only.
package final class SharedIngredientPolicy: EntityMigrationPolicy {
    package override func createDestinationInstances(
        forSource source: StoredObject, in mapping: EntityMapping, manager: MigrationManager
    ) throws {
        guard let name = source.string("name") else { return }
        let ingredient = try findOrCreate("Ingredient", named: name, manager: manager)
        try manager.associate(source: source.id, destination: ingredient, mapping: mapping)
        let (quantity, unitName) = Self.split(amount: source.string("amount"))
        let link = try manager.destination.insert("RecipeIngredient", ["quantity": quantity])
        try manager.destination.setToOne(link, "ingredient", to: ingredient)
        if let unitName {
            try manager.destination.setToOne(
                link, "unit", to: try findOrCreate("UnitOfMeasure", named: unitName, manager: manager))
        }
        let sourceRecipes = try manager.source.related(source.id, "recipe")
        let recipes = try manager.destinationInstances(
            forEntityMappingNamed: "RecipeToRecipe", sourceInstances: sourceRecipes)
        try manager.destination.setToOne(link, "recipe", to: recipes.first)
    }

    /// Relationships are all made in pass 1.
    package override func createRelationships(
        forDestination destination: ObjectID, in mapping: EntityMapping, manager: MigrationManager
    ) throws {}

    /// "50 g" → ("50", "g"); "2 cans" → ("2", "cans"); "6" → ("6", nil).
    static func split(amount: String?) -> (String?, String?) {
        guard let amount, !amount.isEmpty else { return (nil, nil) }
        let parts = amount.split(separator: " ", maxSplits: 1)
        return (String(parts[0]), parts.count > 1 ? String(parts[1]) : nil)
    }

    private func findOrCreate(_ entity: String, named name: String, manager: MigrationManager) throws -> ObjectID {
        try manager.distinctObject(entity, named: name, cacheKey: "SharedIngredientPolicy.\(entity)")
    }
}
