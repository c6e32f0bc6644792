import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

extension DemoCommand {
    /// How many objects of each kind the sample shows; the rest are counted.
    static let sampleSize = 5

    /// A few migrated rows: chefs' split names, one Cuisine per name, shared ingredients.
    /// The hand-picked rows come first (they were seeded first and keys follow source order).
    func printSample(of store: URL, model: ObjectModel) throws {
        let queue = try DatabaseQueue(path: store.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        let layout = try StoreLayout(model: model)
        try queue.read { db in
            let objects = ObjectContext(db, layout: layout)
            print("Chefs (name split by a policy in Recipes → Recipes 2)")
            let chefs = try objects.cursor("Chef")
            for _ in 0..<Self.sampleSize {
                guard let chef = try chefs.next() else { break }
                print("  \(chef.string("firstName") ?? "") | \(chef.string("lastName") ?? "")")
            }
            more(try objects.count("Chef") - Self.sampleSize, "chefs")
            print("Cuisines (one per distinct name, with their recipes)")
            for cuisine in try objects.fetch("Cuisine") {
                let recipes = try objects.related(cuisine.id, "recipes")
                let names = try recipes.prefix(3).map { try objects.object($0).string("name") ?? "" }
                let rest = recipes.count > 3 ? ", … (\(TextFormat.grouped(recipes.count)) in all)" : ""
                print("  \(cuisine.string("name") ?? ""): \(names.joined(separator: ", "))\(rest)")
            }
            print("Ingredients (shared in Recipes 3, with the recipes that use them)")
            let ingredients = try objects.cursor("Ingredient")
            for _ in 0..<Self.sampleSize {
                guard let ingredient = try ingredients.next() else { break }
                let links = try objects.related(ingredient.id, "recipeIngredients")
                let uses = try links.prefix(3).map { try describeUse($0, objects) }
                let rest = links.count > 3 ? "; … (\(TextFormat.grouped(links.count)) in all)" : ""
                print("  \(ingredient.string("name") ?? ""): \(uses.joined(separator: "; "))\(rest)")
            }
            more(try objects.count("Ingredient") - Self.sampleSize, "ingredients")
        }
    }

    /// `Mole Poblano (50 g)`: a RecipeIngredient's recipe and quantity.
    private func describeUse(_ link: ObjectID, _ objects: ObjectContext) throws -> String {
        let recipe = try objects.related(link, "recipe").first.map { try objects.object($0).string("name") ?? "" }
        let unit = try objects.related(link, "unit").first.map { try objects.object($0).string("name") ?? "" }
        let quantity = try objects.object(link).string("quantity") ?? ""
        return "\(recipe ?? "?") (\([quantity, unit ?? ""].filter { !$0.isEmpty }.joined(separator: " ")))"
    }

    /// `  … and 1,000 more chefs`, when there are more.
    private func more(_ count: Int, _ noun: String) {
        if count > 0 { print("  … and \(TextFormat.grouped(count)) more \(noun)") }
    }
}
