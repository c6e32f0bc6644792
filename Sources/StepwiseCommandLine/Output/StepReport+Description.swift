import StepwiseMapping

extension StepReport {
    /// How the step ran, for people: its strategy, then for a rebuild how its rows were
    /// written: "in place (ALTER TABLE)", "partial rebuild: kept 3 tables, set-based SQL",
    /// "rebuilt, set-based SQL", or "rebuilt, row by row through policies for ChefToChef,
    /// RecipeToRecipe".
    var howItRan: String {
        if strategy == .inPlace { return "in place (ALTER TABLE)" }
        let rowByRow = entityMappings.filter { !$0.setBased }.map(\.name)
        let rows =
            rowByRow.isEmpty ? "set-based SQL" : "row by row through policies for \(rowByRow.joined(separator: ", "))"
        return "\(strategySummary), \(rows)"
    }
}
