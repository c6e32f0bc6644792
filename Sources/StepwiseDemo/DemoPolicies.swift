import StepwiseMapping

/// The policies the Recipes mapping files name: what the stock `stepwise` tool registers, so
/// `stepwise demo` and `stepwise upgrade` run `Versions/Recipes.mappings`.
package enum DemoPolicies {
    package static var registry: PolicyRegistry {
        var registry = PolicyRegistry()
        registry.register("ChefNamePolicy") { ChefNamePolicy() }
        registry.register("CuisinePolicy") { CuisinePolicy() }
        registry.register("SharedIngredientPolicy") { SharedIngredientPolicy() }
        return registry
    }
}
