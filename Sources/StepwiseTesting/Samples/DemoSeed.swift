import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Seeds sample stores with a few known rows, for the demo and for tests.
public enum DemoSeed {
    /// Fills a Recipes v1 store: 4 chefs, 4 recipes (3 Mexican, 1 French), 6 ingredients
    /// ("chiles" twice: v3 shares it).
    ///
    /// In v1 `Chef.recipes` is a to-one (the modelling mistake v2 fixes), so a chef and a
    /// recipe are one-to-one and every recipe gets its own chef.
    /// Returns the number of objects inserted.
    @discardableResult
    public static func seedRecipes(at url: URL, model: ObjectModel = RecipesHistory.v1) throws -> Int {
        let layout = try StoreLayout(model: model)
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            let chef = { (name: String, training: String) in
                try objects.insert("Chef", ["name": name, "training": training])
            }
            let recipes: [(String, String, ObjectID, [(String, String)])] = [
                (
                    "Mole Poblano", "Mexican", try chef("Miguel Sanchez", "Escuela de Gastronomía"),
                    [("chiles", "6"), ("chocolate", "50 g")]
                ),
                (
                    "Tacos al Pastor", "Mexican", try chef("Rick Bayless", "self-taught"),
                    [("pork", "1 kg"), ("chiles", "2")]
                ),
                ("Pozole", "Mexican", try chef("Diana Kennedy", "self-taught"), [("hominy", "2 cans")]),
                ("Boeuf Bourguignon", "French", try chef("Julia Child", "Le Cordon Bleu"), [("beef", "1.5 kg")]),
            ]
            var count = 4
            for (name, cuisine, chef, ingredients) in recipes {
                let recipe = try objects.insert(
                    "Recipe",
                    ["name": name, "cuisine": cuisine, "directions": "Cook \(name.lowercased()).", "chef": chef])
                count += 1
                for (ingredient, amount) in ingredients {
                    _ = try objects.insert("Ingredient", ["name": ingredient, "amount": amount, "recipes": recipe])
                    count += 1
                }
            }
            return count
        }
    }
}
