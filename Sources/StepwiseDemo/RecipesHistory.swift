import StepwiseModel

/// The "Core Recipes" history from Apple's Core Data versioning talk, four versions.
///
/// `Versions/Recipes.xcdatamodeld` is written from these definitions
/// (`swift run stepwise-samples --write Versions`), and a test checks that the two agree,
/// so the demo's embedded copy and the files in `Versions/` can't drift apart.
package enum RecipesHistory {
    /// v1: Chef(name, training), Recipe(name, directions, cuisine as a string, chef),
    /// Ingredient(name, amount, and a to-one `recipes` with a misleading plural name).
    package static let v1 = ObjectModel("Recipes", versionIdentifiers: ["1"]) {
        Entity("Chef") {
            Attribute("name", .string).required()
            Attribute("training", .string)
            Relationship("recipes", to: "Recipe", inverse: "chef")
        }
        Entity("Ingredient") {
            Attribute("amount", .string)
            Attribute("name", .string).required()
            Relationship("recipes", to: "Recipe", inverse: "ingredients")
        }
        Entity("Recipe") {
            Attribute("cuisine", .string)
            Attribute("directions", .string)
            Attribute("name", .string).required().indexed()
            Relationship("chef", to: "Chef", inverse: "recipes")
            Relationship("ingredients", to: "Ingredient", inverse: "recipes").toMany().deletionRule(.cascade)
        }
    }

    /// v2: Recipe gains `rating`; Chef loses `training` and its name splits in two;
    /// `Ingredient.recipes` is renamed `recipe`; `Chef.recipes` becomes to-many;
    /// Cuisine becomes an entity, one per distinct name.
    package static let v2 = ObjectModel("Recipes 2", versionIdentifiers: ["2"]) {
        chefWithSplitName
        cuisine
        Entity("Ingredient") {
            Attribute("amount", .string)
            Attribute("name", .string).required()
            Relationship("recipe", to: "Recipe", inverse: "ingredients").renamed(from: "recipes")
        }
        Entity("Recipe") {
            Attribute("directions", .string)
            Attribute("name", .string).required().indexed()
            Attribute("rating", .integer16).required().defaultValue("0")
            Relationship("chef", to: "Chef", inverse: "recipes")
            Relationship("cuisine", to: "Cuisine", inverse: "recipes")
            Relationship("ingredients", to: "Ingredient", inverse: "recipe").toMany().deletionRule(.cascade)
        }
    }

    /// v3: ingredients are shared, linked to recipes through RecipeIngredient (quantity);
    /// UnitOfMeasure becomes an entity; cost and unit size are added.
    package static let v3 = ObjectModel("Recipes 3", versionIdentifiers: ["3"]) {
        chefWithSplitName
        cuisine
        sharedIngredient
        Entity("Recipe") {
            Attribute("directions", .string)
            Attribute("name", .string).required().indexed()
            Attribute("rating", .integer16).required().defaultValue("0")
            Relationship("chef", to: "Chef", inverse: "recipes")
            Relationship("cuisine", to: "Cuisine", inverse: "recipes")
            Relationship("ingredients", to: "RecipeIngredient", inverse: "recipe").toMany().deletionRule(.cascade)
        }
        recipeIngredient
        unitOfMeasure
    }

    /// v4: a purely lightweight change: Recipe gains optional notes and a prep time,
    /// Chef gains an optional email.
    package static let v4 = ObjectModel("Recipes 4", versionIdentifiers: ["4"]) {
        Entity("Chef") {
            Attribute("email", .string)
            Attribute("firstName", .string)
            Attribute("lastName", .string)
            Relationship("recipes", to: "Recipe", inverse: "chef").toMany()
        }
        cuisine
        sharedIngredient
        Entity("Recipe") {
            Attribute("directions", .string)
            Attribute("name", .string).required().indexed()
            Attribute("notes", .string)
            Attribute("prepMinutes", .integer32)
            Attribute("rating", .integer16).required().defaultValue("0")
            Relationship("chef", to: "Chef", inverse: "recipes")
            Relationship("cuisine", to: "Cuisine", inverse: "recipes")
            Relationship("ingredients", to: "RecipeIngredient", inverse: "recipe").toMany().deletionRule(.cascade)
        }
        recipeIngredient
        unitOfMeasure
    }

    // Entities that several versions share unchanged, defined once.

    /// Chef from v2 on: the name split in two, recipes to-many.
    static let chefWithSplitName = Entity("Chef") {
        Attribute("firstName", .string)
        Attribute("lastName", .string)
        Relationship("recipes", to: "Recipe", inverse: "chef").toMany()
    }

    /// Cuisine from v2 on: one per distinct name.
    static let cuisine = Entity("Cuisine") {
        Attribute("name", .string).required()
        Relationship("recipes", to: "Recipe", inverse: "cuisine").toMany()
        Unique("name")
    }

    /// Ingredient from v3 on: shared between recipes, with cost and unit size.
    static let sharedIngredient = Entity("Ingredient") {
        Attribute("cost", .decimal)
        Attribute("name", .string).required()
        Attribute("unitSize", .double)
        Relationship("recipeIngredients", to: "RecipeIngredient", inverse: "ingredient").toMany()
        Unique("name")
    }

    /// The link between a recipe and a shared ingredient, from v3 on.
    static let recipeIngredient = Entity("RecipeIngredient") {
        Attribute("quantity", .string)
        Relationship("ingredient", to: "Ingredient", inverse: "recipeIngredients")
        Relationship("recipe", to: "Recipe", inverse: "ingredients")
        Relationship("unit", to: "UnitOfMeasure", inverse: "recipeIngredients")
    }

    /// UnitOfMeasure from v3 on: one per unit name.
    static let unitOfMeasure = Entity("UnitOfMeasure") {
        Attribute("name", .string).required()
        Relationship("recipeIngredients", to: "RecipeIngredient", inverse: "unit").toMany()
        Unique("name")
    }

    /// All four versions, oldest first.
    package static let history = VersionHistory([v1, v2, v3, v4])
}
