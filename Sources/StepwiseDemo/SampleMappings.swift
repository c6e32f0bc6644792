/// The mapping files of the sample histories, as written to `Versions/<Name>.mappings/`.
///
/// They are kept here as text so the demo runs without files; `stepwise-samples --write`
/// writes them out and a test checks `Versions/` still matches.
package enum SampleMappings {
    static let manager = "FUNCTION($manager, \\\"destinationInstancesForEntityMappingNamed:sourceInstances:\\\""

    /// Recipes 1 → 2: split chef names, one Cuisine per distinct name, rename
    /// `Ingredient.recipes` to `recipe`, `Chef.recipes` becomes to-many.
    package static let recipes1to2 = """
        {
          "source": "Recipes",
          "destination": "Recipes 2",
          "entityMappings": [
            {
              "name": "ChefToChef",
              "source": "Chef",
              "destination": "Chef",
              "policy": "ChefNamePolicy",
              "attributes": {
                "firstName": "FUNCTION($entityPolicy, \\"firstNameOf:\\", $source.name)",
                "lastName": "FUNCTION($entityPolicy, \\"lastNameOf:\\", $source.name)"
              },
              "relationships": {
                "recipes": "\(manager), \\"RecipeToRecipe\\", $source.recipes)"
              }
            },
            {
              "name": "RecipeToRecipe",
              "source": "Recipe",
              "destination": "Recipe",
              "policy": "CuisinePolicy",
              "relationships": {
                "chef": "\(manager), \\"ChefToChef\\", $source.chef)",
                "ingredients": "\(manager), \\"IngredientToIngredient\\", $source.ingredients)"
              }
            },
            {
              "name": "IngredientToIngredient",
              "source": "Ingredient",
              "destination": "Ingredient",
              "relationships": {
                "recipe": "\(manager), \\"RecipeToRecipe\\", $source.recipes)"
              }
            }
          ]
        }

        """

    /// Recipes 2 → 3: shared ingredients through RecipeIngredient and UnitOfMeasure.
    package static let recipes2to3 = """
        {
          "source": "Recipes 2",
          "destination": "Recipes 3",
          "entityMappings": [
            { "name": "ChefToChef", "source": "Chef", "destination": "Chef" },
            { "name": "CuisineToCuisine", "source": "Cuisine", "destination": "Cuisine" },
            {
              "name": "RecipeToRecipe",
              "source": "Recipe",
              "destination": "Recipe",
              "copyMatchingProperties": false,
              "attributes": {
                "directions": "$source.directions",
                "name": "$source.name",
                "rating": "$source.rating"
              },
              "relationships": {
                "chef": "\(manager), \\"ChefToChef\\", $source.chef)",
                "cuisine": "\(manager), \\"CuisineToCuisine\\", $source.cuisine)"
              }
            },
            {
              "name": "IngredientToIngredient",
              "source": "Ingredient",
              "destination": "Ingredient",
              "policy": "SharedIngredientPolicy"
            }
          ]
        }

        """
}
