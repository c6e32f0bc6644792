/// The mapping files of the sample histories, as written to `Versions/<Name>.mappings/`.
///
/// They are kept here as text so the demo runs without files; `stepwise samples --write`
/// writes them out and a test checks `Versions/` still matches.
public enum SampleMappings {
    static let manager = "FUNCTION($manager, \\\"destinationInstancesForEntityMappingNamed:sourceInstances:\\\""

    /// Recipes 1 → 2: split chef names, one Cuisine per distinct name, rename
    /// `Ingredient.recipes` to `recipe`, `Chef.recipes` becomes to-many.
    public static let recipes1to2 = """
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
    public static let recipes2to3 = """
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

    /// University 2 → 3: `estYear` from `estDate`.
    public static let university2to3 = """
        {
          "source": "University 2",
          "destination": "University 3",
          "entityMappings": [
            {
              "source": "University",
              "destination": "University",
              "policy": "UniversityEstYearPolicy",
              "attributes": {
                "estYear": "FUNCTION($entityPolicy, \\"transformEstDateToEstYear:\\", $source.estDate)"
              }
            }
          ]
        }

        """

    /// University 3 → 4: one Country per distinct name.
    public static let university3to4 = """
        {
          "source": "University 3",
          "destination": "University 4",
          "entityMappings": [
            { "source": "University", "destination": "University", "policy": "CountryNormalizationPolicy" }
          ]
        }

        """

    /// Events 1 → 2, first of two mapping models of the step: time stamps as seconds since 1970.
    public static let events1to2TimeStamps = """
        {
          "name": "Events → Events 2, step one: time stamps",
          "source": "Events",
          "destination": "Events 2",
          "order": 1,
          "entityMappings": [
            {
              "source": "Event",
              "destination": "TimeStampEvent",
              "policy": "EventConversionPolicy",
              "attributes": {
                "timeStamp": "FUNCTION($entityPolicy, \\"secondsSince1970:\\", $source.timeStamp)"
              }
            }
          ]
        }

        """

    /// Events 1 → 2, second mapping model of the same step: printed dates.
    public static let events1to2PrintedDates = """
        {
          "name": "Events → Events 2, step two: printed dates",
          "source": "Events",
          "destination": "Events 2",
          "order": 2,
          "entityMappings": [
            {
              "source": "Event",
              "destination": "PrintedDateEvent",
              "policy": "EventConversionPolicy",
              "attributes": {
                "printedDate": "FUNCTION($entityPolicy, \\"mediumDateString:\\", $source.timeStamp)"
              }
            }
          ]
        }

        """
}
