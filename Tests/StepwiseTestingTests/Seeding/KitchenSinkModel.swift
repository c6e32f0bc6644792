import StepwiseModel

/// A model with every attribute type and every kind of relationship, for the generator's tests.
///
/// - Item (abstract; Book and Film): a required to-one `owner` whose inverse is ordered, a
///   many-to-many `tags` whose inverse must hold 1 to 5 items, a unique `code`;
/// - Person: one attribute of each type, optional and required ones, defaults, a
///   one-to-one `passport`, a self-referencing many-to-many (`following` ↔ `followers`);
/// - Passport: a unique UUID; Tag: a unique label; Note: a to-many without inverse.
enum KitchenSinkModel {
    static let model = ObjectModel("Sink") {
        Entity("Item") {
            Attribute("code", .integer64).required()
            Attribute("title", .string).required()
            Relationship("owner", to: "Person", inverse: "items").required()
            Relationship("tags", to: "Tag", inverse: "items").toMany()
            Unique("code")
        }.abstract()
        Entity("Book") {
            Attribute("isbn", .string)
            Attribute("pages", .integer16)
        }.parent("Item")
        Entity("Film") {
            Attribute("minutes", .integer32).range(min: "1", max: "600")
            Attribute("rating", .float)
        }.parent("Item")
        Entity("Note") {
            Attribute("text", .string)
            Relationship("links", to: "Tag").toMany()
        }
        Entity("Passport") {
            Attribute("number", .uuid).required()
            Relationship("holder", to: "Person", inverse: "passport")
            Unique("number")
        }
        Entity("Person") {
            Attribute("active", .boolean).required().defaultValue("YES")
            Attribute("balance", .decimal)
            Attribute("born", .date)
            Attribute("height", .double)
            Attribute("nickname", .string).defaultValue("none")
            Attribute("name", .string).required()
            Attribute("photo", .binary)
            Attribute("profile", .uri)
            Attribute("rank", .integer16).required().defaultValue("0")
            Attribute("score", .integer64)
            Attribute("settings", .transformable)
            Attribute("visits", .integer32)
            Attribute("weight", .float)
            Attribute("token", .uuid)
            Relationship("followers", to: "Person", inverse: "following").toMany()
            Relationship("following", to: "Person", inverse: "followers").toMany()
            Relationship("items", to: "Item", inverse: "owner").ordered()
            Relationship("passport", to: "Passport", inverse: "holder")
        }
        Entity("Tag") {
            Attribute("label", .string).required()
            Relationship("items", to: "Item", inverse: "tags").toMany().count(min: 1, max: 5)
            Unique("label")
        }
    }
}
