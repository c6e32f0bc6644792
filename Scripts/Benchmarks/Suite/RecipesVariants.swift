import StepwiseModel
import StepwiseTestSupport

/// The model versions the scenarios upgrade ``RecipesHistory/v1`` to, derived from it so they
/// can't drift from the seeded store.
///
/// Entity numbers (`Z_ENT`) follow the sorted entity names, so the renamed entity keeps its
/// place (Chef < Component < Recipe, as Chef < Ingredient < Recipe): the step stays one that
/// Core Data would run in place.
enum RecipesVariants {
    static let base = RecipesHistory.v1

    /// `lightweight`: Recipe gains `rating` (required, default 0), loses `cuisine`, and
    /// `directions` is renamed `instructions` (renaming identifier); Ingredient is renamed
    /// Component (renaming identifier).
    static let lightweight = lightweight(name: "Recipes Light", dropsCuisine: true, renamesIngredient: true)

    /// `large`: ``lightweight`` without its drop and its entity rename: Recipe gains `rating`
    /// and `directions` is renamed `instructions`. No table is rewritten (a drop rewrites its
    /// table) and no index rebuilt (a renamed entity's indexes take its new name, and SQLite
    /// renames an index only by building it again): every change is one of SQLite's
    /// schema-only `ALTER`s, whose cost doesn't grow with the rows.
    static let additive = lightweight(name: "Recipes Additive", dropsCuisine: false, renamesIngredient: false)

    private static func lightweight(name: String, dropsCuisine: Bool, renamesIngredient: Bool) -> ObjectModel {
        var model = base
        model.name = name
        model.versionIdentifiers = [dropsCuisine ? "light" : "additive"]
        model.entities = base.entities.map { entity in
            var entity = entity
            switch entity.name {
            case "Recipe":
                if dropsCuisine { entity.attributes.removeAll { $0.name == "cuisine" } }
                entity.attributes = entity.attributes.map { attribute in
                    guard attribute.name == "directions" else { return attribute }
                    var renamed = attribute
                    renamed.name = "instructions"
                    renamed.renamingIdentifier = "directions"
                    return renamed
                }
                entity.attributes.append(Attribute("rating", .integer16).required().defaultValue("0"))
            case "Ingredient" where renamesIngredient:
                entity.name = "Component"
                entity.renamingIdentifier = "Ingredient"
            default:
                break
            }
            entity.relationships = entity.relationships.map { relationship in
                var relationship = relationship
                if renamesIngredient, relationship.destination == "Ingredient" {
                    relationship.destination = "Component"
                }
                return relationship
            }
            return entity
        }
        return model
    }

    /// `chain`: version k (1…count) adds `extra<k>` to Recipe (odd k: a required integer with a
    /// default, even k: an optional string), and version 6 on drops `cuisine`. Every step
    /// adds or drops a column only, the kind of step Core Data runs in place.
    static func chain(count: Int = 10) -> [ObjectModel] {
        (1...count).map { version in
            var model = base
            model.name = "Chain \(version)"
            model.versionIdentifiers = ["chain \(version)"]
            model.entities = base.entities.map { entity in
                guard entity.name == "Recipe" else { return entity }
                var entity = entity
                if version >= 6 { entity.attributes.removeAll { $0.name == "cuisine" } }
                for k in 1...version {
                    entity.attributes.append(
                        k % 2 == 1
                            ? Attribute("extra\(k)", .integer32).required().defaultValue("\(k)")
                            : Attribute("extra\(k)", .string))
                }
                return entity
            }
            return model
        }
    }

    /// `relink`: `Ingredient.recipes` (the to-one side of `Recipe.ingredients`) is renamed
    /// `recipe`, so its foreign key column changes name and the explicit mapping must re-link
    /// every ingredient.
    static let relinked: ObjectModel = {
        var model = base
        model.name = "Recipes Relinked"
        model.versionIdentifiers = ["relinked"]
        model.entities = base.entities.map { entity in
            var entity = entity
            entity.relationships = entity.relationships.map { relationship in
                var relationship = relationship
                if entity.name == "Ingredient", relationship.name == "recipes" { relationship.name = "recipe" }
                if entity.name == "Recipe", relationship.name == "ingredients" { relationship.inverse = "recipe" }
                return relationship
            }
            return entity
        }
        return model
    }()

    /// `launch`: `count` versions "Launch", "Launch 2" … "Launch <count>". The newest has
    /// exactly the seeded store's entities (so the store is up to date); each older one has one
    /// more Recipe attribute, `legacy<k>`, so every version has its own hashes and all are the
    /// same size: a 120-version bundle costs more than a 5-version one only by its count.
    static func launch(count: Int) -> [ObjectModel] {
        (1...count).map { version in
            let name = version == 1 ? "Launch" : "Launch \(version)"
            if version == count {
                return ObjectModel(name, versionIdentifiers: base.versionIdentifiers, entities: base.entities)
            }
            var model = base
            model.name = name
            model.versionIdentifiers = ["launch \(version)"]
            model.entities = base.entities.map { entity in
                guard entity.name == "Recipe" else { return entity }
                var entity = entity
                entity.attributes.append(Attribute("legacy\(version)", .string))
                return entity
            }
            return model
        }
    }
}
