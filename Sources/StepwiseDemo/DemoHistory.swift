/// What `stepwise demo` upgrades: the Recipes history and its two mapping files.
package enum DemoHistory {
    /// `Versions/Recipes.xcdatamodeld` and `Versions/Recipes.mappings/`.
    package static let recipes = SampleHistory(
        name: "Recipes", history: RecipesHistory.history,
        mappingFiles: [
            "Recipes to Recipes 2.json": SampleMappings.recipes1to2,
            "Recipes 2 to Recipes 3.json": SampleMappings.recipes2to3,
        ])
}
