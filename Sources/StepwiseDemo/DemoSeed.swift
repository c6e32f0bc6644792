import Foundation
import GRDB
import StepwiseModel
import StepwiseStore

/// Seeds sample stores with a few known rows, for the demo and for tests.
package enum DemoSeed {
    /// The cuisines of generated recipes, taken in turn. None is a hand-picked one, so the
    /// hand-picked cuisines keep exactly their four recipes.
    package static let generatedCuisines = ["Italian", "Japanese", "Indian", "Thai", "Peruvian"]
    /// The ingredients of generated recipes, two per recipe, taken in turn. None is a
    /// hand-picked one, so "chiles" stays shared by exactly two recipes.
    package static let generatedIngredients = [
        "rice", "beans", "onion", "garlic", "tomato", "basil", "ginger", "lemon", "butter", "flour", "eggs", "milk",
    ]
    /// The units of generated amounts ("3 tbsp"), taken in turn; "g" is also a hand-picked unit.
    package static let generatedUnits = ["g", "ml", "tbsp", "cups"]

    private static let firstNames = ["Ana", "Ben", "Chloe", "Dev", "Emma", "Farid", "Grace", "Hiro", "Ines", "Jon"]
    private static let lastNames = ["Lopez", "Okafor", "Rossi", "Tanaka", "Nguyen", "Schmidt", "Silva", "Haddad"]
    private static let trainings = ["self-taught", "Le Cordon Bleu", "apprenticeship"]

    /// Fills a Recipes v1 store: 4 chefs, 4 recipes (3 Mexican, 1 French), 6 ingredients
    /// ("chiles" twice: v3 shares it), then `generatedRecipes` more recipes, each with its
    /// own chef and two ingredients, so a demo has enough rows to show progress.
    ///
    /// In v1 `Chef.recipes` is a to-one (the modelling mistake v2 fixes), so a chef and a
    /// recipe are one-to-one and every recipe gets its own chef.
    ///
    /// Generated rows are deterministic: recipe `i` (from 0) is made by chef
    /// "`firstName` `lastName`", belongs to ``generatedCuisines``[`i` % 5], and uses
    /// ``generatedIngredients``[2`i` % 12] and [(2`i` + 1) % 12], measured in
    /// ``generatedUnits``[`i` % 4]. They come after the hand-picked rows, whose primary keys
    /// therefore stay 1…4 per entity.
    ///
    /// - parameters:
    ///   - generatedRecipes: How many recipes to add to the hand-picked four; each adds
    ///     four objects (a chef, a recipe, two ingredients). None by default.
    /// - returns: The number of objects inserted: 14 + 4 × `generatedRecipes`.
    @discardableResult
    package static func seedRecipes(
        at url: URL, model: ObjectModel = RecipesHistory.v1, generatedRecipes: Int = 0
    ) throws -> Int {
        let layout = try StoreLayout(model: model)
        let queue = try DatabaseQueue(path: url.path, configuration: .withCoreDataTriggerFunctions)
        defer { try? queue.close() }
        return try queue.write { db in
            let objects = ObjectContext(db, layout: layout)
            var count = try insertHandPicked(objects)
            for index in 0..<max(0, generatedRecipes) {
                count += try insertGenerated(index, objects)
            }
            return count
        }
    }

    /// The four hand-picked recipes tests assert on; returns the objects inserted (14).
    private static func insertHandPicked(_ objects: ObjectContext) throws -> Int {
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
                "Recipe", ["name": name, "cuisine": cuisine, "directions": "Cook \(name.lowercased()).", "chef": chef])
            count += 1
            for (ingredient, amount) in ingredients {
                _ = try objects.insert("Ingredient", ["name": ingredient, "amount": amount, "recipes": recipe])
                count += 1
            }
        }
        return count
    }

    /// Generated recipe `index`, with its chef and two ingredients; returns 4.
    private static func insertGenerated(_ index: Int, _ objects: ObjectContext) throws -> Int {
        let firstName = firstNames[index % firstNames.count]
        let lastName = lastNames[(index / firstNames.count) % lastNames.count]
        let chef = try objects.insert(
            "Chef", ["name": "\(firstName) \(lastName)", "training": trainings[index % trainings.count]])
        let name = "Recipe \(index + 1)"
        let recipe = try objects.insert(
            "Recipe",
            [
                "name": name, "cuisine": generatedCuisines[index % generatedCuisines.count],
                "directions": "Cook \(name.lowercased()).", "chef": chef,
            ])
        let unit = generatedUnits[index % generatedUnits.count]
        for offset in 0..<2 {
            let ingredient = generatedIngredients[(2 * index + offset) % generatedIngredients.count]
            _ = try objects.insert(
                "Ingredient", ["name": ingredient, "amount": "\(1 + (index + offset) % 9) \(unit)", "recipes": recipe])
        }
        return 4
    }
}
