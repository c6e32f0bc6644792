import StepwiseMapping
import StepwiseModel
import Testing

/// Three versions whose two inferred steps can't be composed exactly, with the refusal
/// ``MappingComposition`` must give. Each step on its own infers.
struct NonComposableChain: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var versions: [ObjectModel]
    var refusal: CompositionRefusal

    init(
        _ description: String, _ refusal: CompositionRefusal, @ModelBuilder a: () -> [Entity],
        @ModelBuilder b: () -> [Entity], @ModelBuilder c: () -> [Entity]
    ) {
        testDescription = description
        versions = [ObjectModel("A", entities: a()), ObjectModel("B", entities: b()), ObjectModel("C", entities: c())]
        self.refusal = refusal
    }

    static let all: [NonComposableChain] = attributeChains + relationshipChains + constraintChains

    static let attributeChains: [NonComposableChain] = [
        // 3 → 3.0 → "3.0" in two steps, but 3 → "3" in one.
        NonComposableChain(
            "widen twice",
            CompositionRefusal(
                .stackedWidenings(
                    first: TypeWidening(from: .integer64, to: .double)!,
                    second: TypeWidening(from: .double, to: .string)!),
                entity: "Score", property: "points")
        ) {
            Entity("Score") { Attribute("points", .integer64) }
        } b: {
            Entity("Score") { Attribute("points", .double) }
        } c: {
            Entity("Score") { Attribute("points", .string) }
        },
        NonComposableChain(
            "add an attribute whose default the next version changes",
            CompositionRefusal(
                .intermediateDefault(intermediate: "cm", destination: "m"), entity: "Reading", property: "measure")
        ) {
            Entity("Reading") { Attribute("value", .double) }
        } b: {
            Entity("Reading") {
                Attribute("value", .double)
                Attribute("unit", .string).defaultValue("cm")
            }
        } c: {
            Entity("Reading") {
                Attribute("value", .double)
                Attribute("measure", .string).defaultValue("m").renamed(from: "unit")
            }
        },
        NonComposableChain(
            "fill nils with a default, then make the attribute optional again",
            CompositionRefusal(
                .intermediateDefault(intermediate: "-", destination: nil), entity: "Post", property: "note")
        ) {
            Entity("Post") { Attribute("note", .string) }
        } b: {
            Entity("Post") { Attribute("note", .string).required().defaultValue("-") }
        } c: {
            Entity("Post") { Attribute("note", .string) }
        },
    ]

    static let relationshipChains: [NonComposableChain] = [
        NonComposableChain(
            "make a to-many to-one, then to-many again",
            CompositionRefusal(.intermediateKeepsOneObject, entity: "Team", property: "players")
        ) {
            team { Relationship("players", to: "Player", inverse: "team").toMany() }
        } b: {
            team { Relationship("players", to: "Player", inverse: "team") }
        } c: {
            team { Relationship("players", to: "Player", inverse: "team").toMany() }
        },
        NonComposableChain(
            "forget an order, then order again",
            CompositionRefusal(.intermediateLosesOrder, entity: "Team", property: "players")
        ) {
            team { Relationship("players", to: "Player", inverse: "team").ordered() }
        } b: {
            team { Relationship("players", to: "Player", inverse: "team").toMany() }
        } c: {
            team { Relationship("players", to: "Player", inverse: "team").ordered() }
        },
        NonComposableChain(
            "keep one object of several entities by the intermediate keys",
            CompositionRefusal(.orderDependsOnIntermediateKeys, entity: "Shelf", property: "items")
        ) {
            shelf { Relationship("items", to: "Item", inverse: "shelf").toMany() }
        } b: {
            shelf { Relationship("items", to: "Item", inverse: "shelf").toMany() }
        } c: {
            shelf { Relationship("items", to: "Item", inverse: "shelf") }
        },
        NonComposableChain(
            "add an inverse in the middle, then drop the relationship it inverts",
            CompositionRefusal(.filledThroughItsInverse, entity: "Player", property: "team")
        ) {
            Entity("Team") { Relationship("players", to: "Player").toMany() }
            Entity("Player") { Attribute("name", .string) }
        } b: {
            team { Relationship("players", to: "Player", inverse: "team").toMany() }
        } c: {
            Entity("Team") { Attribute("city", .string) }
            Entity("Player") {
                Attribute("name", .string)
                Relationship("team", to: "Team")
            }
        },
        NonComposableChain(
            "bound a count only in the middle",
            CompositionRefusal(.intermediateCountBound(minimum: 0, maximum: 3), entity: "Team", property: "players")
        ) {
            team { Relationship("players", to: "Player", inverse: "team").toMany() }
        } b: {
            team { Relationship("players", to: "Player", inverse: "team").toMany().count(max: 3) }
        } c: {
            team { Relationship("players", to: "Player", inverse: "team").toMany() }
        },
    ]

    static let constraintChains: [NonComposableChain] = [
        NonComposableChain(
            "constrain uniqueness only in the middle",
            CompositionRefusal(.intermediateUniquenessConstraint(["name"]), entity: "Tag")
        ) {
            Entity("Tag") { Attribute("name", .string) }
        } b: {
            Entity("Tag") {
                Attribute("name", .string)
                Unique("name")
            }
        } c: {
            Entity("Tag") { Attribute("label", .string).renamed(from: "name") }
        }
    ]

    /// Team(players) and Player(team, name).
    static func team(@EntityBuilder players: () -> [any EntityComponent]) -> [Entity] {
        [
            Entity("Team", players),
            Entity("Player") {
                Attribute("name", .string)
                Relationship("team", to: "Team", inverse: "players")
            },
        ]
    }

    /// Shelf(items) holding Books and Discs, both kinds of the abstract Item.
    static func shelf(@EntityBuilder items: () -> [any EntityComponent]) -> [Entity] {
        [
            Entity("Shelf", items),
            Entity("Item", isAbstract: true) {
                Attribute("title", .string)
                Relationship("shelf", to: "Shelf", inverse: "items")
            },
            Entity("Book", parent: "Item") { Attribute("pages", .integer32) },
            Entity("Disc", parent: "Item") { Attribute("minutes", .integer32) },
        ]
    }
}
