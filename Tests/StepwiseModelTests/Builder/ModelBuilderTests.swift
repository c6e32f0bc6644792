import StepwiseModel
import Testing

@Suite("ModelBuilder")
struct ModelBuilderTests {
    @Test("The DSL builds exactly the entities it describes")
    func dslBuildsExactEntities() {
        let model = ObjectModel("X", versionIdentifiers: ["3"]) {
            Entity("A") {
                Attribute("a", .string).required()
                Attribute("b", .integer32).defaultValue("0").indexed()
                Relationship("r", to: "B", inverse: "s").toMany()
                Unique("a", "b")
                CompoundIndex("a", "b")
            }
            Entity("B") {
                Relationship("s", to: "A", inverse: "r")
            }
        }
        #expect(model.name == "X")
        #expect(model.versionIdentifiers == ["3"])
        #expect(model.entityNames == ["A", "B"])
        #expect(
            model[entity: "A"]
                == Entity(
                    "A",
                    attributes: [
                        Attribute("a", .string, isOptional: false),
                        Attribute("b", .integer32, isIndexed: true, defaultValue: "0"),
                    ],
                    relationships: [Relationship("r", destination: "B", inverse: "s", isToMany: true, maxCount: 0)],
                    uniquenessConstraints: [["a", "b"]],
                    compoundIndexes: [["a", "b"]]))
        #expect(model[entity: "B"] == Entity("B", relationships: [Relationship("s", destination: "A", inverse: "r")]))
        #expect(model.problems() == [])
    }

    @Test("Attribute modifiers set exactly their field")
    func attributeModifiers() {
        let built = Attribute("photo", .binary)
            .required()
            .transient()
            .indexed()
            .defaultValue("x")
            .range(min: "1", max: "9")
            .renamed(from: "image")
            .versionHashModifier("m")
            .externalStorage()
            .transformer("T")
            .userInfo("k", "v")
            .userInfo("k2", "v2")
        #expect(
            built
                == Attribute(
                    "photo", .binary, isOptional: false, isTransient: true, isIndexed: true, defaultValue: "x",
                    minValue: "1", maxValue: "9", renamingIdentifier: "image", versionHashModifier: "m",
                    allowsExternalBinaryDataStorage: true, valueTransformerName: "T", userInfo: ["k": "v", "k2": "v2"]))
        #expect(Attribute("a", .string).required().optional().isOptional)
        #expect(Attribute("a", .string).isOptional)
    }

    @Test("Relationship modifiers set exactly their field")
    func relationshipModifiers() {
        let toOne = Relationship("owner", to: "Person", inverse: "things")
        #expect(toOne == Relationship("owner", destination: "Person", inverse: "things"))
        #expect(toOne.isToOne)
        #expect(toOne.maxCount == 1)
        #expect(toOne.minCount == 0)
        #expect(toOne.isOptional)
        #expect(toOne.deletionRule == .nullify)

        let toMany = toOne.toMany()
        #expect(toMany.isToMany)
        #expect(toMany.maxCount == 0)
        #expect(!toMany.isOrdered)

        let ordered = toOne.ordered()
        #expect(ordered.isToMany && ordered.isOrdered && ordered.maxCount == 0)

        let built = Relationship("parts", to: "Part")
            .toMany()
            .count(min: 2, max: 5)
            .required()
            .transient()
            .deletionRule(.cascade)
            .renamed(from: "pieces")
            .versionHashModifier("m")
            .userInfo("k", "v")
        #expect(
            built
                == Relationship(
                    "parts", destination: "Part", isToMany: true, minCount: 2, maxCount: 5, deletionRule: .cascade,
                    isOptional: false, isTransient: true, renamingIdentifier: "pieces", versionHashModifier: "m",
                    userInfo: ["k": "v"]))
        // A bounded to-many keeps its bound when made to-many again.
        #expect(built.toMany().maxCount == 5)
    }

    @Test("Entity modifiers set exactly their field")
    func entityModifiers() {
        let built = Entity("Note") { Attribute("text", .string) }
            .abstract()
            .parent("Record")
            .className("NoteMO")
            .renamed(from: "Memo")
            .versionHashModifier("m")
            .userInfo("k", "v")
        #expect(
            built
                == Entity(
                    "Note", parentName: "Record", isAbstract: true, className: "NoteMO",
                    attributes: [Attribute("text", .string)], userInfo: ["k": "v"], versionHashModifier: "m",
                    renamingIdentifier: "Memo"))
        let inline = Entity("Note", parent: "Record", isAbstract: true, className: "NoteMO") {}
        #expect(inline == Entity("Note", parentName: "Record", isAbstract: true, className: "NoteMO"))
    }

    @Test("Conditions and loops in builder blocks add what they produce")
    func controlFlowInBuilders() {
        let withTimestamps = true
        let withLegacy = false
        let model = ObjectModel("Y") {
            for name in ["B", "A"] {
                Entity(name) {
                    Attribute("id", .uuid).required()
                    if withTimestamps {
                        Attribute("createdAt", .date)
                    } else {
                        Attribute("created", .double)
                    }
                    if withLegacy {
                        Attribute("legacy", .string)
                    }
                    for index in 1...2 {
                        Attribute("slot\(index)", .integer16)
                    }
                }
            }
            if withLegacy {
                Entity("Legacy") {}
            }
            [Entity("C"), Entity("D")]
        }
        #expect(model.entityNames == ["B", "A", "C", "D"])
        #expect(model[entity: "A"]?.attributes.map(\.name) == ["id", "createdAt", "slot1", "slot2"])
        #expect(model[entity: "A"]?.attributes.map(\.type) == [.uuid, .date, .integer16, .integer16])
    }

    @Test("Fetch indexes can be listed in an entity block")
    func fetchIndexesInBlocks() {
        let entity = Entity("Place") {
            Attribute("latitude", .double)
            Attribute("longitude", .double)
            FetchIndex(
                name: "byLocation",
                elements: [
                    FetchIndex.Element(property: "latitude", kind: "R-Tree"),
                    FetchIndex.Element(property: "longitude", kind: "R-Tree", isAscending: false),
                ])
        }
        #expect(entity.fetchIndexes.count == 1)
        #expect(entity.fetchIndexes.first?.name == "byLocation")
        #expect(entity.fetchIndexes.first?.elements.map(\.property) == ["latitude", "longitude"])
        #expect(entity.fetchIndexes.first?.elements.map(\.isAscending) == [true, false])
        #expect(entity.fetchIndexes.first?.elements.map(\.kind) == ["R-Tree", "R-Tree"])
    }

    @Test("The model walks hierarchies: ancestors, roots, subentities and inherited properties")
    func hierarchyQueries() throws {
        let model = ObjectModel("H") {
            Entity("Record", isAbstract: true) { Attribute("id", .uuid) }
            Entity("Message", parent: "Record") { Attribute("body", .string) }
            Entity("Event", parent: "Record") { Relationship("owner", to: "Person") }
            Entity("Reply", parent: "Message") { Attribute("quote", .string) }
            Entity("Alert", parent: "Message") { Attribute("level", .integer16) }
            Entity("Person") {}
        }
        let reply = try #require(model[entity: "Reply"])
        let record = try #require(model[entity: "Record"])
        #expect(model.ancestors(of: reply).map(\.name) == ["Message", "Record"])
        #expect(model.root(of: reply).name == "Record")
        #expect(model.root(of: record).name == "Record")
        #expect(model.rootEntities.map(\.name) == ["Person", "Record"])
        #expect(model.subentities(of: record).map(\.name) == ["Event", "Message"])
        #expect(model.hierarchy(from: record).map(\.name) == ["Record", "Event", "Message", "Alert", "Reply"])
        #expect(model.allAttributes(of: reply).map(\.name) == ["id", "body", "quote"])
        #expect(model.allProperties(of: reply).map(\.name) == ["id", "body", "quote"])
        #expect(model.allRelationships(of: try #require(model[entity: "Event"])).map(\.name) == ["owner"])
        #expect(model.declaringEntity(ofProperty: "id", from: reply)?.name == "Record")
        #expect(model.declaringEntity(ofProperty: "missing", from: reply) == nil)
        #expect(model.entity(reply, isKindOf: record))
        #expect(!model.entity(record, isKindOf: reply))
    }
}
