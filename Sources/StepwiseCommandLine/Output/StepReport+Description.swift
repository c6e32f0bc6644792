import StepwiseMapping

extension StepReport {
    /// How the step ran, for people: "in place (ALTER TABLE)", "set-based SQL", or "row by
    /// row through policies for ChefToChef, RecipeToRecipe".
    var howItRan: String {
        if inPlace { return "in place (ALTER TABLE)" }
        let rowByRow = entityMappings.filter { !$0.setBased }.map(\.name)
        return rowByRow.isEmpty
            ? "set-based SQL" : "row by row through policies for \(rowByRow.joined(separator: ", "))"
    }
}
